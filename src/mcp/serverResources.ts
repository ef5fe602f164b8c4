// Resources and prompts of one running server: reading, prompts by name, and subscriptions (renewed after a
// restart).
import type { McpConnection, RequestCallOptions } from './connection';
import { renderPromptResult } from './promptContent';
import { toResourceParts } from './resourceCatalog';
import type { McpPromptInfo, McpPromptResult, McpResourcePart } from './types';

export interface ResourcesHost {
  name: string;
  /** The connection of a ready server; throws saying why the server cannot be used. */
  ready(): McpConnection;
  /** The connection if the server is ready. */
  running(): McpConnection | undefined;
  prompts(): readonly McpPromptInfo[];
  requestOptions(signal?: AbortSignal): RequestCallOptions;
  log(line: string): void;
}

export class ServerResources {
  /** Resources subscribed to; renewed after an automatic restart. */
  private readonly subscriptions = new Set<string>();

  constructor(private readonly host: ResourcesHost) {}

  async read(uri: string, signal?: AbortSignal): Promise<McpResourcePart[]> {
    const connection = this.host.ready();
    if (!connection.hasResources) throw new Error(`MCP server "${this.host.name}" offers no resources.`);
    const raw = await connection.readResource(uri, this.host.requestOptions(signal));
    return toResourceParts(raw, uri, (why) => this.host.log(`reading ${uri}: ${why}`));
  }

  async prompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptResult> {
    const connection = this.host.ready();
    if (!connection.hasPrompts) throw new Error(`MCP server "${this.host.name}" offers no prompts.`);
    const known = this.host.prompts();
    if (known.length && !known.some((p) => p.name === name)) {
      throw new Error(`MCP server "${this.host.name}" has no prompt named "${name}" (it offers: ${known.map((p) => p.name).join(', ')}).`);
    }
    return renderPromptResult(await connection.getPrompt(name, args, this.host.requestOptions(signal)));
  }

  async subscribe(uri: string, signal?: AbortSignal): Promise<void> {
    const connection = this.host.ready();
    if (!connection.hasResources) throw new Error(`MCP server "${this.host.name}" offers no resources.`);
    if (!connection.canSubscribe) throw new Error(`MCP server "${this.host.name}" does not support resource subscriptions.`);
    await connection.subscribeResource(uri, this.host.requestOptions(signal));
    this.subscriptions.add(uri);
  }

  async unsubscribe(uri: string, signal?: AbortSignal): Promise<void> {
    this.subscriptions.delete(uri);
    const connection = this.host.running();
    if (!connection?.canSubscribe) return;
    await connection.unsubscribeResource(uri, this.host.requestOptions(signal));
  }

  /** After a restart: subscribe again to what was subscribed before. */
  renew(connection: McpConnection): void {
    if (!this.subscriptions.size || !connection.canSubscribe) return;
    for (const uri of this.subscriptions) {
      connection
        .subscribeResource(uri, this.host.requestOptions())
        .then(() => this.host.log(`subscription to ${uri} renewed`))
        .catch((err: unknown) => this.host.log(`renewing the subscription to ${uri} failed: ${(err as Error).message}`));
    }
  }

  /** Stopped by hand: nothing to renew. */
  forget(): void {
    this.subscriptions.clear();
  }
}
