// Runs the chat's turns: one at a time, with Stop, New Chat, a conversation opened from the History, "Run With
// Planner…" and the resume of a planned run. Each turn reads the settings (asking about a workspace's model server
// first), reads the attached code, gets its session from the factory and reports through the chat store.
import type { ImageUpload } from '../../shared/imageUpload';
import { imageFromDataUrl, imageLabel, type ImagePart } from '../../core/images/imagePart';
import { cannotSeeMessage, visionFor } from '../../core/images/vision';
import type { AgentEvent } from '../../core/agent/events';
import type { ContextState } from '../../core/compression/view';
import type { ChatMessage } from '../../core/messages';
import type { FileSystemPort } from '../../core/ports';
import type { SavedRun } from '../../core/orchestrator';
import type { SystemInfo } from '../../core/prompt/systemPrompt';
import type { WorkspaceFolder } from '../../core/workspace/workspaceRoots';
import { userMessageText } from '../../shared/attachedMessage';
import { chatImagesOf } from '../chat/chatImages';
import { actText, type ChatMode } from '../../core/modes/chatMode';
import { resolvePromptFile } from './promptFileTurn';
import type { ChatStateStore } from '../chat/chatStateStore';
import { buildAttachedMessage, type AttachedMessage } from '../codeToChat/readAttachments';
import type { ResourceReader } from '../codeToChat/resourceBlocks';
import type { TurnEngine } from '../engine/engineLoader';
import type { ToolAccess } from '../engine/toolAccess';
import { errorMessage, type Logger } from '../log/logger';
import type { ModelService } from '../models/modelService';
import { chooseOrchestrator, orchestratorKey, orchestratorOptions } from '../orchestrator/orchestratorEndpoints';
import type { HarnessSettings, ParsedSettings } from '../settings/harnessSettings';
import type { EditorSessionService } from '../history/sessionService';
import type { ChatHotContext } from './chatHotContext';
import type { SessionFactory } from './sessionFactory';

/** What the single-model loop is told when it finishes a planned run that cannot be resumed as planned. */
const RESUME_PLAN_TEXT = 'A planned run of this request stopped before it finished. The tool calls above already ran: check their results and do only what is left.';

const BUSY = 'A turn is already running. Press Stop first, or wait for it to finish.';

export const RESTRICTED_NOTICE =
  'Restricted Mode: this workspace is not trusted, so Local Harness offers the model only read tools (list, read, search files). Trust the workspace to let it edit files and run commands.';

/** The open folders and the environment line of the system prompt. */
export interface WorkspacePort {
  folders(): WorkspaceFolder[];
  systemInfo(folders: readonly WorkspaceFolder[]): SystemInfo;
  noFolder: WorkspaceFolder;
}

export interface TurnHostDeps {
  store: ChatStateStore;
  log: Logger;
  settings: { settingsForRequest(signal?: AbortSignal): Promise<ParsedSettings>; isTrusted(): boolean };
  models: ModelService;
  factory: SessionFactory;
  hot: ChatHotContext;
  loadEngine: () => Promise<TurnEngine>;
  workspace: WorkspacePort;
  fs: FileSystemPort;
  /** Durable sessions: every message, tool audit and file checkpoint of the chat is saved (absent: nothing is). */
  sessions?: EditorSessionService;
  /** Runs before each turn (MCP servers start and add their tools to the chat's registry); must not throw. */
  beforeTurn?: (signal: AbortSignal) => Promise<void>;
  /** Reads an MCP resource chip when the message is sent (absent: such chips attach a note instead). */
  readResource?: ResourceReader;
  /** A turn started or ended. */
  onBusy: (busy: boolean) => void;
  /** The model the turn runs with. */
  onModel: (model: string) => void;
  /** A turn got an answer from the server: it is reachable. */
  onAnswered: () => void;
}

export class TurnHost {
  private turn: { abort: AbortController; done: Promise<void> } | undefined;
  /** "Run With Planner…" asked for the turn being sent to be planned (whatever `orchestrator.enabled` says). */
  private plannedTurn = false;
  /** "Resume" on a session whose planned run stopped: the turn being sent continues that run. */
  private resumeRun: SavedRun | undefined;
  /** The settings the running turn uses, so an HTTP 401 can be explained. */
  private turnSettings: HarnessSettings | undefined;
  private restrictedNoticeShown = false;
  /** The panel's mode switch; until it is used, each turn takes `localharness.mode`. */
  private chosenMode: ChatMode | undefined;

  constructor(private readonly deps: TurnHostDeps) {}

  /** The mode the panel shows: the user's choice, else the setting's (`fallback`). */
  mode(fallback: ChatMode): ChatMode {
    return this.chosenMode ?? fallback;
  }

  setMode(mode: ChatMode): void {
    this.chosenMode = mode;
    this.deps.log.info(`mode: ${mode}`);
  }

