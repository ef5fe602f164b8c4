// The ChatController the chat view talks to: owns the conversation (history, context tracker, session approval
// rules), reads settings at the start of every turn, runs turns on an AgentSession wired to the editor's ports
// (rebuilt when settings change), and forwards every AgentEvent to the chat store and the log.
// The heavy modules load on first use (turnEngine.ts).
import * as vscode from 'vscode';
import type { ChatController, ModelList, Unsubscribe } from '../chat/controller';
import type { ChatStateStore } from '../chat/chatStateStore';
import { hotContextView } from '../chat/hotContextView';
import type { HotContextView } from '../../shared/protocol';
import { EventBus, type RetrievalEvent } from '../../core/agent/events';
import { ContextTracker, type EditorActivity } from '../../core/context/tracker';
import type { ChatMessage } from '../../core/messages';
import type { AgentSession, SessionKnowledge } from '../../core/session/agentSession';
import type { ApprovalAsker, ApprovalGate, ApprovalRule } from '../../core/approval/gate';
import type { KeyValuePort } from '../../core/context/calibration';
import type { ChatProvider } from '../../core/provider';
import type { FileSystemPort, ProcessRunner } from '../../core/ports';
import type { SandboxLauncher } from '../../node/sandbox/sandboxLauncher';
import { ChatCommands } from './chatCommands';
import type { ToolRegistry } from '../../core/tools/registry';
import type { RiskLevel } from '../../core/tools/tool';
import { describeEventForLog } from '../log/eventLog';
import { errorMessage, type Logger } from '../log/logger';
import type { WorkspaceRuleStore } from '../approval/rules';
import { describeRule } from '../approval/rules';
import { serverUrl, type HarnessSettings, type ParsedSettings } from '../settings/harnessSettings';
import type { ServerResolution } from '../settings/serverSettings';
import type { ServerConsent } from '../settings/serverConsent';
import { readServerResolution } from '../settings/settingsReader';
import type { StatusInfo } from '../status/statusText';
import { NO_FOLDER, systemInfo, workspaceFolders } from '../workspaceInfo';
import type { ToolAccess } from './toolAccess';
import { modelListProblem } from './modelText';
import { ModelService, type TurnEngine } from './modelService';
import type { ContextState } from '../../core/compression/view';
import type { EditorSessionService } from '../sessions/sessionService';
import { showCompression } from '../sessions/liveCompression';
import { buildAttachedMessage, type AttachedMessage } from '../codeToChat/readAttachments';
import type { ResourceReader } from '../codeToChat/resourceBlocks';
import { userMessageText } from '../../shared/attachedMessage';
import { untilAborted } from '../../core/abortable';
import type { SavedRun } from '../../core/orchestrator';
import { chooseOrchestrator, orchestratorKey, orchestratorOptions } from '../orchestrator/orchestratorEndpoints';
import type { SetupCheckMemory } from '../setupCheck/setupCheckMemory';

/** What the single-model loop is told when it finishes a planned run that cannot be resumed as planned. */
const RESUME_PLAN_TEXT = 'A planned run of this request stopped before it finished. The tool calls above already ran: check their results and do only what is left.';

