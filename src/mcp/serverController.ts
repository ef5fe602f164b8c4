// The life of one configured server: consent, start, ready, crash, restart with backoff, stop.
import type { McpClientFeatures } from './clientFeatures';
import { commandLineOf } from './serverCommand';
import { McpConnection } from './connection';
import type { ToolCallOutput } from './content';
import type { McpAuthSession } from './auth/authSession';
import { CatalogKeeper } from './catalogKeeper';
import { Coalescing } from './coalescing';
import { consentVerdict, createAuthSession, unavailableMessage, type AuthEnvOptions, type ConsentEnv } from './startGate';
import { EMPTY_CATALOG, type McpCatalog } from './resourceCatalog';
import { ServerResources } from './serverResources';
import type { SamplingGate } from './samplingGate';
import { LineRingBuffer, type RingBufferLimits } from './ringBuffer';
import type { McpToolCaller } from './toolAdapter';
import type { McpToolRegistrar, SyncResult } from './toolRegistrar';
import { checkToolDefinition } from './toolSchema';
import type { McpPromptResult, McpResourcePart, McpServerConfig, McpServerState, McpServerStatus } from './types';

export interface ControllerEnv extends AuthEnvOptions, ConsentEnv {
  registrar: McpToolRegistrar;
  defaultToolTimeoutMs: number;
  defaultStartTimeoutMs: number;
  /** One entry per automatic restart attempt: the delay before it. */
  restartDelaysMs: readonly number[];
  /** A server that stayed up this long gets a fresh set of restart attempts at its next crash. */
  stableAfterMs: number;
  logLimits: RingBufferLimits;
  onChange: (status: McpServerStatus) => void;
  onLog: (server: string, line: string) => void;
  features?: McpClientFeatures;
  samplingGate?: SamplingGate;
  /** A subscribed resource changed (notifications/resources/updated). */
  onResourceUpdated?: (server: string, uri: string) => void;
}

const EMPTY_SYNC: SyncResult = { tools: [], skipped: [], tokens: 0 };

export class ServerController implements McpToolCaller {
  private state: McpServerState = 'stopped';
  private message: string | undefined;
  private connection: McpConnection | undefined;
  /** Bumped by every start and stop; async work from an older generation cleans up and gives way. */
  private generation = 0;
  private startAbort: AbortController | undefined;
  private launching: Promise<void> | undefined;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private restartAttempts = 0;
  private readySince: number | undefined;
  private consentGiven = false;
  /** null: this server does not use OAuth. */
  private auth: McpAuthSession | null | undefined;
  private pendingRelist = false;
  private readonly relisting = new Coalescing();
  private synced: SyncResult = EMPTY_SYNC;
  private readonly catalog: CatalogKeeper;
  private readonly resources: ServerResources;
  private readonly logBuffer: LineRingBuffer;

  constructor(
    readonly config: McpServerConfig,
    private readonly env: ControllerEnv,
  ) {
    this.logBuffer = new LineRingBuffer(env.logLimits);
    this.catalog = new CatalogKeeper({
      name: config.name,
      current: () => this.connection,
      starting: () => this.state === 'starting' || this.state === 'restarting',
      log: (line) => this.writeLog(line),
      changed: () => this.setState(this.state, this.message),
    });
    this.resources = new ServerResources({
      name: config.name,
      ready: () => this.requireReady(),
      running: () => (this.state === 'ready' ? this.connection : undefined),
      prompts: () => this.catalog.value.prompts,
      requestOptions: (signal) => this.requestOptions(signal),
      log: (line) => this.writeLog(line),
    });
  }

  get serverName(): string {
    return this.config.name;
  }

  status(): McpServerStatus {
    const pid = this.connection?.pid;
    const info = this.connection?.serverInfo;
    return {
      name: this.config.name,
      source: this.config.source,
      state: this.state,
      ...(this.message !== undefined && { message: this.message }),
      commandLine: commandLineOf(this.config),
      tools: this.synced.tools,
      skippedTools: this.synced.skipped,
      ...this.currentCatalog(),
      toolTokens: this.synced.tokens,
      ...(pid !== undefined && { pid }),
      restartAttempts: this.restartAttempts,
      ...(info && { serverInfo: info }),
    };
  }

  log(): string[] {
    return this.logBuffer.all();
  }

