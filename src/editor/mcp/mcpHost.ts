// The editor's MCP servers without the VS Code API: one McpManager per window on the chat's tool registry (made on
// first use), reloads when the definitions change, servers the user stopped kept stopped across reloads, the warm-up
// when the chat is shown and the start before each turn. What it needs from the editor (settings, folders, trust,
// consent, what the servers are lent) comes through McpHostPort; src/vscode/mcp/mcpService.ts implements it and
// keeps the watchers, the log channels and the dialogs. Nothing starts until warmUp or beforeTurn.
import { untilAborted } from '../../core/abortable';
import type { ToolRegistry } from '../../core/tools/registry';
import type { McpAuthEnv } from '../../mcp/auth/types';
import type { McpClientFeatures } from '../../mcp/clientFeatures';
import type { McpManager, McpManagerOptions } from '../../mcp/manager';
import { commandLineOf, requiresConsent } from '../../mcp/serverCommand';
import type { McpConsentPort, McpServerConfig, McpServerStatus } from '../../mcp/types';
import type { Logger } from '../log/logger';
import { withDefaultTimeout } from './mcpSettings';
import { ServerDefinitions, type DefinitionsEnv, type DefinitionSources } from './serverDefinitions';
import { notStartedStatus, toolsSummary, type OfferedTools } from './serverView';

/** What the host asks of the editor. */
export interface McpHostPort extends DefinitionSources {
  /** `localharness.mcp.toolTimeoutSeconds` in ms (undefined: the client's default). */
  toolTimeoutMs(): number | undefined;
  isWorkspaceTrusted(): boolean;
  /** Asked before a workspace-defined server starts. */
  consent: McpConsentPort;
  /** The user starts a server themselves: a "no" from earlier doesn't stand in the way of asking again. */
  askAgain(server: McpServerConfig): void;
  /** Roots, forms and sampling lent to the servers; called once, when the manager is made. */
  features(): McpClientFeatures | undefined;
}

export interface McpHostOptions extends DefinitionsEnv {
  port: McpHostPort;
  log: Logger;
  /** The chat's tool registry, where the servers' tools go (loads the engine on first use). */
  getRegistry: () => Promise<ToolRegistry>;
  clientVersion: string;
  /** OAuth tokens of HTTP servers and how the user signs in. */
  auth?: McpAuthEnv;
  /** The servers' statuses or the definitions changed. */
  onDidChange: () => void;
  /** A server's log line (for its log channel). */
  onServerLog: (server: string, line: string) => void;
  /** Definitions changing in a burst (a file saved twice, a folder added with two files) reload once. Default 200 ms. */
  reloadDebounceMs?: number;
  /** Timings of the manager (tests make restarts quick). */
  tuning?: Pick<McpManagerOptions, 'restartDelaysMs' | 'stableAfterMs' | 'defaultStartTimeoutMs'>;
}

const RELOAD_DEBOUNCE_MS = 200;

export class McpHost {
  readonly definitions: ServerDefinitions;
  private manager: McpManager | undefined;
  private managerReady: Promise<McpManager> | undefined;
  private configLoaded: Promise<void> | undefined;
  private warm: Promise<void> | undefined;
  /** A reload/start in flight: the next turn waits for it so it sees the new tools. */
  private pending: Promise<void> = Promise.resolve();
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** Servers the user stopped: a reload doesn't start them again. */
  private readonly userStopped = new Set<string>();
  private lastNotice: string | undefined;
  private lastOffered: OfferedTools | undefined;
  /** The latest turn's signal: Stop also ends a form or sampling request its tools caused. */
  private turn: AbortSignal | undefined;
  private closed: Promise<void> | undefined;

  constructor(private readonly o: McpHostOptions) {
    this.definitions = new ServerDefinitions(o.port, o.log, { ...(o.userHome !== undefined && { userHome: o.userHome }), ...(o.env && { env: o.env }) });
  }

  /** Statuses for the view: the manager's, or the configured servers as not started yet. */
  statuses(): McpServerStatus[] {
    if (this.manager) return this.manager.statuses();
    return this.definitions.servers.map((s) => notStartedStatus(s.name, s.source, commandLineOf(s)));
  }