export interface HarnessControllerDeps {
  store: ChatStateStore;
  log: Logger;
  rules: WorkspaceRuleStore;
  /** The key stored for a server origin. */
  apiKeys: { get(origin: string): Promise<string | undefined> };
  /** Asks before the first request to a model server the workspace's settings name (absent: never used). */
  serverConsent?: ServerConsent;
  /** The settings with the server ones from user scope (default: the editor's configuration). */
  resolveServer?: () => ServerResolution;
  ask: ApprovalAsker;
  fs: FileSystemPort;
  /** Builds the terminal runner once the fallback (child-process) runner and the sandbox launcher are loaded. */
  createRunner: (fallback: ProcessRunner, sandbox: SandboxLauncher) => ProcessRunner;
  /** Keeps per-model token calibration between sessions (the editor's global state). */
  calibration?: KeyValuePort;
  loadEngine?: () => Promise<TurnEngine>;
  readSettings?: () => ParsedSettings;
  isTrusted?: () => boolean;
  /** Durable sessions: every message, tool audit and file checkpoint of the chat is saved (absent: nothing is). */
  sessions?: EditorSessionService;
  /** Runs before each turn once the tool registry exists (MCP servers start and join it); must not throw. */
  beforeTurn?: (signal: AbortSignal) => Promise<void>;
  /** The workspace index every session retrieves from and compresses with (built lazily by its owner). */
  knowledge?: SessionKnowledge;
  /** Reads an MCP resource chip when the message is sent (absent: such chips attach a note instead). */
  readResource?: ResourceReader;
  /** Setup check results: the tool protocol a session starts in (src/vscode/setupCheck). */
  setupChecks?: Pick<SetupCheckMemory, 'startingProtocol' | 'verdicts'>;
}

export const RESTRICTED_NOTICE =
  'Restricted Mode: this workspace is not trusted, so Local Harness offers the model only read tools (list, read, search files). Trust the workspace to let it edit files and run commands.';

