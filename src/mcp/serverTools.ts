// One server's tools in the chat's registry: registered from tools/list, re-listed when the server says the list
// changed (a burst of notifications is one more pass; one during a start is applied once the server is ready), and
// taken out when the server goes down.
import { Coalescing } from './coalescing';
import type { McpConnection } from './connection';
import type { McpToolCaller } from './toolAdapter';
import type { McpToolRegistrar, SyncResult } from './toolRegistrar';
import { checkToolDefinition } from './toolSchema';
import type { McpServerConfig } from './types';

export interface ToolsHost {
  config: McpServerConfig;
  registrar: McpToolRegistrar;
  /** Who runs the tools' calls (the server's controller). */
  caller: McpToolCaller;
  /** The connection serving the server now (undefined while it is down). */
  current(): McpConnection | undefined;
  /** A start is under way: a change announced meanwhile is applied once it is ready. */
  starting(): boolean;
  log(line: string): void;
  /** The tools changed (the server's status should be reported again). */
  changed(): void;
}

const EMPTY_SYNC: SyncResult = { tools: [], skipped: [], tokens: 0 };

export class ServerTools {
  private synced: SyncResult = EMPTY_SYNC;
  private pendingRelist = false;
  private readonly relisting = new Coalescing();

  constructor(private readonly host: ToolsHost) {}

  /** What is registered now: the tools, the ones skipped and why, their tokens. */
  get current(): SyncResult {
    return this.synced;
  }

  /** Registers the tools of a tools/list answer (each checked alone: one bad definition doesn't hide the rest). */
  apply(raw: readonly unknown[]): void {
    const h = this.host;
    this.synced = h.registrar.sync(h.config, raw.map(checkToolDefinition), h.caller, (line) => h.log(line));
  }

  remove(): void {
    this.host.registrar.remove(this.host.config.name);
    this.synced = EMPTY_SYNC;
  }

  /** After notifications/tools/list_changed from `connection`. */
  relist(connection: McpConnection | undefined): void {
    const host = this.host;
    if (!connection) return;
    if (host.current() !== connection) {
      if (host.starting()) this.pendingRelist = true;
      return;
    }
    this.relisting.run(async () => {
      try {
        const raw = await connection.listTools();
        if (host.current() !== connection) return 'stop';
        this.apply(raw);
        host.log(`re-listed tools: ${this.synced.tools.length} available`);
        host.changed();
      } catch (err) {
        host.log(`re-listing tools failed: ${(err as Error).message}`);
      }
    });
  }

  /** The server is ready: a change announced while it started is listed now. */
  applyPending(connection: McpConnection): void {
    if (this.pendingRelist) this.relist(connection);
  }

  clearPending(): void {
    this.pendingRelist = false;
  }
}