  /** Act on a plan: switch to Agent and send the plan (as the user edited it) to be carried out. */
  async act(plan: string): Promise<void> {
    if (this.turn) throw new Error(BUSY);
    if (plan.trim() === '') throw new Error('the plan is empty');
    this.setMode('agent');
    await this.send(actText(plan), { chips: false });
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  async send(text: string, options: { chips?: boolean; images?: readonly ImageUpload[] } = {}): Promise<void> {
    if (this.turn) throw new Error(BUSY);
    const abort = new AbortController();
    let finished!: () => void;
    this.turn = { abort, done: new Promise<void>((resolve) => (finished = resolve)) };
    this.deps.onBusy(true);
    // A slow model-info or embedding request says in the chat what it waits for.
    const stopWaits = this.deps.models.onDidWait((message) => this.deps.store.notice(message));
    try {
      // Context chips are read now, not when they were added: the model sees the code as it is.
      const chips = options.chips === false ? [] : this.deps.store.attachments;
      const reader = { readFile: (path: string) => this.deps.fs.readFile(path), ...(this.deps.readResource && { readResource: this.deps.readResource }) };
      const attached = chips.length ? { ...(await buildAttachedMessage(text, chips, reader, abort.signal)), ids: chips.map((c) => c.id) } : undefined;
      const images = imagesOfUploads(options.images ?? []);
      await this.runOneTurn(text, abort.signal, attached, images);
    } finally {
      stopWaits();
      this.turn = undefined;
      this.deps.onBusy(false);
      finished();
    }
  }

  /** "Run With Planner…": this one turn runs planner → executor → answer even when the setting is off. */
  async sendWithPlanner(text: string): Promise<void> {
    if (this.turn) throw new Error(BUSY);
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
    if (this.turn) throw new Error(BUSY);
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
    await this.stopAndWait();
    await this.deps.sessions?.detach();
    this.deps.factory.reset([], undefined);
    this.restrictedNoticeShown = false;
    this.deps.store.reset();
    this.deps.log.info('new chat');
    this.showRestrictedNotice();
    this.deps.hot.reset();
  }

  /**
   * Continue a stored conversation (History → open): like New Chat, but the model's history is `history` and
   * the context manager starts from `state`. The caller fills the panel.
   */
  async restoreConversation(history: readonly ChatMessage[], state: ContextState | undefined): Promise<void> {
    await this.stopAndWait();
    this.deps.factory.reset(history, state);
    this.deps.log.info(`conversation restored: ${history.length} message(s)`);
    this.deps.hot.reset();
  }

  /** Said once per chat in an untrusted workspace. */
  showRestrictedNotice(): void {
    if (this.restrictedNoticeShown || this.deps.settings.isTrusted()) return;
    this.restrictedNoticeShown = true;
    this.deps.store.notice(RESTRICTED_NOTICE);
  }

  /** A 401 from a server we sent no key to: say why in the panel (keys belong to the server they were entered for). */
  onEvent(event: AgentEvent): void {
    if (event.type !== 'error' || !this.turnSettings) return;
    this.deps.models.missingKeyNotice(this.turnSettings, event.message).then(
      (notice) => notice && this.deps.store.notice(notice),
      (err: unknown) => this.deps.log.warn(`could not check the stored API key: ${errorMessage(err)}`),
    );
  }

  /** Cancels the running turn and waits until it has emitted its last event. */
  async stopAndWait(): Promise<void> {
    const running = this.turn;
    this.stop();
    if (running) await running.done;
  }

  /** Only while no turn runs: the window meter follows the selected model. */
  async refreshContextLimit(settings: HarnessSettings, model: string, signal: AbortSignal): Promise<void> {
    if (this.turn) return;
    try {
      const size = await this.deps.models.contextWindow(settings, model, signal);
      if (!this.turn && !signal.aborted) this.deps.store.setContextLimit(size);
    } catch {
      // The meter keeps its previous value; the log already has the reason.
    }
  }

  private async runOneTurn(text: string, signal: AbortSignal, attached?: AttachedMessage & { ids: string[] }, images: ImagePart[] = []): Promise<void> {
    const { store, log, models } = this.deps;
    let setup: { settings: HarnessSettings; engine: TurnEngine; model: string };
    let provider;
    try {
      setup = await this.resolveSetup(signal);
      provider = await models.provider(setup.settings);
      store.setContextLimit(await models.contextWindow(setup.settings, setup.model, signal));
    } catch (err) {
      // Nothing reached the model: show the message and the reason, keep the history (and the chips) unchanged.
      store.dispatch({ type: 'turn_start', text: userMessageText(text, attached?.blocks.map((b) => b.label)) });
      if (!signal.aborted) {
        const why = errorMessage(err);
        log.error(`turn not started: ${why}`);
        store.error(why, /model/i.test(why) ? ['selectModel', 'openSettings', 'showLogs'] : ['openSettings', 'showLogs']);
      }
      store.dispatch({ type: 'turn_end', reason: signal.aborted ? 'cancelled' : 'error' });
      return;
    }
    const { settings, engine, model } = setup;
    this.deps.onModel(model);
    // A model that cannot see gets no images: say so plainly, keep the message and its images, send nothing.
    const vision = await visionFor(provider, model, settings.images.vision, signal);
    if (images.length && !vision) {
      store.dispatch({ type: 'turn_start', text: userMessageText(text, images.map(imageLabel)), images: chatImagesOf(images) ?? [] });
      store.error(cannotSeeMessage(model, 'localharness.images.vision'), ['selectModel', 'openSettings']);
      store.dispatch({ type: 'turn_end', reason: 'error' });
      return;
    }

    const folders = this.deps.workspace.folders();
    // `/name` of a prompt file: its text (and mode) is the turn; anything else is sent as typed.
    let mode = this.mode(settings.mode);
    let onlyTools: string[] | undefined;
    const prompt = await resolvePromptFile(text, this.deps.fs, folders).catch((err: unknown) => {
      store.notice(`The prompt file could not be used: ${errorMessage(err)}. The message is sent as typed.`);
      return undefined;
    });
    if (prompt) {
      log.info(`prompt file /${prompt.name} (${prompt.file})${prompt.mode ? `, mode ${prompt.mode}` : ''}`);
      text = prompt.text;
      mode = prompt.mode ?? mode;
      onlyTools = prompt.tools;
    }
    const access: ToolAccess = folders.length === 0 ? 'none' : this.deps.settings.isTrusted() ? 'all' : 'read-only';
    if (access === 'read-only') this.showRestrictedNotice();
    if (access === 'none') store.notice('No folder is open, so the model has no tools. Open a folder to let it read and edit files.');
    await this.deps.beforeTurn?.(signal);

    // Saved from its first message on (a new stored session), or continuing the one opened from the History.
    const recording = await this.deps.sessions?.forTurn(text, { model, provider: settings.provider });
    const planned = chooseOrchestrator(settings, model, this.plannedTurn);
    if (planned.kind === 'unavailable' && this.plannedTurn) store.notice(planned.reason);
    const session = await this.deps.factory.sessionFor({
      engine,
      settings,
      provider,
      model,
      access,
      folders,
      noFolder: this.deps.workspace.noFolder,
      systemInfo: this.deps.workspace.systemInfo(folders),
      ...(recording && { recording }),
      plannerKey: orchestratorKey(planned),
      orchestrator: async () => {
        if (planned.kind !== 'on') return undefined;
        const options = await orchestratorOptions(planned.choice, (s) => models.provider(s));
        log.info(`planned turns: planner ${options.planner.model} at ${options.planner.provider.baseUrl}, executor ${options.executor.model} at ${options.executor.provider.baseUrl}`);
        return options;
      },
    });
    const saveFailed = (err: unknown) => log.warn(`sessions: could not mark the turn: ${errorMessage(err)}`);
    await recording?.recorder.beginTurn().catch(saveFailed);
    if (attached) {
      // The message carries the chips now: they leave the composer, and "what the model knows" lists the code.
      for (const id of attached.ids) store.removeAttachment(id);
      for (const read of attached.reads) this.deps.hot.tracker.fileRead(read.path, read.range);
    }
    let outcome;
    this.turnSettings = settings;
    try {
      const resume = this.resumeRun;
      if (resume && !session.planned) store.notice('The planned run continues in the single-model loop: no planner and executor models are set (localharness.orchestrator.*).');
      outcome =
        resume && session.planned
          ? await session.resumePlan(resume, signal)
          : await session.send(resume ? `${RESUME_PLAN_TEXT}\n\nRequest: ${resume.request}` : text, signal, attached?.blocks, resume ? 'agent' : mode, resume ? undefined : onlyTools, { images, vision });
    } finally {
      this.turnSettings = undefined;
      await recording?.recorder.endTurn().catch(saveFailed);
    }
    log.info(`turn finished: ${outcome.reason} after ${outcome.rounds} round(s)`);
    // A turn that got past the first model call proves the server answers.
    if ((outcome.reason !== 'error' && outcome.reason !== 'cancelled') || outcome.rounds > 1) this.deps.onAnswered();
  }

  /** The settings (a workspace's model server only once allowed), the engine and the model of this turn. */
  private async resolveSetup(signal: AbortSignal): Promise<{ settings: HarnessSettings; engine: TurnEngine; model: string }> {
    const read = await this.deps.settings.settingsForRequest(signal);
    for (const p of read.problems) this.deps.log.warn(`settings: ${p}`);
    const engine = await this.deps.loadEngine();
    const settings = read.settings;
    let model = settings.model;
    if (!model) {
      model = await this.deps.models.firstChatModel(settings, signal);
      this.deps.store.notice(`Using ${model}, the first model the server lists. Choose another with "Select Model".`);
    }
    return { settings, engine, model };
  }
}

/** The panel's uploads as images; one whose bytes are not the image its data URL claims is refused by name. */
function imagesOfUploads(uploads: readonly ImageUpload[]): ImagePart[] {
  return uploads.map((u) => {
    const image = imageFromDataUrl(u.dataUrl, u.name);
    if (!image) throw new Error(`${u.name} is not a PNG, JPEG, WebP or GIF image; remove it and try again.`);
    return u.thumbnail ? { ...image, thumbnail: u.thumbnail } : image;
  });
}
