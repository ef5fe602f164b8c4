// The editor's MCP servers: reads their definitions (setting + workspace files, watched), owns one McpManager
// on the chat's ToolRegistry, asks for consent, follows workspace trust, and feeds the view and the logs. It
// lends the servers the editor's roots, forms (elicitation) and model (sampling): see editorFeatures.ts.
// Nothing starts at activation: servers start when the chat view opens or the first turn begins.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { untilAborted } from '../../core/abortable';
import type { McpManager } from '../../mcp/manager';
import { commandLineOf, requiresConsent } from '../../mcp/serverCommand';
import type { McpServerConfig, McpServerStatus } from '../../mcp/types';
import type { McpAuthEnv } from '../../mcp/auth/types';
import type { ToolRegistry } from '../../core/tools/registry';
import { errorMessage, type Logger } from '../../editor/log/logger';
import { collectServers, NO_SERVERS, WORKSPACE_MCP_FILES, type CollectedServers, type WorkspaceFileText } from '../../editor/mcp/configSources';
import { ConsentPolicy, ConsentStore } from '../../editor/mcp/consent';
import { askConsentInModal } from './consentDialog';
import { createEditorFeatures, defaultToolTimeoutMs } from './editorFeatures';
import { McpLogChannels } from './logChannels';
import { TOOL_TIMEOUT_SETTING, withDefaultTimeout } from '../../editor/mcp/mcpSettings';
import type { SamplingApprovals } from '../../editor/mcp/samplingApproval';
import type { SamplingModelSource } from '../../editor/mcp/samplingModel';
import { notStartedStatus, toolsSummary, type OfferedTools } from '../../editor/mcp/serverView';

export interface McpServiceDeps {
  workspaceState: vscode.Memento;
  /** OAuth tokens of HTTP servers (VS Code's SecretStorage) and how the user signs in. */
  auth?: McpAuthEnv;
  /** Log lines of the servers pass through this first (tokens never reach a channel). */
  redact?: (line: string) => string;
  log: Logger;
  /** The chat's tool registry (loads the engine on first use). */
  getRegistry: () => Promise<ToolRegistry>;
  clientVersion: string;
  /** The chat's model, which answers servers' sampling requests (absent: sampling is not offered). */
  samplingModel?: SamplingModelSource;
}

const RELOAD_DEBOUNCE_MS = 200;

export class McpService implements vscode.Disposable {
  readonly consentStore: ConsentStore;
  readonly consent: ConsentPolicy;
  private readonly logs: McpLogChannels;
  private manager: McpManager | undefined;
  private managerReady: Promise<McpManager> | undefined;
  private config: CollectedServers = NO_SERVERS;
  private configLoaded: Promise<void> | undefined;
  private warm: Promise<void> | undefined;
  /** A reload/start in flight: the next turn waits for it so it sees the new tools. */
  private pending: Promise<void> = Promise.resolve();
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** Servers the user stopped: a config reload doesn't start them again. */
  private readonly userStopped = new Set<string>();
  private lastNotice: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private watchers: vscode.Disposable[] = [];
  private disposed: Promise<void> | undefined;
  private samplingApprovals: SamplingApprovals | undefined;
  /** The latest turn's signal: Stop also ends a form or sampling request its tools caused. */
  private turnSignal: AbortSignal | undefined;

  /** The servers' statuses or the configuration changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: McpServiceDeps) {
    this.logs = new McpLogChannels(deps.redact);
    this.consentStore = new ConsentStore(deps.workspaceState);
    this.consent = new ConsentPolicy({
      store: this.consentStore,
      ask: askConsentInModal,
      onDecision: (server, granted, how) => {
        if (how !== 'remembered') deps.log.info(`MCP server "${server.name}": consent ${granted ? 'given' : 'refused'} (${how})`);
      },
    });
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('localharness.mcpServers')) this.scheduleReload('the setting localharness.mcpServers changed');
        else if (e.affectsConfiguration(`localharness.${TOOL_TIMEOUT_SETTING}`)) this.scheduleReload(`the setting localharness.${TOOL_TIMEOUT_SETTING} changed`);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        // Running servers hear about the new roots now; the config files of the new folders load below.
        this.manager?.rootsChanged();
        this.watchFiles();
        this.scheduleReload('the workspace folders changed');
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.onTrustGranted()),
    );
    this.watchFiles();
  }

  /** Statuses for the view: the manager's, or the configured servers as not started yet. */
  statuses(): McpServerStatus[] {
    if (this.manager) return this.manager.statuses();
    return this.config.servers.map((s) => notStartedStatus(s.name, s.source, commandLineOf(s)));
  }

  /** Problems with the definitions (bad JSON, invalid entries, duplicate names). */
  configProblems(): { errors: string[]; warnings: string[] } {
    return { errors: this.config.errors, warnings: this.config.warnings };
  }

