// The life of one configured server: consent, start, ready, crash, stop, and what it reports (its status). What
// it delegates: the restart delays (restartPolicy.ts), opening the connection (serverLaunch.ts), its tools in the
// registry (serverTools.ts), its catalog (catalogKeeper.ts), resources and prompts (serverResources.ts), its log
// (serverLog.ts).
import type { McpAuthSession } from './auth/authSession';
import { CatalogKeeper } from './catalogKeeper';
import type { McpConnection } from './connection';
import type { ToolCallOutput } from './content';
import { EMPTY_CATALOG, type McpCatalog } from './resourceCatalog';
import { RestartPolicy } from './restartPolicy';
import type { RingBufferLimits } from './ringBuffer';
import { commandLineOf } from './serverCommand';
import { launchServer, type LaunchEnv, type LaunchEvents } from './serverLaunch';
import { ServerLog } from './serverLog';
import { ServerResources } from './serverResources';
import { ServerTools } from './serverTools';
import { consentVerdict, createAuthSession, unavailableMessage, type AuthEnvOptions, type ConsentEnv } from './startGate';
import type { McpToolCaller } from './toolAdapter';
import type { McpToolRegistrar } from './toolRegistrar';
import type { McpServerConfig, McpServerState, McpServerStatus } from './types';

export interface ControllerEnv extends AuthEnvOptions, ConsentEnv, LaunchEnv {
  registrar: McpToolRegistrar;
  defaultToolTimeoutMs: number;
  /** One entry per automatic restart attempt: the delay before it. */
  restartDelaysMs: readonly number[];
  /** A server that stayed up this long gets a fresh set of restart attempts at its next crash. */
  stableAfterMs: number;
  logLimits: RingBufferLimits;
  onChange: (status: McpServerStatus) => void;
  onLog: (server: string, line: string) => void;
  /** A subscribed resource changed (notifications/resources/updated). */
  onResourceUpdated?: (server: string, uri: string) => void;
}

export class ServerController implements McpToolCaller {
  /** resources/read, prompts/get and subscriptions of the running server. */
  readonly resources: ServerResources;
  private state: McpServerState = 'stopped';
  private message: string | undefined;
  private connection: McpConnection | undefined;
  /** Bumped by every start and stop; async work from an older generation cleans up and gives way. */
  private generation = 0;
  private startAbort: AbortController | undefined;
  private launching: Promise<void> | undefined;
  private consentGiven = false;
  /** null: this server does not use OAuth. */
  private auth: McpAuthSession | null | undefined;
  private readonly restarts: RestartPolicy;
  private readonly tools: ServerTools;
  private readonly catalog: CatalogKeeper;
  private readonly logs: ServerLog;

  constructor(
    readonly config: McpServerConfig,
    private readonly env: ControllerEnv,
  ) {
    const log = (line: string) => this.logs.write(line);
    const starting = () => this.state === 'starting' || this.state === 'restarting';
    const changed = () => this.setState(this.state, this.message);
    this.logs = new ServerLog(config.name, env.logLimits, env.now, env.onLog);
    this.restarts = new RestartPolicy({ delaysMs: env.restartDelaysMs, stableAfterMs: env.stableAfterMs, now: env.now });
    this.tools = new ServerTools({ config, registrar: env.registrar, caller: this, current: () => this.connection, starting, log, changed });
    this.catalog = new CatalogKeeper({ name: config.name, current: () => this.connection, starting, log, changed });
    this.resources = new ServerResources({
      name: config.name,
      ready: () => this.requireReady(),
      running: () => (this.state === 'ready' ? this.connection : undefined),
      prompts: () => this.catalog.value.prompts,
      requestOptions: (signal) => ({ ...(signal && { signal }), timeoutMs: this.toolTimeoutMs() }),
      log,
    });
  }

  get serverName(): string {
    return this.config.name;
  }