  /** Resources, templates and prompts of the running server; empty unless ready. */
  currentCatalog(): McpCatalog {
    return this.state === 'ready' ? this.catalog.value : EMPTY_CATALOG;
  }

  readResource(uri: string, signal?: AbortSignal): Promise<McpResourcePart[]> {
    return this.resources.read(uri, signal);
  }

  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptResult> {
    return this.resources.prompt(name, args, signal);
  }

  subscribeResource(uri: string, signal?: AbortSignal): Promise<void> {
    return this.resources.subscribe(uri, signal);
  }

  unsubscribeResource(uri: string, signal?: AbortSignal): Promise<void> {
    return this.resources.unsubscribe(uri, signal);
  }

  /** Tell a running server the roots changed; it asks for them again. Never throws. */
  async rootsChanged(): Promise<void> {
    const connection = this.connection;
    if (!connection || this.state !== 'ready' || !this.env.features?.roots) return;
    try {
      await connection.sendRootsListChanged();
      this.writeLog('told the server the roots changed');
    } catch (err) {
      this.writeLog(`telling the server the roots changed failed: ${(err as Error).message}`);
    }
  }

  /** Start by the user's (or the host's) request: a fresh series of restart attempts. Resolves once settled. */
  start(): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    if (this.launching) return this.launching;
    this.cancelRestart();
    this.restartAttempts = 0;
    // The consent port is the source of truth (the host remembers and revokes); only automatic restarts skip it.
    this.consentGiven = false;
    return this.launch(false);
  }

  /** Stop and wait until the process is gone; `quick`: the user is waiting (Ctrl-C), SIGTERM comes sooner. */
  async stop(reason = 'stopped', quick = false): Promise<void> {
    this.generation++;
    this.cancelRestart();
    this.startAbort?.abort();
    const connection = this.connection;
    this.connection = undefined;
    this.readySince = undefined;
    this.removeTools();
    this.resources.forget();
    await connection?.close({ quick });
    await this.launching?.catch(() => undefined);
    this.setState('stopped', reason);
  }

  async restart(): Promise<void> {
    await this.stop('restarting');
    await this.start();
  }

  async call(
    mcpName: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress?: (message: string) => void },
  ): Promise<ToolCallOutput> {
    const connection = this.connection;
    if (!connection || this.state !== 'ready') throw new Error(this.unavailableMessage());
    return connection.callTool(mcpName, args, {
      signal: options.signal,
      timeoutMs: this.config.toolTimeoutMs ?? this.env.defaultToolTimeoutMs,
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
    this.auth ??= await createAuthSession(this.config, this.env, (line) => this.writeLog(line));
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
    const { config, env } = this;
    let opened: McpConnection | undefined;
    const current = () => generation === this.generation;
    try {
      if (!(await this.mayStart(generation, abort.signal))) return;
      this.setState(automatic ? 'restarting' : 'starting', automatic ? `restart attempt ${this.restartAttempts} of ${env.restartDelaysMs.length}` : undefined);
      this.writeLog(`starting: ${commandLineOf(config)}`);
      const auth = await this.authSession();
      opened = await McpConnection.open({
        config,
        startTimeoutMs: config.startTimeoutMs ?? env.defaultStartTimeoutMs,
        clientVersion: env.clientVersion,
        signal: abort.signal,
        ...(env.fetch && { fetch: env.fetch }),
        ...(env.features && { features: env.features }),
        ...(env.samplingGate && { samplingGate: env.samplingGate }),
        ...(auth && { auth }),
        hooks: {
          log: (line) => this.writeLog(line),
          onToolsChanged: () => this.relist(opened),
          onUnexpectedClose: (reason) => this.onCrash(opened, reason),
          onResourcesChanged: () => this.catalog.refresh(opened, 'resources'),
          onPromptsChanged: () => this.catalog.refresh(opened, 'prompts'),
          onResourceUpdated: (uri) => {
            if (opened && this.connection === opened) env.onResourceUpdated?.(config.name, uri);
          },
        },
      });
      if (!current()) return void (await opened.close());
      const raw = await opened.listTools(abort.signal).catch((err: unknown) => {
        throw new Error(`MCP server "${config.name}" started but listing its tools failed: ${(err as Error).message}.${opened!.stderrTail()}`);
      });
      if (!current()) return void (await opened.close());
      const catalog = await this.catalog.fetch(opened, abort.signal);
      if (!current()) return void (await opened.close());
      this.connection = opened;
      this.applyTools(raw);
      this.catalog.set(catalog);
      this.readySince = env.now();
      this.setState('ready', undefined);
      if (this.pendingRelist) this.relist(opened);
      this.catalog.applyPending(opened);
      this.resources.renew(opened);
    } catch (err) {
      await opened?.close();
      if (!current()) return;
      const message = (err as Error).message;
      this.writeLog(message);
      if (automatic) this.scheduleRestart(message);
      else {
        this.removeTools();
        this.setState('failed', message);
      }
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
      this.pendingRelist = false;
      this.catalog.clearPending();
    }
  }

  /** Workspace-defined servers need a trusted workspace and the user's consent; anything unclear means no. */
  private async mayStart(generation: number, signal: AbortSignal): Promise<boolean> {
    const verdict = await consentVerdict(this.config, this.env, {
      given: this.consentGiven,
      asking: () => this.setState('starting', 'waiting for your consent'),
      log: (line) => this.writeLog(line),
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
      this.writeLog(message);
      this.scheduleRestart(message);
    });
  }

  private scheduleRestart(why: string): void {
    const { env } = this;
    if (this.readySince !== undefined && env.now() - this.readySince >= env.stableAfterMs) this.restartAttempts = 0;
    this.readySince = undefined;
    const max = env.restartDelaysMs.length;
    if (this.restartAttempts >= max) {
      this.removeTools();
      this.setState('failed', `${why}\nGave up after ${max} restart attempt${max === 1 ? '' : 's'}; restart it by hand.`);
      return;
    }
    const delay = env.restartDelaysMs[this.restartAttempts]!;
    this.restartAttempts++;
    this.setState('restarting', `${why}\nRestarting in ${delay} ms (attempt ${this.restartAttempts} of ${max}).`);
    const generation = this.generation;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (generation === this.generation) void this.launch(true);
    }, delay);
    this.restartTimer.unref?.();
  }

  /** Re-list after notifications/tools/list_changed; concurrent notifications collapse into one more pass. */
  private relist(connection: McpConnection | undefined): void {
    if (!connection) return;
    if (this.connection !== connection) {
      if (this.state === 'starting' || this.state === 'restarting') this.pendingRelist = true;
      return;
    }
    this.relisting.run(async () => {
      try {
        const raw = await connection.listTools();
        if (this.connection !== connection) return 'stop';
        this.applyTools(raw);
        this.writeLog(`re-listed tools: ${this.synced.tools.length} available`);
        this.setState(this.state, this.message);
      } catch (err) {
        this.writeLog(`re-listing tools failed: ${(err as Error).message}`);
      }
    });
  }

  private requireReady(): McpConnection {
    const connection = this.connection;
    if (!connection || this.state !== 'ready') throw new Error(this.unavailableMessage());
    return connection;
  }

  private requestOptions(signal?: AbortSignal): { signal?: AbortSignal; timeoutMs: number } {
    return { ...(signal && { signal }), timeoutMs: this.config.toolTimeoutMs ?? this.env.defaultToolTimeoutMs };
  }

  private applyTools(raw: readonly unknown[]): void {
    this.synced = this.env.registrar.sync(this.config, raw.map(checkToolDefinition), this, (line) => this.writeLog(line));
  }

  private removeTools(): void {
    this.env.registrar.remove(this.config.name);
    this.synced = EMPTY_SYNC;
  }

  private cancelRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private unavailableMessage(): string {
    return unavailableMessage(this.config.name, this.state, this.message, `attempt ${this.restartAttempts} of ${this.env.restartDelaysMs.length}`);
  }

  private setState(state: McpServerState, message: string | undefined): void {
    const changed = state !== this.state || message !== this.message;
    this.state = state;
    this.message = message;
    if (changed) this.writeLog(`state: ${state}${message ? ` (${message.split('\n')[0]})` : ''}`);
    this.env.onChange(this.status());
  }

  private writeLog(line: string): void {
    const stamped = `${new Date(this.env.now()).toISOString().slice(11, 23)} ${line}`;
    for (const part of stamped.split('\n')) this.logBuffer.push(part);
    this.env.onLog(this.config.name, line);
  }
}