  summary(): string | undefined {
    return toolsSummary(this.statuses(), !this.o.port.isWorkspaceTrusted(), this.lastOffered);
  }

  /** The pre-filter chose tools for a request: shown in the view's message and the status bar tooltip. */
  recordOffered(offered: OfferedTools): void {
    const changed = this.lastOffered?.offered.length !== offered.offered.length || this.lastOffered?.tokensOffered !== offered.tokensOffered;
    this.lastOffered = offered;
    if (changed) this.o.onDidChange();
  }

  /** Tokens of all MCP tool definitions (for the context meter). */
  toolTokens(): number {
    return this.manager?.totalToolTokens() ?? 0;
  }

  /** The manager once a server was started (undefined before): the chat reads prompts and resources from it. */
  get runningManager(): McpManager | undefined {
    return this.manager;
  }

  /** The running (or last) chat turn's signal. */
  get turnSignal(): AbortSignal | undefined {
    return this.turn;
  }

  /** Read the definitions (once; later changes arrive through scheduleReload). */
  loadConfig(): Promise<void> {
    this.configLoaded ??= this.reload('first use');
    return this.configLoaded;
  }

  /** Start every configured server (once per window). Never throws. */
  warmUp(): Promise<void> {
    this.warm ??= this.track(
      (async () => {
        await this.loadConfig();
        if (this.definitions.servers.length === 0) return;
        const manager = await this.ensureManager();
        this.o.log.info(`starting ${this.definitions.servers.length} MCP server(s)`);
        await manager.startAll();
      })().catch((err: unknown) => this.o.log.error('MCP servers could not be started', err)),
    );
    return this.warm;
  }

  /**
   * Before a turn: servers started (and consent asked) so their tools are in this turn's list, and a notice
   * when the MCP tools changed since the last one. Cancelling the turn stops the wait, not the servers.
   */
  async beforeTurn(signal: AbortSignal, notice: (message: string) => void): Promise<void> {
    this.turn = signal;
    void this.warmUp();
    // A failed start shows in the servers' states; a cancelled turn just stops waiting.
    await untilAborted(this.pending.catch(() => undefined), signal).catch(() => undefined);
    const summary = this.summary();
    if (summary && summary !== this.lastNotice && !signal.aborted) notice(summary);
    this.lastNotice = summary;
  }

  async start(name: string): Promise<void> {
    const manager = await this.ensureManager();
    this.userStopped.delete(name);
    const config = this.definitions.servers.find((s) => s.name === name);
    if (config) this.o.port.askAgain(config);
    await this.track(manager.start(name));
  }

  async stop(name: string): Promise<void> {
    const manager = await this.ensureManager();
    this.userStopped.add(name);
    await manager.stop(name);
  }

  async restart(name: string): Promise<void> {
    const manager = await this.ensureManager();
    this.userStopped.delete(name);
    const config = this.definitions.servers.find((s) => s.name === name);
    if (config) this.o.port.askAgain(config);
    await this.track(manager.restart(name));
  }

  /** HTTP servers with a stored sign-in (for Sign Out). */
  async signedIn(): Promise<McpServerConfig[]> {
    await this.loadConfig();
    const store = this.o.auth?.store;
    if (!store) return [];
    const http = this.definitions.servers.filter((s) => s.transport.type !== 'stdio');
    const stored = await Promise.all(http.map(async (s) => (await store.get((s.transport as { url: string }).url))?.tokens !== undefined));
    return http.filter((_, i) => stored[i]);
  }

  /** Stops the server and removes its tokens; it stays stopped until started again (which signs in again). */
  async signOut(name: string): Promise<boolean> {
    const manager = await this.ensureManager();
    this.userStopped.add(name);
    return manager.signOut(name);
  }

  /** Consent was revoked for these servers: stop the ones that run. */
  async stopRevoked(names: readonly string[]): Promise<void> {
    const manager = this.manager;
    if (!manager) return;
    for (const name of names) {
      if (!manager.serverNames().includes(name)) continue;
      const state = manager.status(name).state;
      if (state !== 'stopped' && state !== 'blocked') await manager.stop(name);
    }
  }

