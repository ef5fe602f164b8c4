// The editor's MCP servers in VS Code: the watchers (setting, workspace files, folders, trust) that tell the host to
// reload, the consent dialog and its per-workspace store, the servers' log channels, and the change event the views
// listen to. The servers' lifetime (the manager, reloads, warm-up, the start before each turn) is
// src/editor/mcp/mcpHost.ts, which needs no VS Code API. It lends the servers the editor's roots, forms
// (elicitation) and model (sampling): see editorFeatures.ts. Nothing starts at activation.
import * as vscode from 'vscode';
import type { McpManager } from '../../mcp/manager';
import type { McpServerConfig, McpServerStatus } from '../../mcp/types';
import type { McpAuthEnv } from '../../mcp/auth/types';
import type { ToolRegistry } from '../../core/tools/registry';
import type { Logger } from '../../editor/log/logger';
import { WORKSPACE_MCP_FILES } from '../../editor/mcp/configSources';
import { ConsentPolicy, ConsentStore } from '../../editor/mcp/consent';
import { McpHost } from '../../editor/mcp/mcpHost';
import { askConsentInModal } from './consentDialog';
import { createEditorFeatures } from './editorFeatures';
import { editorMcpPort } from './editorMcpPort';
import { McpLogChannels } from './logChannels';
import { TOOL_TIMEOUT_SETTING } from '../../editor/mcp/mcpSettings';
import type { SamplingApprovals } from '../../editor/mcp/samplingApproval';
import type { SamplingModelSource } from '../../editor/mcp/samplingModel';
import type { OfferedTools } from '../../editor/mcp/serverView';

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

export class McpService implements vscode.Disposable {
  readonly consentStore: ConsentStore;
  readonly consent: ConsentPolicy;
  private readonly host: McpHost;
  private readonly logs: McpLogChannels;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private watchers: vscode.Disposable[] = [];
  private disposed: Promise<void> | undefined;
  private samplingApprovals: SamplingApprovals | undefined;

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
    this.host = new McpHost({
      port: editorMcpPort(this.consent, () => this.features()),
      log: deps.log,
      getRegistry: deps.getRegistry,
      clientVersion: deps.clientVersion,
      ...(deps.auth && { auth: deps.auth }),
      onDidChange: () => this.changed.fire(),
      onServerLog: (server, line) => this.logs.append(server, line),
    });
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('localharness.mcpServers')) this.host.scheduleReload('the setting localharness.mcpServers changed');
        else if (e.affectsConfiguration(`localharness.${TOOL_TIMEOUT_SETTING}`)) this.host.scheduleReload(`the setting localharness.${TOOL_TIMEOUT_SETTING} changed`);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watchFiles();
        this.host.foldersChanged();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.host.trustGranted()),
    );
    this.watchFiles();
  }

  /** Statuses for the view: the manager's, or the configured servers as not started yet. */
  statuses(): McpServerStatus[] {
    return this.host.statuses();
  }

  /** Problems with the definitions (bad JSON, invalid entries, duplicate names). */
  configProblems(): { errors: string[]; warnings: string[] } {
    return this.host.definitions.problems();
  }

  configured(): readonly McpServerConfig[] {
    return this.host.definitions.servers;
  }

  summary(): string | undefined {
    return this.host.summary();
  }

  /** The pre-filter chose tools for a request: shown in the view's message and the status bar tooltip. */
  recordOffered(offered: OfferedTools): void {
    this.host.recordOffered(offered);
  }

  /** Tokens of all MCP tool definitions (for the context meter). */
  toolTokens(): number {
    return this.host.toolTokens();
  }

  /** The manager once a server was started (undefined before): the chat reads prompts and resources from it. */
  get runningManager(): McpManager | undefined {
    return this.host.runningManager;
  }

  /** Read the definitions (once; later changes arrive through the watchers). */
  loadConfig(): Promise<void> {
    return this.host.loadConfig();
  }

  /** Start every configured server (once per window). Never throws. */
  warmUp(): Promise<void> {
    return this.host.warmUp();
  }

  /** Before a turn: servers started so their tools are in this turn's list; a notice when the MCP tools changed. */
  beforeTurn(signal: AbortSignal, notice: (message: string) => void): Promise<void> {
    return this.host.beforeTurn(signal, notice);
  }

  start(name: string): Promise<void> {
    return this.host.start(name);
  }

  stop(name: string): Promise<void> {
    return this.host.stop(name);
  }

  restart(name: string): Promise<void> {
    return this.host.restart(name);
  }

  /** HTTP servers with a stored sign-in (for Sign Out). */
  signedIn(): Promise<McpServerConfig[]> {
    return this.host.signedIn();
  }

  /** Stops the server and removes its tokens; it stays stopped until started again (which signs in again). */
  signOut(name: string): Promise<boolean> {
    return this.host.signOut(name);
  }

  showLog(name: string): void {
    const lines = this.host.runningManager?.serverNames().includes(name) ? [] : ['(not started yet: nothing logged)'];
    this.logs.show(name, lines);
  }

  /** Consent was revoked for these servers: stop the ones that run and forget their sampling approvals. */
  async stopRevoked(names: readonly string[]): Promise<void> {
    for (const name of names) this.samplingApprovals?.forget(name);
    await this.host.stopRevoked(names);
  }

  /** Made once, when the host makes its manager. */
  private features() {
    const { features, approvals } = createEditorFeatures({
      ...(this.deps.samplingModel && { samplingModel: this.deps.samplingModel }),
      log: (server, line) => this.logs.append(server, line),
      turnSignal: () => this.host.turnSignal,
    });
    this.samplingApprovals = approvals;
    return features;
  }

  private watchFiles(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `{${WORKSPACE_MCP_FILES.join(',')}}`));
      const onEvent = (uri: vscode.Uri) => this.host.scheduleReload(`${vscode.workspace.asRelativePath(uri)} changed`);
      this.watchers.push(watcher, watcher.onDidCreate(onEvent), watcher.onDidChange(onEvent), watcher.onDidDelete(onEvent));
    }
  }

  /** Stops every server and waits until their processes are gone. */
  shutdown(): Promise<void> {
    this.disposed ??= (async () => {
      for (const d of [...this.watchers, ...this.disposables]) d.dispose();
      await this.host.shutdown();
      this.logs.dispose();
    })();
    return this.disposed;
  }

  dispose(): void {
    void this.shutdown();
  }
}
