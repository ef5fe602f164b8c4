// One "Local Harness MCP: <server>" log channel per server, created when the server first logs (lifecycle,
// stderr, its log notifications), so each server's log can be shown on its own.
import * as vscode from 'vscode';

export class McpLogChannels implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  constructor(private readonly redact: (line: string) => string = (line) => line) {}

  append(server: string, line: string): void {
    this.channel(server).info(this.redact(line));
  }

  /** Show one server's log; `placeholder` lines go in first when the channel is new and empty. */
  show(server: string, placeholder: readonly string[] = []): void {
    const fresh = !this.channels.has(server);
    const channel = this.channel(server);
    if (fresh) for (const line of placeholder) channel.info(line);
    channel.show(true);
  }

  private channel(server: string): vscode.LogOutputChannel {
    let channel = this.channels.get(server);
    if (!channel) {
      channel = vscode.window.createOutputChannel(`Local Harness MCP: ${server}`, { log: true });
      this.channels.set(server, channel);
    }
    return channel;
  }

  dispose(): void {
    for (const channel of this.channels.values()) channel.dispose();
    this.channels.clear();
  }
}
