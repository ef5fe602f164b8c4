// What the chat view asks of the rest of the extension. The "extension" side implements it by wiring the core
// agent; the view never runs the agent loop itself (it must survive the panel being hidden or reloaded).
import type { ImageUpload, SelectedModelInfo } from '../../shared/imageUpload';
import type { HotContextView, ModelCheck } from '../../shared/protocol';

export interface ModelList {
  models: string[];
  /** The model the next turn will use (`localharness.model`), null when none is chosen. */
  selected: string | null;
  /** Why the list is empty or stale, in plain words with the next step ("Is Ollama running at …?"). */
  error?: string;
  /** The setup check's verdicts on listed models (a mark and a tooltip in the picker). */
  checks?: ModelCheck[];
  /** The selected model's window and vision/tools badges. */
  selectedInfo?: SelectedModelInfo;
}

/** Unsubscribe function returned by the optional change hooks. */
export type Unsubscribe = () => void;

export interface ChatController {
  /**
   * Start a turn with the user's message. Events reach the panel through the ChatStateStore the controller
   * feeds (EventBus -> store.applyAgentEvent). Resolves when the turn ends; rejecting shows the error in the panel.
   */
  send(text: string, images?: readonly ImageUpload[]): Promise<void>;
  /** Cancel the running turn (no-op when idle). */
  stop(): void;
  /** Forget the conversation and start a fresh one (the controller also calls store.reset()). */
  newChat(): void | Promise<void>;
  /** Make `name` the model for the next turns (and persist the setting). */
  selectModel(name: string): Promise<void>;
  /** Models the configured server offers. Must not throw for an unreachable server: report it in `error`. */
  listModels(signal: AbortSignal): Promise<ModelList>;
  /** "What the model knows": the hot context as of now (see hotContextView() for building it from the tracker). */
  showHotContext(): HotContextView;
  /** Optional: the mode the panel's switch shows (Agent, Plan, Ask), its change, and Act on a plan. */
  mode?(): 'agent' | 'plan' | 'ask';
  setMode?(mode: 'agent' | 'plan' | 'ask'): void;
  act?(plan: string): Promise<void>;
  /** Optional: notify when the model list or selection changed (settings edited, a model pulled). */
  onDidChangeModels?(listener: () => void): Unsubscribe;
  /** Optional: notify when the hot context changed, so an open panel stays current. */
  onDidChangeHotContext?(listener: () => void): Unsubscribe;
}