  status(): McpServerStatus {
    const pid = this.connection?.pid;
    const info = this.connection?.serverInfo;
    const synced = this.tools.current;
    return {
      name: this.config.name,
      source: this.config.source,
      state: this.state,
      ...(this.message !== undefined && { message: this.message }),
      commandLine: commandLineOf(this.config),
      tools: synced.tools,
      skippedTools: synced.skipped,
      ...this.currentCatalog(),
      toolTokens: synced.tokens,
      ...(pid !== undefined && { pid }),
      restartAttempts: this.restarts.attempts,
      ...(info && { serverInfo: info }),
    };
  }

  log(): string[] {
    return this.logs.lines();
  }

  /** Resources, templates and prompts of the running server; empty unless ready. */
  currentCatalog(): McpCatalog {
    return this.state === 'ready' ? this.catalog.value : EMPTY_CATALOG;
  }

  /** Tell a running server the roots changed; it asks for them again. Never throws. */
  async rootsChanged(): Promise<void> {
    const connection = this.connection;
    if (!connection || this.state !== 'ready' || !this.env.features?.roots) return;
    try {
      await connection.sendRootsListChanged();
      this.logs.write('told the server the roots changed');
    } catch (err) {
      this.logs.write(`telling the server the roots changed failed: ${(err as Error).message}`);
    }
  }