  configured(): readonly McpServerConfig[] {
    return this.config.servers;
  }

  summary(): string | undefined {
    return toolsSummary(this.statuses(), !vscode.workspace.isTrusted, this.lastOffered);
  }

  /** The pre-filter chose tools for a request: shown in the view's message and the status bar tooltip. */
  recordOffered(offered: OfferedTools): void {
    const changed = this.lastOffered?.offered.length !== offered.offered.length || this.lastOffered?.tokensOffered !== offered.tokensOffered;
    this.lastOffered = offered;
    if (changed) this.changed.fire();
  }
  private lastOffered: OfferedTools | undefined;

  /** Tokens of all MCP tool definitions (for the context meter). */
  toolTokens(): number {
    return this.manager?.totalToolTokens() ?? 0;
  }

  /** The manager once a server was started (undefined before): the chat reads prompts and resources from it. */
  get runningManager(): McpManager | undefined {
    return this.manager;
  }

  /** Read the definitions (once; later changes arrive through the watchers). */
  loadConfig(): Promise<void> {
    this.configLoaded ??= this.reload('first use');
    return this.configLoaded;
  }

  /** Start every configured server (once per window). Never throws. */
  warmUp(): Promise<void> {
    this.warm ??= this.track(
      (async () => {
        await this.loadConfig();
        if (this.config.servers.length === 0) return;
        const manager = await this.ensureManager();
        this.deps.log.info(`starting ${this.config.servers.length} MCP server(s)`);
        await manager.startAll();
      })().catch((err: unknown) => this.deps.log.error('MCP servers could not be started', err)),
    );
    return this.warm;
  }

  /**
   * Before a turn: servers started (and consent asked) so their tools are in this turn's list, and a notice
   * in the panel when the MCP tools changed since the last one. Cancelling the turn stops the wait, not the servers.
   */
  async beforeTurn(signal: AbortSignal, notice: (message: string) => void): Promise<void> {
    this.turnSignal = signal;
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
    const config = this.config.servers.find((s) => s.name === name);
    if (config) this.consent.askAgain(config);
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
    const config = this.config.servers.find((s) => s.name === name);
    if (config) this.consent.askAgain(config);
    await this.track(manager.restart(name));
  }

  /** HTTP servers with a stored sign-in (for Sign Out). */
  async signedIn(): Promise<McpServerConfig[]> {
    await this.loadConfig();
    const store = this.deps.auth?.store;
    if (!store) return [];
    const http = this.config.servers.filter((s) => s.transport.type !== 'stdio');
    const stored = await Promise.all(http.map(async (s) => (await store.get((s.transport as { url: string }).url))?.tokens !== undefined));
    return http.filter((_, i) => stored[i]);
  }

  /** Stops the server and removes its tokens; it stays stopped until started again (which signs in again). */
  async signOut(name: string): Promise<boolean> {
    const manager = await this.ensureManager();
    this.userStopped.add(name);
    return manager.signOut(name);
  }

  showLog(name: string): void {
    const lines = this.manager?.serverNames().includes(name) ? [] : ['(not started yet: nothing logged)'];
    this.logs.show(name, lines);
  }

  /** Consent was revoked for these servers: stop the ones that run. */
  async stopRevoked(names: readonly string[]): Promise<void> {
    if (!this.manager) return;
    for (const name of names) {
      this.samplingApprovals?.forget(name);
      if (!this.manager.serverNames().includes(name)) continue;
      const state = this.manager.status(name).state;
      if (state !== 'stopped' && state !== 'blocked') await this.manager.stop(name);
    }
  }

  private ensureManager(): Promise<McpManager> {
    this.managerReady ??= (async () => {
      const [registry, { McpManager }] = await Promise.all([this.deps.getRegistry(), import('../../mcp/manager')]);
      await this.loadConfig();
      const { features, approvals } = createEditorFeatures({
        ...(this.deps.samplingModel && { samplingModel: this.deps.samplingModel }),
        log: (server, line) => this.logs.append(server, line),
        turnSignal: () => this.turnSignal,
      });
      this.samplingApprovals = approvals;
      const manager = new McpManager({
        registry,
        consent: this.consent.port,
        isWorkspaceTrusted: () => vscode.workspace.isTrusted,
        clientVersion: this.deps.clientVersion,
        features,
        ...(this.deps.auth && { auth: this.deps.auth }),
      });
      manager.onDidChange(() => this.changed.fire());
      manager.onDidLog(({ server, line }) => this.logs.append(server, line));
      await manager.setServers(withDefaultTimeout(this.config.servers, defaultToolTimeoutMs()));
      this.manager = manager;
      this.changed.fire();
      return manager;
    })().catch((err: unknown) => {
      this.managerReady = undefined;
      throw err;
    });
    return this.managerReady;
  }

