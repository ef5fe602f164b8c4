// The life of one configured server: consent, start, ready, crash, restart with backoff, stop.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpClientFeatures } from './clientFeatures';
import { commandLineOf, requiresConsent } from './commandLine';
import { McpConnection } from './connection';
import type { ToolCallOutput } from './content';
import { renderPromptResult } from './promptContent';
import { EMPTY_CATALOG, toPromptInfos, toResourceInfos, toResourceParts, toTemplateInfos, type McpCatalog } from './resourceCatalog';
import type { SamplingGate } from './samplingGate';
import { LineRingBuffer, type RingBufferLimits } from './ringBuffer';
import type { McpToolCaller } from './toolAdapter';
import type { McpToolRegistrar, SyncResult } from './toolRegistrar';
import { checkToolDefinition } from './toolSchema';
import type { McpConsentPort, McpPromptResult, McpResourcePart, McpServerConfig, McpServerState, McpServerStatus } from './types';

export interface ControllerEnv {
  registrar: McpToolRegistrar;
  consent?: McpConsentPort;
  isWorkspaceTrusted: () => boolean;
  fetch?: FetchLike;
  clientVersion: string;
  defaultToolTimeoutMs: number;
  defaultStartTimeoutMs: number;
  /** One entry per automatic restart attempt: the delay before it. */
  restartDelaysMs: readonly number[];
  /** A server that stayed up this long gets a fresh set of restart attempts at its next crash. */
  stableAfterMs: number;
  now: () => number;
  logLimits: RingBufferLimits;
  onChange: (status: McpServerStatus) => void;
  onLog: (server: string, line: string) => void;
  features?: McpClientFeatures;
  samplingGate?: SamplingGate;
  /** A subscribed resource changed (notifications/resources/updated). */
  onResourceUpdated?: (server: string, uri: string) => void;
}