  /** Start by the user's (or the host's) request: a fresh series of restart attempts. Resolves once settled. */
  start(): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    if (this.launching) return this.launching;
    this.restarts.reset();
    // The consent port is the source of truth (the host remembers and revokes); only automatic restarts skip it.
    this.consentGiven = false;
    return this.launch(false);
  }

  /** Stop and wait until the process is gone; `quick`: the user is waiting (Ctrl-C), SIGTERM comes sooner. */
  async stop(reason = 'stopped', quick = false): Promise<void> {
    this.generation++;
    this.restarts.stopped();
    this.startAbort?.abort();
    const connection = this.connection;
    this.connection = undefined;
    this.tools.remove();
    this.resources.forget();
    await connection?.close({ quick });
    await this.launching?.catch(() => undefined);
    this.setState('stopped', reason);
  }

  async restart(): Promise<void> {
    await this.stop('restarting');
    await this.start();
  }

  async call(mcpName: string, args: Record<string, unknown>, options: { signal: AbortSignal; onProgress?: (message: string) => void }): Promise<ToolCallOutput> {
    return this.requireReady().callTool(mcpName, args, {
      signal: options.signal,
      timeoutMs: this.toolTimeoutMs(),
      ...(options.onProgress && { onProgress: options.onProgress }),
    });
  }

  /** Stops the server and forgets its OAuth tokens and registration. True when something was stored. */
  async signOut(): Promise<boolean> {
    await this.stop('signed out');
    const session = await this.authSession();
    if (session) return session.signOut();
    const t = this.config.transport;
    return t.type !== 'stdio' && this.env.auth ? this.env.auth.store.delete(t.url) : false;
  }

  /** OAuth for an HTTP server, unless the definition turns it off or sends its own Authorization header. */
  private async authSession(): Promise<McpAuthSession | undefined> {
    this.auth ??= await createAuthSession(this.config, this.env, (line) => this.logs.write(line));
    return this.auth ?? undefined;
  }

  private launch(automatic: boolean): Promise<void> {
    const run = this.runLaunch(automatic, ++this.generation).finally(() => {
      if (this.launching === run) this.launching = undefined;
    });
    this.launching = run;
    return run;
  }

  private async runLaunch(automatic: boolean, generation: number): Promise<void> {
    // Stopping aborts everything below, a consent question included: stop never waits for the launch.
    const abort = new AbortController();
    this.startAbort = abort;
    const current = () => generation === this.generation;
    try {
      if (!(await this.mayStart(generation, abort.signal))) return;
      this.setState(automatic ? 'restarting' : 'starting', automatic ? `restart ${this.restarts.attemptText()}` : undefined);
      this.logs.write(`starting: ${commandLineOf(this.config)}`);
      const auth = await this.authSession();
      const launched = await launchServer(this.config, this.env, { signal: abort.signal, auth, catalog: this.catalog, events: this.events(), current });
      if (!launched) return;
      this.connection = launched.connection;
      this.tools.apply(launched.tools);
      this.catalog.set(launched.catalog);
      this.restarts.up();
      this.setState('ready', undefined);
      this.tools.applyPending(launched.connection);
      this.catalog.applyPending(launched.connection);
      this.resources.renew(launched.connection);
    } catch (err) {
      if (!current()) return;
      const message = (err as Error).message;
      this.logs.write(message);
      if (automatic) this.restartLater(message);
      else {
        this.tools.remove();
        this.setState('failed', message);
      }
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
      this.tools.clearPending();
      this.catalog.clearPending();
    }
  }

  /** What the connection reports; a connection that is no longer this server's is not heard. */
  private events(): LaunchEvents {
    return {
      log: (line) => this.logs.write(line),
      toolsChanged: (from) => this.tools.relist(from),
      crashed: (from, reason) => this.onCrash(from, reason),
      resourcesChanged: (from) => this.catalog.refresh(from, 'resources'),
      promptsChanged: (from) => this.catalog.refresh(from, 'prompts'),
      resourceUpdated: (from, uri) => {
        if (from && this.connection === from) this.env.onResourceUpdated?.(this.config.name, uri);
      },
    };
  }

  /** Workspace-defined servers need a trusted workspace and the user's consent; anything unclear means no. */
  private async mayStart(generation: number, signal: AbortSignal): Promise<boolean> {
    const verdict = await consentVerdict(this.config, this.env, {
      given: this.consentGiven,
      asking: () => this.setState('starting', 'waiting for your consent'),
      log: (line) => this.logs.write(line),
      signal,
    });
    if (generation !== this.generation) return false;
    if (verdict !== true) {
      this.setState('blocked', verdict);
      return false;
    }
    this.consentGiven = true;
    return true;
  }

  private onCrash(connection: McpConnection | undefined, reason: string): void {
    if (!connection || this.connection !== connection) return;
    this.connection = undefined;
    void connection.close(); // the process is gone or going; make sure, whatever happens next
    const generation = this.generation;
    // Let the dying process's last stderr lines arrive before quoting them.
    setImmediate(() => {
      if (generation !== this.generation) return; // stopped meanwhile: no restart
      const message = `MCP server "${this.config.name}" crashed: ${reason}.${connection.stderrTail()}`;
      this.logs.write(message);
      this.restartLater(message);
    });
  }

  /** Down after a crash or a failed automatic start: restart after the policy's delay, or give up. */
  private restartLater(why: string): void {
    const generation = this.generation;
    const decision = this.restarts.schedule(() => {
      if (generation === this.generation) void this.launch(true);
    });
    if (decision.retry) {
      this.setState('restarting', `${why}\nRestarting in ${decision.delayMs} ms (attempt ${decision.attempt} of ${decision.max}).`);
      return;
    }
    this.tools.remove();
    this.setState('failed', `${why}\nGave up after ${decision.max} restart attempt${decision.max === 1 ? '' : 's'}; restart it by hand.`);
  }

  private requireReady(): McpConnection {
    const connection = this.connection;
    if (!connection || this.state !== 'ready') {
      throw new Error(unavailableMessage(this.config.name, this.state, this.message, this.restarts.attemptText()));
    }
    return connection;
  }

  private toolTimeoutMs(): number {
    return this.config.toolTimeoutMs ?? this.env.defaultToolTimeoutMs;
  }

  private setState(state: McpServerState, message: string | undefined): void {
    const changed = state !== this.state || message !== this.message;
    this.state = state;
    this.message = message;
    if (changed) this.logs.write(`state: ${state}${message ? ` (${message.split('\n')[0]})` : ''}`);
    this.env.onChange(this.status());
  }
}