export class HarnessController implements ChatController, vscode.Disposable {
  readonly bus = new EventBus();
  private history: ChatMessage[] = [];
  private tracker = new ContextTracker();
  private trackerOff: () => void;
  private editor: EditorActivity = {};
  private sessionRules: ApprovalRule[] = [];
  /** The gate reads these on every check, so each turn's settings apply to the one gate of the chat. */
  private readonly policyRules: ApprovalRule[] = [];
  private readonly autoApprove: RiskLevel[] = [];
  /** Extra sensitive-path patterns from the user's settings; the gate re-reads them on every check. */
  private readonly sensitivePatterns: string[] = [];
  private gate: ApprovalGate | undefined;
  /** The session turns run on, and the settings it was built for. */
  private agent: { key: string; session: AgentSession } | undefined;
  private turn: { abort: AbortController; done: Promise<void> } | undefined;
  private engine: Promise<TurnEngine> | undefined;
  private registry: ToolRegistry | undefined;
  /** The terminal runner and the command sandbox (built on the first turn). */
  private readonly commands: ChatCommands;
  private unreachable: string | undefined;
  private activeModel = '';
  private restrictedNoticeShown = false;
  /** The settings the running turn uses, so an HTTP 401 can be explained. */
  private turnSettings: HarnessSettings | undefined;
  /** Eviction point and summary of a stored session opened from the History, for the next session built. */
  private restoredState: ContextState | undefined;
  /** What the workspace index gave the latest request ("what the model knows" shows it). */
  private lastRetrieval: RetrievalEvent | undefined;
  /** "Run With Planner…" asked for the turn being sent to be planned (whatever `orchestrator.enabled` says). */
  private plannedTurn = false;
  /** "Resume" on a session whose planned run stopped: the turn being sent continues that run. */
  private resumeRun: SavedRun | undefined;
  readonly models: ModelService;
  private readonly modelListeners = new Set<() => void>();
  private readonly hotListeners = new Set<() => void>();
  private readonly statusListeners = new Set<() => void>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: HarnessControllerDeps) {
    this.commands = new ChatCommands({
      createRunner: deps.createRunner,
      extraPatterns: () => this.sensitivePatterns,
      notice: (message) => {
        deps.log.warn(message);
        deps.store.notice(message);
      },
    });
    this.models = new ModelService({
      log: deps.log,
      apiKeys: deps.apiKeys,
      loadEngine: () => this.loadEngine(),
      onReachability: (message) => this.setUnreachable(message),
    });
    this.bus.on((event) => deps.store.applyAgentEvent(event));
    this.bus.on((event) => {
      if (event.type === 'error' && this.turnSettings) void this.explainUnauthorized(this.turnSettings, event.message);
    });
    if (deps.sessions) this.bus.on((event) => deps.sessions!.onEvent(event));
    this.bus.on((event) => {
      const line = describeEventForLog(event);
      if (line) deps.log.write(line.level, line.message);
    });
    this.bus.on((event) => {
      // A new request starts without the last one's retrieval (a turn that retrieves nothing sends no event).
      if (event.type === 'turn_start' && this.lastRetrieval) this.lastRetrieval = undefined;
      else if (event.type === 'retrieval') this.lastRetrieval = event;
      else return;
      this.fire(this.hotListeners);
    });
    this.trackerOff = this.tracker.onChange(() => this.fire(this.hotListeners));
    this.activeModel = this.settings().settings.model;
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigChanged(e)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        deps.store.notice('This workspace is now trusted: from the next message Local Harness may edit files and run commands, with your approval.');
        deps.log.info('workspace trust granted: all tools are offered from the next turn');
        this.fire(this.statusListeners);
      }),
    );
    this.showRestrictedNotice();
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  async send(text: string, options: { chips?: boolean } = {}): Promise<void> {
    if (this.turn) throw new Error('A turn is already running. Press Stop first, or wait for it to finish.');
    const abort = new AbortController();
    let finished!: () => void;
    this.turn = { abort, done: new Promise<void>((resolve) => (finished = resolve)) };
    this.setBusy(true);
    try {
      // Context chips are read now, not when they were added: the model sees the code as it is.
      const chips = options.chips === false ? [] : this.deps.store.attachments;
      const reader = { readFile: (path: string) => this.deps.fs.readFile(path), ...(this.deps.readResource && { readResource: this.deps.readResource }) };
      const attached = chips.length ? { ...(await buildAttachedMessage(text, chips, reader, abort.signal)), ids: chips.map((c) => c.id) } : undefined;
      await this.runOneTurn(text, abort.signal, attached);
    } finally {
      this.turn = undefined;
      this.setBusy(false);
      finished();
    }
  }

  /** "Run With Planner…": this one turn runs planner → executor → answer even when the setting is off. */
  async sendWithPlanner(text: string): Promise<void> {
    if (this.turn) throw new Error('A turn is already running. Press Stop first, or wait for it to finish.');
    this.plannedTurn = true;
    try {
      await this.send(text);
    } finally {
      this.plannedTurn = false;
    }
  }

  /**
   * Resume of a session whose planned run stopped: it continues at the first unfinished step with the planner
   * and executor of the settings; without them the single-model loop is asked to finish the request.
   */
  async resumePlannedRun(run: SavedRun): Promise<void> {
    if (this.turn) throw new Error('A turn is already running. Press Stop first, or wait for it to finish.');
    this.plannedTurn = true;
    this.resumeRun = run;
    try {
      await this.send(run.request, { chips: false });
    } finally {
      this.plannedTurn = false;
      this.resumeRun = undefined;
    }
  }

  stop(): void {
    if (!this.turn || this.turn.abort.signal.aborted) return;
    this.deps.log.info('stop requested: cancelling the turn');
    this.turn.abort.abort();
  }

  async newChat(): Promise<void> {
    const running = this.turn;
    this.stop();
    // Let the cancelled turn finish emitting before the view is cleared.
    if (running) await running.done;
    await this.deps.sessions?.detach();
    this.startConversation([], undefined);
    this.restrictedNoticeShown = false;
    this.deps.store.reset();
    this.deps.log.info('new chat');
    this.showRestrictedNotice();
    this.fire(this.hotListeners);
  }

  async selectModel(name: string): Promise<void> {
    const config = vscode.workspace.getConfiguration('localharness');
    const inspected = config.inspect<string>('model');
    // Write where the current value comes from, so the choice actually takes effect.
    const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config.update('model', name, target);
    this.activeModel = name;
    this.deps.log.info(`model selected: ${name}`);
    this.fire(this.statusListeners);
  }

  async listModels(signal: AbortSignal): Promise<ModelList> {
    const { settings } = this.settings();
    const selected = settings.model || null;
    try {
      const infos = await this.models.list(settings, signal);
      const models = infos.map((m) => m.name);
      const problem = modelListProblem(settings, models);
      if (selected && !problem) void this.refreshContextLimit(settings, selected, signal);
      const checks = this.deps.setupChecks ? await this.deps.setupChecks.verdicts(await this.models.provider(settings), models) : [];
      return { models, selected, ...(problem !== undefined && { error: problem }), ...(checks.length > 0 && { checks }) };
    } catch (err) {
      if (signal.aborted) return { models: [], selected };
      return { models: [], selected, error: errorMessage(err) };
    }
  }

  showHotContext(): HotContextView {
    return hotContextView(this.tracker.snapshot(), this.lastRetrieval);
  }

  onDidChangeModels(listener: () => void): Unsubscribe {
    this.modelListeners.add(listener);
    return () => this.modelListeners.delete(listener);
  }

  onDidChangeHotContext(listener: () => void): Unsubscribe {
    this.hotListeners.add(listener);
    return () => this.hotListeners.delete(listener);
  }

  onDidChangeStatus(listener: () => void): Unsubscribe {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Something the session was built from changed (API key, trust, folders): the next turn builds a new one. */
  invalidateSession(reason: string): void {
    if (!this.agent) return;
    this.agent = { ...this.agent, key: `stale: ${reason}` };
  }

  setEditorActivity(activity: EditorActivity): void {
    this.editor = activity;
    this.tracker.setEditorActivity(activity);
  }

  statusInfo(): StatusInfo {
    const { context, busy } = this.deps.store.state;
    return {
      model: this.activeModel,
      used: context.used,
      available: context.available,
      busy,
      ...(this.unreachable !== undefined && { unreachable: this.unreachable }),
      ...(!this.isTrusted() && { restricted: true }),
    };
  }

  /**
   * Settings as the next turn will read them, without asking anything: a model server the workspace names is
   * used only once the user allowed it (problems are logged once per read).
   */
  settings(): ParsedSettings {
    if (this.deps.readSettings) return this.deps.readSettings();
    const resolution = this.resolveServer();
    const settings = this.deps.serverConsent?.current(resolution).settings ?? resolution.user.settings;
    return { settings, problems: [...resolution.user.problems, ...resolution.ignored] };
  }

  /**
   * Settings for a request about to be sent: when the workspace names another model server and nobody has
   * answered yet, asks first (one modal dialog; the answer is remembered for the workspace).
   */
  async settingsForRequest(signal?: AbortSignal): Promise<ParsedSettings> {
    if (this.deps.readSettings) return this.deps.readSettings();
    const resolution = this.resolveServer();
    const problems = [...resolution.user.problems, ...resolution.ignored];
    const consent = this.deps.serverConsent;
    if (!consent || !resolution.workspace) return { settings: resolution.user.settings, problems };
    // The dialog stays open when the turn is cancelled; its answer still counts later.
    const pick = signal ? await untilAborted(consent.settle(resolution), signal, () => new DOMException('The turn was cancelled.', 'AbortError')) : await consent.settle(resolution);
    if (pick.how === 'asked') {
      // The panel listed the models of the server used until now.
      this.models.clearCache();
      this.fire(this.modelListeners);
      this.fire(this.statusListeners);
    }
    return { settings: pick.settings, problems };
  }

  /** Manage Approval Rules revoked a model-server answer: the next request asks again. */
  serverChoicesChanged(): void {
    this.deps.serverConsent?.forgetDismissed();
    this.models.clearCache();
    this.fire(this.modelListeners);
    this.fire(this.statusListeners);
  }

  private resolveServer(): ServerResolution {
    return this.deps.resolveServer?.() ?? readServerResolution(this.isTrusted());
  }

  /** A 401 from a server we sent no key to: say why in the panel (keys belong to the server they were entered for). */
  private async explainUnauthorized(settings: HarnessSettings, message: string): Promise<void> {
    try {
      const notice = await this.models.missingKeyNotice(settings, message);
      if (notice) this.deps.store.notice(notice);
    } catch (err) {
      this.deps.log.warn(`could not check the stored API key: ${errorMessage(err)}`);
    }
  }

  private async runOneTurn(text: string, signal: AbortSignal, attached?: AttachedMessage & { ids: string[] }): Promise<void> {
    const store = this.deps.store;
    let settings: HarnessSettings;
    let engine: TurnEngine;
    let provider: ChatProvider;
    let model: string;
    let available: number | null;
    try {
      // Before anything is sent: a model server named by the workspace is used only once the user allowed it.
      const read = await this.settingsForRequest(signal);
      settings = read.settings;
      for (const p of read.problems) this.deps.log.warn(`settings: ${p}`);
      engine = await this.loadEngine();
      provider = await this.models.provider(settings);
      model = settings.model || (await this.firstModel(settings, signal));
      available = await this.models.contextWindow(settings, model, signal);
    } catch (err) {
      // Nothing reached the model: show the message and the reason, keep the history (and the chips) unchanged.
      store.dispatch({ type: 'turn_start', text: userMessageText(text, attached?.blocks.map((b) => b.label)) });
      if (!signal.aborted) {
        const why = errorMessage(err);
        this.deps.log.error(`turn not started: ${why}`);
        store.error(why, /model/i.test(why) ? ['selectModel', 'openSettings', 'showLogs'] : ['openSettings', 'showLogs']);
      }
      store.dispatch({ type: 'turn_end', reason: signal.aborted ? 'cancelled' : 'error' });
      return;
    }
    this.activeModel = model;
    store.setContextLimit(available);

    const folders = workspaceFolders();
    const access: ToolAccess = folders.length === 0 ? 'none' : this.isTrusted() ? 'all' : 'read-only';
    if (access === 'read-only') this.showRestrictedNotice();
    if (access === 'none') store.notice('No folder is open, so the model has no tools. Open a folder to let it read and edit files.');
    this.registry ??= engine.createToolRegistry();
    await this.deps.beforeTurn?.(signal);
    const commands = this.commands.forTurn(engine, settings.sandbox, access === 'all');
    this.policyRules.splice(0, this.policyRules.length, ...this.sessionRules, ...this.deps.rules.list(), ...settings.rules);
    this.autoApprove.splice(0, this.autoApprove.length, ...settings.autoApprove);
    this.sensitivePatterns.splice(0, this.sensitivePatterns.length, ...settings.sensitivePatterns);
    this.gate ??= new engine.ApprovalGate({
      policy: { autoApprove: this.autoApprove, rules: this.policyRules },
      sensitivePatterns: this.sensitivePatterns,
      ask: this.deps.ask,
      onRemember: (rule, scope) => this.remember(rule, scope),
    });
    const unusable = this.gate.sensitivePaths().ignored;
    if (unusable.length) this.deps.log.warn(`settings: localharness.approval.sensitivePatterns: ignored ${unusable.map((p) => `"${p}"`).join(', ')} (empty, negated or not a valid glob; the built-in patterns cannot be removed)`);

    // Saved from its first message on (a new stored session), or continuing the one opened from the History.
    const recording = await this.deps.sessions?.forTurn(text, { model, provider: settings.provider });
    const planned = chooseOrchestrator(settings, model, this.plannedTurn);
    if (planned.kind === 'unavailable' && this.plannedTurn) store.notice(planned.reason);
    const protocol = await this.deps.setupChecks?.startingProtocol(settings.agent.toolProtocol ?? 'auto', provider, model);
    const key = JSON.stringify([settings.provider, serverUrl(settings), model, settings.think, settings.contextSize, settings.maxRounds, settings.keepAlive, settings.firstByteTimeoutMs, settings.maxOfferedTools, settings.embeddingModel, access, folders, recording?.id ?? null, orchestratorKey(planned), protocol?.setting]);
    if (this.agent?.key !== key) {
      const orchestrator = planned.kind === 'on' ? await orchestratorOptions(planned.choice, (s) => this.models.provider(s)) : undefined;
      if (orchestrator) this.deps.log.info(`planned turns: planner ${orchestrator.planner.model} at ${orchestrator.planner.provider.baseUrl}, executor ${orchestrator.executor.model} at ${orchestrator.executor.provider.baseUrl}`);
      const session = engine.createEditorSession({
        provider,
        model,
        settings,
        access,
        registry: this.registry,
        gate: this.gate,
        tracker: this.tracker,
        roots: new engine.WorkspaceRoots(folders.length ? folders : [NO_FOLDER], this.deps.fs),
        fs: this.deps.fs,
        runner: commands.runner,
        sandbox: commands.sandbox,
        bus: this.bus,
        systemInfo: systemInfo(folders),
        history: this.history,
        ...(this.agent && { previous: this.agent.session }),
        ...(this.deps.calibration && { calibration: this.deps.calibration }),
        ...(recording && {
          fs: recording.wrapFileSystem(this.deps.fs),
          calibration: recording.recorder.kv,
          vectors: recording.recorder.vectors,
          onMessage: (message: ChatMessage) => recording.recorder.onMessage(message),
          onMessageContext: (message: ChatMessage) => recording.recorder.onMessageContext(message),
          sessionId: recording.recorder.id,
        }),
        onCompression: (report, s) => showCompression(report, s, store, recording?.recorder),
        ...(this.deps.knowledge && { knowledge: this.deps.knowledge }),
        ...(this.restoredState && { initialState: this.restoredState }),
        ...(orchestrator && { orchestrator }),
        ...(protocol && { toolProtocol: protocol.setting }),
      });
      if (protocol?.notice) store.notice(protocol.notice);
      this.restoredState = undefined;
      if (this.agent) this.deps.log.info('settings changed: the conversation continues on a new session');
      this.agent = { key, session };
      this.history = session.history;
    }
    const saveFailed = (err: unknown) => this.deps.log.warn(`sessions: could not mark the turn: ${errorMessage(err)}`);
    await recording?.recorder.beginTurn().catch(saveFailed);
    if (attached) {
      // The message carries the chips now: they leave the composer, and "what the model knows" lists the code.
      for (const id of attached.ids) store.removeAttachment(id);
      for (const read of attached.reads) this.tracker.fileRead(read.path, read.range);
    }
    let outcome;
    this.turnSettings = settings;
    try {
      const resume = this.resumeRun;
      if (resume && !this.agent.session.planned) store.notice('The planned run continues in the single-model loop: no planner and executor models are set (localharness.orchestrator.*).');
      outcome =
        resume && this.agent.session.planned
          ? await this.agent.session.resumePlan(resume, signal)
          : await this.agent.session.send(resume ? `${RESUME_PLAN_TEXT}\n\nRequest: ${resume.request}` : text, signal, attached?.blocks);
    } finally {
      this.turnSettings = undefined;
      await recording?.recorder.endTurn().catch(saveFailed);
    }
    this.deps.log.info(`turn finished: ${outcome.reason} after ${outcome.rounds} round(s)`);
    // A turn that got past the first model call proves the server answers.
    const answered = outcome.reason !== 'error' && outcome.reason !== 'cancelled';
    if (answered || outcome.rounds > 1) this.setUnreachable(undefined);
  }

  private remember(rule: ApprovalRule, scope: 'session' | 'workspace'): void {
    // Applies at once (the gate re-reads the list on every check) and in later turns.
    this.policyRules.push(rule);
    if (scope === 'session') {
      this.sessionRules.push(rule);
      this.deps.log.info(`approval rule for this session: ${describeRule(rule)}`);
      return;
    }
    this.deps.rules.add(rule).then(
      () => this.deps.log.info(`approval rule saved for this workspace: ${describeRule(rule)}`),
      (err: unknown) => this.deps.log.error('could not save the approval rule', err),
    );
  }

  private async firstModel(settings: HarnessSettings, signal: AbortSignal): Promise<string> {
    const name = await this.models.firstChatModel(settings, signal);
    this.deps.store.notice(`Using ${name}, the first model the server lists. Choose another with "Select Model".`);
    return name;
  }

  private async refreshContextLimit(settings: HarnessSettings, model: string, signal: AbortSignal): Promise<void> {
    if (this.turn) return;
    try {
      const size = await this.models.contextWindow(settings, model, signal);
      if (!this.turn && !signal.aborted) this.deps.store.setContextLimit(size);
    } catch {
      // The meter keeps its previous value; the log already has the reason.
    }
  }

  /** The session the last turn ran on (undefined before the first turn of a chat). */
  get agentSession(): AgentSession | undefined {
    return this.agent?.session;
  }

  /**
   * Continue a stored conversation (History → open): like New Chat, but the model's history is `history` and
   * the context manager starts from `state`. The caller fills the panel.
   */
  async restoreConversation(history: readonly ChatMessage[], state: ContextState | undefined): Promise<void> {
    const running = this.turn;
    this.stop();
    if (running) await running.done;
    this.startConversation(history, state);
    this.deps.log.info(`conversation restored: ${history.length} message(s)`);
    this.fire(this.hotListeners);
  }

  /** A fresh conversation state (New Chat, or a restored one): history, session rules, gate, agent and tracker. */
  private startConversation(history: readonly ChatMessage[], state: ContextState | undefined): void {
    this.history = [...history];
    this.restoredState = state;
    this.lastRetrieval = undefined;
    this.sessionRules = [];
    this.gate = undefined;
    this.agent = undefined;
    this.trackerOff();
    this.tracker = new ContextTracker();
    this.tracker.setEditorActivity(this.editor);
    this.trackerOff = this.tracker.onChange(() => this.fire(this.hotListeners));
  }

  /** The chat's one tool registry (built-in tools; MCP servers add theirs). Loads the engine on first use. */
  async toolRegistry(): Promise<ToolRegistry> {
    const engine = await this.loadEngine();
    this.registry ??= engine.createToolRegistry();
    return this.registry;
  }

  private loadEngine(): Promise<TurnEngine> {
    this.engine ??= (this.deps.loadEngine ?? (() => import('./turnEngine')))().catch((err: unknown) => {
      this.engine = undefined;
      throw err;
    });
    return this.engine;
  }

  private showRestrictedNotice(): void {
    if (this.restrictedNoticeShown || this.isTrusted()) return;
    this.restrictedNoticeShown = true;
    this.deps.store.notice(RESTRICTED_NOTICE);
  }

  private isTrusted(): boolean {
    return this.deps.isTrusted?.() ?? vscode.workspace.isTrusted;
  }

  private setBusy(busy: boolean): void {
    void vscode.commands.executeCommand('setContext', 'localharness.turnRunning', busy);
    this.fire(this.statusListeners);
  }

  private setUnreachable(message: string | undefined): void {
    if (message === this.unreachable) return;
    const recovered = this.unreachable !== undefined && message === undefined;
    this.unreachable = message;
    void vscode.commands.executeCommand('setContext', 'localharness.serverUnreachable', message !== undefined);
    if (message) this.deps.log.warn(message);
    else this.deps.log.info('the model server answers again');
    this.fire(this.statusListeners);
    // The panel's model list was an error while the server was down: let it ask again.
    if (recovered) this.fire(this.modelListeners);
  }

  private onConfigChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration('localharness')) return;
    this.models.clearCache();
    const serverKeys = ['localharness.model', 'localharness.provider', 'localharness.ollama.host', 'localharness.openai.baseUrl'];
    if (serverKeys.some((k) => e.affectsConfiguration(k))) {
      if (!this.turn) this.activeModel = this.settings().settings.model;
      this.fire(this.modelListeners);
    }
    this.fire(this.statusListeners);
  }

  private fire(listeners: Set<() => void>): void {
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        this.deps.log.error('a change listener failed', err);
      }
    }
  }

  dispose(): void {
    this.turn?.abort.abort();
    this.trackerOff();
    for (const d of this.disposables) d.dispose();
    this.modelListeners.clear();
    this.hotListeners.clear();
    this.statusListeners.clear();
  }
}