type CatalogPart = 'resources' | 'prompts';

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
  private pendingRelist = false;
  private relisting: Promise<void> | undefined;
  private relistAgain = false;
  private synced: SyncResult = EMPTY_SYNC;
  private catalog: McpCatalog = EMPTY_CATALOG;
  private readonly catalogRefreshing = new Map<CatalogPart, Promise<void>>();
  private readonly catalogAgain = new Set<CatalogPart>();
  private readonly catalogPending = new Set<CatalogPart>();
  /** Resources subscribed to; renewed after an automatic restart. */
  private readonly subscriptions = new Set<string>();
  private readonly logBuffer: LineRingBuffer;

  constructor(
    readonly config: McpServerConfig,
    private readonly env: ControllerEnv,
  ) {
    this.logBuffer = new LineRingBuffer(env.logLimits);
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
    return this.state === 'ready' ? this.catalog : EMPTY_CATALOG;
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<McpResourcePart[]> {
    const connection = this.requireReady();
    if (!connection.hasResources) throw new Error(`MCP server "${this.config.name}" offers no resources.`);
    const raw = await connection.readResource(uri, this.requestOptions(signal));
    return toResourceParts(raw, uri, (why) => this.writeLog(`reading ${uri}: ${why}`));
  }

  async getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptResult> {
    const connection = this.requireReady();
    if (!connection.hasPrompts) throw new Error(`MCP server "${this.config.name}" offers no prompts.`);
    const known = this.catalog.prompts;
    if (known.length && !known.some((p) => p.name === name)) {
      throw new Error(`MCP server "${this.config.name}" has no prompt named "${name}" (it offers: ${known.map((p) => p.name).join(', ')}).`);
    }
    return renderPromptResult(await connection.getPrompt(name, args, this.requestOptions(signal)));
  }

  async subscribeResource(uri: string, signal?: AbortSignal): Promise<void> {
    const connection = this.requireReady();
    if (!connection.hasResources) throw new Error(`MCP server "${this.config.name}" offers no resources.`);
    if (!connection.canSubscribe) throw new Error(`MCP server "${this.config.name}" does not support resource subscriptions.`);
    await connection.subscribeResource(uri, this.requestOptions(signal));
    this.subscriptions.add(uri);
  }

  async unsubscribeResource(uri: string, signal?: AbortSignal): Promise<void> {
    this.subscriptions.delete(uri);
    const connection = this.connection;
    if (!connection || this.state !== 'ready' || !connection.canSubscribe) return;
    await connection.unsubscribeResource(uri, this.requestOptions(signal));
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

  /** Stop and wait until the process is gone. */
  async stop(reason = 'stopped'): Promise<void> {
    this.generation++;
    this.cancelRestart();
    this.startAbort?.abort();
    const connection = this.connection;
    this.connection = undefined;
    this.readySince = undefined;
    this.removeTools();
    this.subscriptions.clear();
    await connection?.close();
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

  private launch(automatic: boolean): Promise<void> {
    const run = this.runLaunch(automatic, ++this.generation).finally(() => {
      if (this.launching === run) this.launching = undefined;
    });
    this.launching = run;
    return run;
  }

  private async runLaunch(automatic: boolean, generation: number): Promise<void> {
    if (!(await this.mayStart(generation))) return;
    const { config, env } = this;
    this.setState(automatic ? 'restarting' : 'starting', automatic ? `restart attempt ${this.restartAttempts} of ${env.restartDelaysMs.length}` : undefined);
    const abort = new AbortController();
    this.startAbort = abort;
    let opened: McpConnection | undefined;
    const current = () => generation === this.generation;
    try {
      this.writeLog(`starting: ${commandLineOf(config)}`);
      opened = await McpConnection.open({
        config,
        startTimeoutMs: config.startTimeoutMs ?? env.defaultStartTimeoutMs,
        clientVersion: env.clientVersion,
        signal: abort.signal,
        ...(env.fetch && { fetch: env.fetch }),
        ...(env.features && { features: env.features }),
        ...(env.samplingGate && { samplingGate: env.samplingGate }),
        hooks: {
          log: (line) => this.writeLog(line),
          onToolsChanged: () => this.relist(opened),
          onUnexpectedClose: (reason) => this.onCrash(opened, reason),
          onResourcesChanged: () => this.refreshCatalog(opened, 'resources'),
          onPromptsChanged: () => this.refreshCatalog(opened, 'prompts'),
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
      const catalog = { ...(await this.fetchResources(opened, abort.signal)), prompts: await this.fetchPrompts(opened, abort.signal) };
      if (!current()) return void (await opened.close());
      this.connection = opened;
      this.applyTools(raw);
      this.catalog = catalog;
      this.readySince = env.now();
      this.setState('ready', undefined);
      if (this.pendingRelist) this.relist(opened);
      for (const part of this.catalogPending) this.refreshCatalog(opened, part);
      this.renewSubscriptions(opened);
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
      this.catalogPending.clear();
    }
  }

  /** Workspace-defined servers need a trusted workspace and the user's consent; anything unclear means no. */
  private async mayStart(generation: number): Promise<boolean> {
    const { config, env } = this;
    if (!requiresConsent(config.source)) return true;
    if (!env.isWorkspaceTrusted()) {
      this.setState('blocked', 'This workspace is not trusted, so servers defined by the workspace do not start.');
      return false;
    }
    if (this.consentGiven) return true;
    if (!env.consent) {
      this.setState('blocked', 'This server is defined by the workspace and needs your consent to start, but no one can be asked.');
      return false;
    }
    this.setState('starting', 'waiting for your consent');
    let granted = false;
    try {
      granted = (await env.consent(config, commandLineOf(config))) === true;
    } catch (err) {
      this.writeLog(`asking for consent failed: ${(err as Error).message}`);
    }
    if (generation !== this.generation) return false;
    if (!granted) {
      this.setState('blocked', 'Not started: you did not allow this workspace-defined server to run.');
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
    if (this.relisting) {
      this.relistAgain = true;
      return;
    }
    this.relisting = (async () => {
      do {
        this.relistAgain = false;
        try {
          const raw = await connection.listTools();
          if (this.connection !== connection) return;
          this.applyTools(raw);
          this.writeLog(`re-listed tools: ${this.synced.tools.length} available`);
          this.setState(this.state, this.message);
        } catch (err) {
          this.writeLog(`re-listing tools failed: ${(err as Error).message}`);
        }
      } while (this.relistAgain);
    })().finally(() => (this.relisting = undefined));
  }

  /**
   * Resources and templates, read leniently: a server whose resource listing fails still offers its tools
   * (the failure is logged and the list stays empty).
   */
  private async fetchResources(connection: McpConnection, signal?: AbortSignal): Promise<Pick<McpCatalog, 'resources' | 'resourceTemplates'>> {
    const name = this.config.name;
    const skip = (why: string) => this.writeLog(`skipped: ${why}`);
    const [resources, templates] = await Promise.all([
      connection.listResources(signal).catch((err: unknown) => this.listFailed('resources', err)),
      connection.listResourceTemplates(signal).catch((err: unknown) => this.listFailed('resource templates', err)),
    ]);
    return {
      resources: toResourceInfos(name, resources, skip),
      resourceTemplates: toTemplateInfos(name, templates, (t) => connection.templateVariables(t), skip),
    };
  }

  private async fetchPrompts(connection: McpConnection, signal?: AbortSignal): Promise<McpCatalog['prompts']> {
    const raw = await connection.listPrompts(signal).catch((err: unknown) => this.listFailed('prompts', err));
    return toPromptInfos(this.config.name, raw, (why) => this.writeLog(`skipped: ${why}`));
  }

  private listFailed(what: string, err: unknown): unknown[] {
    this.writeLog(`listing ${what} failed: ${(err as Error).message}`);
    return [];
  }

  /** Re-list after a list_changed notification; notifications during a pass collapse into one more pass. */
  private refreshCatalog(connection: McpConnection | undefined, part: CatalogPart): void {
    if (!connection) return;
    if (this.connection !== connection) {
      if (this.state === 'starting' || this.state === 'restarting') this.catalogPending.add(part);
      return;
    }
    if (this.catalogRefreshing.has(part)) {
      this.catalogAgain.add(part);
      return;
    }
    const run = (async () => {
      do {
        this.catalogAgain.delete(part);
        const update = part === 'resources' ? await this.fetchResources(connection) : { prompts: await this.fetchPrompts(connection) };
        if (this.connection !== connection) return;
        this.catalog = { ...this.catalog, ...update };
        this.writeLog(
          part === 'resources'
            ? `re-listed resources: ${this.catalog.resources.length} resources, ${this.catalog.resourceTemplates.length} templates`
            : `re-listed prompts: ${this.catalog.prompts.length} available`,
        );
        this.setState(this.state, this.message);
      } while (this.catalogAgain.has(part));
    })().finally(() => this.catalogRefreshing.delete(part));
    this.catalogRefreshing.set(part, run);
  }

  private renewSubscriptions(connection: McpConnection): void {
    if (!this.subscriptions.size || !connection.canSubscribe) return;
    for (const uri of this.subscriptions) {
      connection
        .subscribeResource(uri, this.requestOptions())
        .then(() => this.writeLog(`subscription to ${uri} renewed`))
        .catch((err: unknown) => this.writeLog(`renewing the subscription to ${uri} failed: ${(err as Error).message}`));
    }
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
    const name = `MCP server "${this.config.name}"`;
    switch (this.state) {
      case 'restarting':
        return `${name} is restarting after a crash (attempt ${this.restartAttempts} of ${this.env.restartDelaysMs.length}); try again shortly or use other tools.`;
      case 'starting':
        return `${name} is still starting; try again shortly.`;
      case 'failed':
        return `${name} is down: ${this.message ?? 'it failed'}`;
      default:
        return `${name} is not running (${this.state}).`;
    }
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
