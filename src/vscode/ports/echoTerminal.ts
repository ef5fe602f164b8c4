// A read-only pseudoterminal that shows commands run as child processes (the fallback when the shell has no
// integration), so the user sees what ran and what it printed.
import * as vscode from 'vscode';

/** Lines written before the terminal opened are kept up to this many characters. */
const MAX_BACKLOG = 200_000;

export class EchoTerminal implements vscode.Disposable {
  private readonly writes = new vscode.EventEmitter<string>();
  private readonly terminal: vscode.Terminal;
  private opened = false;
  private backlog = '';
  private isClosed = false;

  constructor(name: string) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writes.event,
      open: () => {
        this.opened = true;
        if (this.backlog) this.writes.fire(this.backlog);
        this.backlog = '';
      },
      close: () => {
        this.isClosed = true;
      },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('hubot') });
  }

  get closed(): boolean {
    return this.isClosed || this.terminal.exitStatus !== undefined;
  }

  show(): void {
    this.terminal.show(true);
  }

  writeLine(text: string): void {
    this.write(text + '\n');
  }

  /** Output as the process printed it, with a newline at the end. */
  writeBlock(text: string): void {
    if (!text) return;
    this.write(text.endsWith('\n') ? text : text + '\n');
  }

  private write(text: string): void {
    const data = text.replace(/\r?\n/g, '\r\n');
    if (this.opened) this.writes.fire(data);
    else this.backlog = (this.backlog + data).slice(-MAX_BACKLOG);
  }

  dispose(): void {
    this.terminal.dispose();
    this.writes.dispose();
  }
}
