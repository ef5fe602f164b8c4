// The ChatController the chat view talks to. It wires the parts and answers the view: the turn host runs turns,
// the session factory decides when a session is rebuilt and owns the approval gate, the hot context follows what
// the model knows, the settings service and the model service answer for the server. Every AgentEvent goes to the
// chat store, the session recording and the log; the status bar and context keys follow.
import { selectedModelInfo } from '../../editor/models/selectedModelInfo';
import type { ImageUpload } from '../../shared/imageUpload';
import * as vscode from 'vscode';
import type { ChatController, ModelList, Unsubscribe } from '../../editor/chat/controller';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import type { HotContextView } from '../../shared/protocol';
import { EventBus } from '../../core/agent/events';
import type { EditorActivity } from '../../core/workingContext/tracker';
import type { ChatMessage } from '../../core/messages';
import type { AgentSession } from '../../core/session/agentSession';
import type { ContextState } from '../../core/compression/view';
import type { SavedRun } from '../../core/orchestrator';
import { describeEventForLog } from '../../editor/log/eventLog';
import { errorMessage, type Logger } from '../../editor/log/logger';
import type { EditorSettings, SettingsChange } from '../settings/editorSettings';
import type { ChatMode } from '../../core/modes/chatMode';
import type { StatusInfo } from '../../editor/status/statusText';
import type { TurnEngine } from '../../editor/engine/engineLoader';
import { modelListProblem } from '../../editor/models/modelText';
import type { ModelService } from '../../editor/models/modelService';
import { NO_FOLDER, systemInfo, workspaceFolders } from '../workspaceInfo';
import { ChatHotContext } from '../../editor/agent/chatHotContext';
import { SessionFactory, type SessionFactoryDeps } from '../../editor/agent/sessionFactory';
import { TurnHost, type TurnHostDeps } from '../../editor/agent/turnHost';
import type { SetupCheckMemory } from '../../editor/setupCheck/setupCheckMemory';

export { RESTRICTED_NOTICE } from '../../editor/agent/turnHost';

export interface HarnessControllerDeps
  extends Omit<SessionFactoryDeps, 'bus' | 'tracker'>,
    Pick<TurnHostDeps, 'sessions' | 'beforeTurn' | 'readResource'> {
  store: ChatStateStore;
  /** Setup check results: the verdicts the model picker shows. */
  setupChecks?: Pick<SetupCheckMemory, 'verdicts'>;
  log: Logger;
  settings: EditorSettings;
  models: ModelService;
  loadEngine: () => Promise<TurnEngine>;
}

export class HarnessController implements ChatController, vscode.Disposable {
  readonly bus = new EventBus();
  private readonly hot: ChatHotContext;
  private readonly factory: SessionFactory;
  private readonly turns: TurnHost;
  private unreachable: string | undefined;
  private activeModel = '';
  private readonly modelListeners = new Set<() => void>();
  private readonly statusListeners = new Set<() => void>();
  private readonly offs: (() => void)[] = [];

  constructor(private readonly deps: HarnessControllerDeps) {
    const { store, log, settings, models } = deps;
    this.hot = new ChatHotContext((err) => log.error('a change listener failed', err));
    this.factory = new SessionFactory({ ...deps, bus: this.bus, tracker: () => this.hot.tracker });
    this.turns = new TurnHost({
      ...deps,
      factory: this.factory,
      hot: this.hot,
      workspace: { folders: workspaceFolders, systemInfo, noFolder: NO_FOLDER },
      onBusy: (busy) => {
        void vscode.commands.executeCommand('setContext', 'localharness.turnRunning', busy);
        this.fire(this.statusListeners);
      },
      onModel: (model) => (this.activeModel = model),
      onAnswered: () => this.setUnreachable(undefined),
    });
    this.bus.on((event) => store.applyAgentEvent(event));
    this.bus.on((event) => this.turns.onEvent(event));
    if (deps.sessions) this.bus.on((event) => deps.sessions!.onEvent(event));
    this.bus.on((event) => {
      const line = describeEventForLog(event);
      if (line) log.write(line.level, line.message);
    });
    this.bus.on((event) => this.hot.onEvent(event));
    this.activeModel = settings.settings().settings.model;
    this.offs.push(
      settings.onDidChange((change) => this.onSettingsChanged(change)),
      models.onDidProbe((message) => this.setUnreachable(message)),
    );
    this.turns.showRestrictedNotice();
  }

