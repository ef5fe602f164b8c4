// What the context manager takes and offers: its options, the status behind the context meter, and the hook the
// turn runner calls before every model call (contextManager.ts builds it).
import type { ChatMessage, ToolDefinition } from '../messages';
import type { ChatProvider } from '../provider';
import type { CompressionReport } from './compressor';
import type { CompressionModel } from './modelPass';
import type { IndexSummaryPort } from '../knowledge/types';
import type { ContextState } from './view';
import type { KeyValuePort } from '../window/calibration';
import type { ContextSettingsInput } from '../window/contextSettings';
import type { ContextWindow, WindowSource } from '../window/window';

export interface ContextManagerOptions {
  /** The main model's server: asked for the window, and (by default) runs the compression agent. */
  provider: ChatProvider;
  model: string;
  /** The num_ctx sent with every request (Ollama); it is the window there. */
  contextSize?: number;
  /** The user's context-size setting, for servers that do not report theirs. */
  configuredWindow?: number;
  /** Overrides the lookup: a fixed window, or how to find it. */
  window?: number | ContextWindow | ((signal: AbortSignal) => Promise<ContextWindow>);
  /** The tool definitions sent natively with each call (pass `() => []` when tools live in the prompt, xml mode). */
  tools?: () => readonly ToolDefinition[];
  /** Persists calibration factors between sessions. */
  calibrationStore?: KeyValuePort;
  /** The stored session this manager serves: its truncation evidence is kept with it (in the calibration store). */
  sessionId?: string;
  /** Validated with zod; throws a readable Error on bad values. */
  settings?: ContextSettingsInput;
  /** Model for the LLM compression pass; defaults to the main one. `null`: fallback and eviction only. */
  compressionModel?: CompressionModel | null;
  /** Summaries of indexed files: compression replaces a long read_file result by its file's summary first. */
  summaries?: IndexSummaryPort;
  /** Eviction point and summary from a previous run of this session. */
  initialState?: ContextState;
  /** Every compression, for the event stream and persistence. */
  onCompression?: (report: CompressionReport) => void;
  /** Once-per-session warnings (a server cutting the prompt, a calibration store that fails). */
  onWarning?: (message: string) => void;
  /** Progress while compressing (a status line). */
  onStatus?: (message: string) => void;
  /** The window we budget against changed (the server runs less than asked, or the user fixed it). */
  onWindowChange?: (change: { window: number; previous: number; source: string; reason: string }) => void;
  /**
   * Hold the LLM compression pass to a budget of model calls (per turn and per session; see compressionBudget.ts).
   * The agent session turns this on; without it every pass may use maxCompressionIterations.
   */
  callBudget?: boolean;
}

export interface ContextStatus {
  window: number;
  windowSource: WindowSource;
  windowNote?: string;
  /** Calibrated tokens of the last request prepared (0 before the first). */
  used: number;
  systemTokens: number;
  toolDefinitionTokens: number;
  messagesTokens: number;
  /** Left for the answer. */
  free: number;
  compressAtTokens: number;
  targetTokens: number;
  minAnswerTokens: number;
  calibrationFactor: number;
  calibrationSamples: number;
  compressions: number;
  /** History messages no longer in the prompt. */
  evictedMessages: number;
  summary?: string;
  /** LLM compression calls this turn, and the turn's limit. */
  compressionBudget: { used: number; limit: number };
}

export interface ContextManager {
  /** Plug into TurnConfig.hooks (or pass prepareMessages to createTurnHooks). */
  readonly hooks: { prepareMessages(messages: ChatMessage[], signal: AbortSignal, tools?: readonly ToolDefinition[]): Promise<ChatMessage[]> };
  /** `tools`: the definitions the request will carry (default: the `tools` option). */
  prepareMessages(messages: ChatMessage[], signal: AbortSignal, tools?: readonly ToolDefinition[]): Promise<ChatMessage[]>;
  /** A new user turn begins (the compression budget is per turn). */
  startTurn(): void;
  /** The window the next request is budgeted against (looked up on first use). */
  windowTokens(signal: AbortSignal): Promise<number>;
  /** Feed the server's count for the last prepared request (the `usage` event). */
  recordUsage(usage: { promptTokens: number; completionTokens?: number }): void;
  /** "Compress Context Now": `messages` as the runner would send them ([system, ...history]). */
  compressNow(messages: ChatMessage[], signal: AbortSignal): Promise<CompressionReport>;
  status(): ContextStatus;
  /** Serialisable state to store with the session (eviction point, summary). */
  state(): ContextState;
  /** The original of a compressed copy in the prepared messages (for the panel). */
  originalOf(message: ChatMessage): ChatMessage | undefined;
  /** Ask the server for the window again on the next call (e.g. the model was reloaded). */
  refreshWindow(): void;
}
