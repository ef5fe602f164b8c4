// The last terminal command's output, for `@terminal`: read through shell integration as each command runs (the
// only stable way to get a terminal's output). Without shell integration there is nothing to offer.
import * as vscode from 'vscode';

const MAX_OUTPUT_CHARS = 20_000;

export interface LastCommand {
  commandLine: string;
  output: string;
  exitCode: number | undefined;
}

export class TerminalOutputWatcher implements vscode.Disposable {
  private last: LastCommand | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.window.onDidStartTerminalShellExecution((event) => {
        const execution = event.execution;
        const entry: LastCommand = { commandLine: execution.commandLine.value, output: '', exitCode: undefined };
        void (async () => {
          for await (const data of execution.read()) {
            // Keep the tail: the end of a long output (the error, the summary) is what matters.
            entry.output = (entry.output + data).slice(-MAX_OUTPUT_CHARS);
          }
        })().catch(() => undefined);
        this.last = entry;
      }),
      vscode.window.onDidEndTerminalShellExecution((event) => {
        if (this.last && event.execution.commandLine.value === this.last.commandLine) this.last.exitCode = event.exitCode;
      }),
    ];
  }

  lastCommand(): LastCommand | undefined {
    return this.last;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The block `@terminal` attaches: the command, its exit code, its output without terminal escape sequences. */
export function terminalText(command: LastCommand): string {
  // eslint-disable-next-line no-control-regex
  const clean = command.output.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, '').replace(/\r\n?/g, '\n');
  return `$ ${command.commandLine}${command.exitCode === undefined ? '' : ` (exit code ${command.exitCode})`}\n${clean.trimEnd()}`;
}