  /** The definitions may have changed: read them again after the burst settles. */
  scheduleReload(why: string): void {
    if (this.closed) return;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      void this.track(this.reload(why));
    }, this.o.reloadDebounceMs ?? RELOAD_DEBOUNCE_MS);
  }

  /** Running servers hear about the new roots now; the definitions of the new folders load after the debounce. */
  foldersChanged(): void {
    this.manager?.rootsChanged();
    this.scheduleReload('the workspace folders changed');
  }

  /** The workspace became trusted: servers that were blocked for it start (once the chat has started them). */
  trustGranted(): void {
    const manager = this.manager;
    // Servers from the user's settings ran with no roots until now.
    manager?.rootsChanged();
    if (!manager || !this.warm) return;
    const blocked = manager.statuses().filter((s) => s.state === 'blocked' && requiresConsent(s.source));
    if (blocked.length) this.o.log.info(`workspace trusted: starting ${blocked.map((s) => s.name).join(', ')}`);
    void this.track(Promise.all(blocked.map((s) => manager.start(s.name).catch(() => undefined))).then(() => undefined));
  }

  /** Stops every server and waits until their processes are gone. */
  shutdown(): Promise<void> {
    this.closed ??= (async () => {
      if (this.reloadTimer) clearTimeout(this.reloadTimer);
      const manager = this.manager ?? (await this.managerReady?.catch(() => undefined));
      await manager?.dispose().catch((err: unknown) => this.o.log.error('MCP servers did not shut down cleanly', err));
    })();
    return this.closed;
  }

  private ensureManager(): Promise<McpManager> {
    this.managerReady ??= (async () => {
      const [registry, { McpManager }] = await Promise.all([this.o.getRegistry(), import('../../mcp/manager')]);
      await this.loadConfig();
      const features = this.o.port.features();
      const manager = new McpManager({
        registry,
        consent: this.o.port.consent,
        isWorkspaceTrusted: () => this.o.port.isWorkspaceTrusted(),
        clientVersion: this.o.clientVersion,
        ...(features && { features }),
        ...(this.o.auth && { auth: this.o.auth }),
        ...this.o.tuning,
      });
      manager.onDidChange(() => this.o.onDidChange());
      manager.onDidLog(({ server, line }) => this.o.onServerLog(server, line));
      await manager.setServers(withDefaultTimeout(this.definitions.servers, this.o.port.toolTimeoutMs()));
      this.manager = manager;
      this.o.onDidChange();
      return manager;
    })().catch((err: unknown) => {
      this.managerReady = undefined;
      throw err;
    });
    return this.managerReady;
  }

  private async reload(why: string): Promise<void> {
    if (!(await this.definitions.read(why))) return;
    const servers = this.definitions.servers;
    for (const name of [...this.userStopped]) if (!servers.some((s) => s.name === name)) this.userStopped.delete(name);
    this.o.onDidChange();
    if (!this.manager) {
      // Servers added after the first turn still start; before it, they wait like the rest.
      if (this.warm && servers.length) void this.track(this.ensureManager().then((m) => this.startNew(m))).catch((err: unknown) => this.o.log.error('MCP servers could not be started', err));
      return;
    }
    try {
      await this.manager.setServers(withDefaultTimeout(servers, this.o.port.toolTimeoutMs()));
    } catch (err) {
      this.o.log.error('MCP servers could not be updated', err);
      return;
    }
    if (this.warm) await this.startNew(this.manager);
  }

  /** After a reload: start the new or changed servers (not the ones the user stopped). */
  private async startNew(manager: McpManager): Promise<void> {
    const fresh = manager.statuses().filter((s) => s.state === 'stopped' && !this.userStopped.has(s.name));
    await Promise.all(fresh.map((s) => manager.start(s.name).catch((err: unknown) => this.o.log.error(`MCP server "${s.name}"`, err))));
  }

  /** Remember work the next turn should wait for. */
  private track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending = Promise.all([this.pending, settled]).then(() => undefined);
    return work;
  }
}