  private scheduleReload(why: string): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      void this.track(this.reload(why));
    }, RELOAD_DEBOUNCE_MS);
  }

  private async reload(why: string): Promise<void> {
    try {
      const read = await readWorkspaceFiles();
      const collected = collectServers({
        setting: vscode.workspace.getConfiguration('localharness').inspect('mcpServers'),
        files: read.files,
        ...(vscode.workspace.workspaceFolders?.[0] && { firstFolder: vscode.workspace.workspaceFolders[0].uri.fsPath }),
        userHome: os.homedir(),
        env: process.env,
      });
      this.config = { ...collected, errors: [...read.errors, ...collected.errors] };
    } catch (err) {
      this.deps.log.error(`MCP configuration could not be read (${why})`, err);
      return;
    }
    const { servers, errors, warnings } = this.config;
    this.deps.log.info(`MCP configuration (${why}): ${servers.length ? servers.map((s) => s.name).join(', ') : 'no servers'}`);
    for (const e of errors) this.deps.log.error(`MCP configuration: ${e}`);
    for (const w of warnings) this.deps.log.warn(`MCP configuration: ${w}`);
    for (const name of [...this.userStopped]) if (!servers.some((s) => s.name === name)) this.userStopped.delete(name);
    this.changed.fire();
    if (!this.manager) {
      // Servers added after the first turn still start; before it, they wait like the rest.
      if (this.warm && servers.length) void this.track(this.ensureManager().then((m) => this.startNew(m))).catch((err: unknown) => this.deps.log.error('MCP servers could not be started', err));
      return;
    }
    try {
      await this.manager.setServers(withDefaultTimeout(servers, defaultToolTimeoutMs()));
    } catch (err) {
      this.deps.log.error('MCP servers could not be updated', err);
      return;
    }
    if (this.warm) await this.startNew(this.manager);
  }

  /** After a reload: start the new or changed servers (not the ones the user stopped). */
  private async startNew(manager: McpManager): Promise<void> {
    const fresh = manager.statuses().filter((s) => s.state === 'stopped' && !this.userStopped.has(s.name));
    await Promise.all(fresh.map((s) => manager.start(s.name).catch((err: unknown) => this.deps.log.error(`MCP server "${s.name}"`, err))));
  }

  private onTrustGranted(): void {
    const manager = this.manager;
    // Servers from the user's settings ran with no roots until now.
    manager?.rootsChanged();
    if (!manager || !this.warm) return;
    const blocked = manager.statuses().filter((s) => s.state === 'blocked' && requiresConsent(s.source));
    if (blocked.length) this.deps.log.info(`workspace trusted: starting ${blocked.map((s) => s.name).join(', ')}`);
    void this.track(Promise.all(blocked.map((s) => manager.start(s.name).catch(() => undefined))).then(() => undefined));
  }

  private watchFiles(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `{${WORKSPACE_MCP_FILES.join(',')}}`));
      const onEvent = (uri: vscode.Uri) => this.scheduleReload(`${vscode.workspace.asRelativePath(uri)} changed`);
      this.watchers.push(watcher, watcher.onDidCreate(onEvent), watcher.onDidChange(onEvent), watcher.onDidDelete(onEvent));
    }
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

  /** Stops every server and waits until their processes are gone. */
  shutdown(): Promise<void> {
    this.disposed ??= (async () => {
      if (this.reloadTimer) clearTimeout(this.reloadTimer);
      for (const d of [...this.watchers, ...this.disposables]) d.dispose();
      const manager = this.manager ?? (await this.managerReady?.catch(() => undefined));
      await manager?.dispose().catch((err: unknown) => this.deps.log.error('MCP servers did not shut down cleanly', err));
      this.logs.dispose();
    })();
    return this.disposed;
  }

  dispose(): void {
    void this.shutdown();
  }
}

/** The workspace files that exist; one that cannot be read is reported and the others still load. */
async function readWorkspaceFiles(): Promise<{ files: WorkspaceFileText[]; errors: string[] }> {
  const files: WorkspaceFileText[] = [];
  const errors: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    for (const rel of WORKSPACE_MCP_FILES) {
      const uri = vscode.Uri.joinPath(folder.uri, rel);
      try {
        const bytes = await vscode.workspace.fs.readFile(uri);
        files.push({ folder: folder.uri.fsPath, path: uri.fsPath, text: new TextDecoder().decode(bytes) });
      } catch (err) {
        const missing = (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') || /ENOENT|EntryNotFound|FileNotFound/.test(errorMessage(err));
        if (!missing) errors.push(`cannot read ${uri.fsPath}: ${errorMessage(err)}`);
      }
    }
  }
  return { files, errors };
}