  get busy(): boolean {
    return this.turns.busy;
  }

  send(text: string, images?: readonly ImageUpload[]): Promise<void> {
    return this.turns.send(text, images?.length ? { images } : {});
  }

  /** The panel's mode switch: the user's choice in this window, else `localharness.mode`. */
  mode(): ChatMode {
    return this.turns.mode(this.deps.settings.settings().settings.mode);
  }

  setMode(mode: ChatMode): void {
    this.turns.setMode(mode);
  }

  /** "Act" on a plan message: Agent mode, and the (edited) plan is sent to be carried out. */
  act(plan: string): Promise<void> {
    return this.turns.act(plan);
  }

  sendWithPlanner(text: string): Promise<void> {
    return this.turns.sendWithPlanner(text);
  }

  resumePlannedRun(run: SavedRun): Promise<void> {
    return this.turns.resumePlannedRun(run);
  }

  stop(): void {
    this.turns.stop();
  }

  newChat(): Promise<void> {
    return this.turns.newChat();
  }

  restoreConversation(history: readonly ChatMessage[], state: ContextState | undefined): Promise<void> {
    return this.turns.restoreConversation(history, state);
  }

  /** The session the last turn ran on (undefined before the first turn of a chat). */
  get agentSession(): AgentSession | undefined {
    return this.factory.current;
  }

  /** Something the session was built from changed (API key, trust, folders): the next turn builds a new one. */
  invalidateSession(reason: string): void {
    this.factory.invalidate(reason);
  }

  async selectModel(name: string): Promise<void> {
    await this.deps.settings.selectModel(name);
    this.activeModel = name;
    this.deps.log.info(`model selected: ${name}`);
    this.fire(this.statusListeners);
  }

  async listModels(signal: AbortSignal): Promise<ModelList> {
    const { settings } = this.deps.settings.settings();
    const selected = settings.model || null;
    try {
      const infos = await this.deps.models.list(settings, signal);
      const models = infos.map((m) => m.name);
      const problem = modelListProblem(settings, models);
      if (selected && !problem) void this.turns.refreshContextLimit(settings, selected, signal);
      const checks = this.deps.setupChecks ? await this.deps.setupChecks.verdicts(await this.deps.models.provider(settings), models) : [];
      const selectedInfo = selected && !problem ? await selectedModelInfo(await this.deps.models.provider(settings), selected, settings.images.vision, signal) : undefined;
      return { models, selected, ...(problem !== undefined && { error: problem }), ...(checks.length > 0 && { checks }), ...(selectedInfo && { selectedInfo }) };
    } catch (err) {
      if (signal.aborted) return { models: [], selected };
      return { models: [], selected, error: errorMessage(err) };
    }
  }

  showHotContext(): HotContextView {
    return this.hot.view();
  }

  setEditorActivity(activity: EditorActivity): void {
    this.hot.setEditorActivity(activity);
  }

  onDidChangeModels(listener: () => void): Unsubscribe {
    this.modelListeners.add(listener);
    return () => this.modelListeners.delete(listener);
  }

  onDidChangeHotContext(listener: () => void): Unsubscribe {
    return this.hot.onDidChange(listener);
  }

  onDidChangeStatus(listener: () => void): Unsubscribe {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  statusInfo(): StatusInfo {
    const { context, busy } = this.deps.store.state;
    return {
      model: this.activeModel,
      used: context.used,
      available: context.available,
      busy,
      ...(this.unreachable !== undefined && { unreachable: this.unreachable }),
      ...(!this.deps.settings.isTrusted() && { restricted: true }),
    };
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

  private onSettingsChanged(change: SettingsChange): void {
    if (change === 'trust') {
      this.deps.store.notice('This workspace is now trusted: from the next message Local Harness may edit files and run commands, with your approval.');
      this.deps.log.info('workspace trust granted: all tools are offered from the next turn');
    } else {
      // Window sizes and model lists may differ with any localharness setting.
      this.deps.models.clearCache();
    }
    if (change === 'server') {
      if (!this.turns.busy) this.activeModel = this.deps.settings.settings().settings.model;
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
    this.turns.stop();
    this.hot.dispose();
    for (const off of this.offs) off();
    this.modelListeners.clear();
    this.statusListeners.clear();
  }
}
