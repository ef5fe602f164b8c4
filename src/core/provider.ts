// The one streaming interface every model provider implements.
import type { ChatMessage, ToolCall, ToolDefinition } from './messages';

/** `chat`: the conversation's own requests (its rounds, the compression pass that shares its prefix). `side`: the rest. */
export type CacheSlot = 'chat' | 'side';

export interface ProviderCapabilities {
  thinking: boolean;
  keepAlive: boolean;
  tools: boolean;
  jsonMode: boolean;
  streaming: boolean;
  embeddings: boolean;
  /** The request can set the context size (Ollama `num_ctx`). */
  contextSizeApi: boolean;
}

export interface ModelInfo {
  name: string;
  /** The model's maximum context length, when the server tells us. */
  contextLength?: number;
  /** The context length the server runs the model with right now (LM Studio `loaded_context_length`). */
  loadedContextLength?: number;
  /** The context size this provider asks for when none is configured (Ollama: the `num_ctx` it sends by default). */
  defaultContextSize?: number;
  /** False when the server lists its models and this one is not among them. */
  listed?: boolean;
  /** Server-reported capabilities, e.g. Ollama's `completion`, `tools`, `thinking`, `embedding`. */
  capabilities?: string[];
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools: readonly ToolDefinition[];
  signal: AbortSignal;
  /** Ask for thinking output when the model supports it. */
  think?: boolean;
  temperature?: number;
  maxTokens?: number;
  /** Context window to request (Ollama `num_ctx`); ignored where the server fixes it at load time. */
  contextSize?: number;
  /**
   * Constrain the reply to JSON matching this JSON Schema (Ollama `format`, OpenAI-compatible
   * `response_format: {type: "json_schema"}`). Some servers ignore it, so the caller validates the reply anyway.
   */
  responseFormat?: ResponseFormat;
  /**
   * Most thinking tokens wanted (src/core/agent/thinkingBudget.ts enforces it): providers pass it to the server's own
   * control where one exists (gpt-oss effort levels).
   */
  thinkingBudget?: number;
  /**
   * Whose cached prompt this request is (src/core/cacheSlot.ts): the chat's own, or side work that must not evict
   * it. Servers with parallel slots (llama.cpp `id_slot`) keep the two apart; the others ignore it.
   */
  cacheSlot?: CacheSlot;
}

/** A named JSON Schema the reply must follow. */
export interface ResponseFormat {
  /** a-z, A-Z, 0-9, '_' and '-', at most 64 characters (OpenAI's rule; providers clean it up). */
  name: string;
  schema: Record<string, unknown>;
}

/** The per-call options the agent passes through to a provider, minus the tools. */
export type ModelCallOptions = Omit<ChatRequest, 'tools'>;

/** Builds a ChatRequest, leaving unset options out (providers treat a present `undefined` as set). */
export function toChatRequest(call: ModelCallOptions, tools: readonly ToolDefinition[]): ChatRequest {
  return {
    model: call.model,
    messages: call.messages,
    tools,
    signal: call.signal,
    ...(call.think !== undefined && { think: call.think }),
    ...(call.contextSize !== undefined && { contextSize: call.contextSize }),
    ...(call.temperature !== undefined && { temperature: call.temperature }),
    ...(call.maxTokens !== undefined && { maxTokens: call.maxTokens }),
    ...(call.responseFormat !== undefined && { responseFormat: call.responseFormat }),
    ...(call.thinkingBudget !== undefined && { thinkingBudget: call.thinkingBudget }),
    ...(call.cacheSlot !== undefined && { cacheSlot: call.cacheSlot }),
  };
}

/**
 * The server's counts for one request. `promptTokens`: the whole prompt. `cachedTokens`: the part it reused from its
 * prompt cache instead of reading it again: as the server reports it, or (`cachedEstimated`) estimated from how much
 * of the request matched the previous one, where the server does not say (LM Studio, older Ollama).
 */
export interface PromptUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
  cachedEstimated?: boolean;
}

/** What one model call brought back: the visible text, the thinking, the tool calls, why it stopped, the counts. */
export interface RoundReply {
  text: string;
  thinking: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage?: PromptUsage;
}

/** A usage delta as the turn keeps it (no `type`, nothing unset). */
export function usageOf(delta: PromptUsage): PromptUsage {
  return {
    promptTokens: delta.promptTokens,
    completionTokens: delta.completionTokens,
    ...(delta.cachedTokens !== undefined && { cachedTokens: delta.cachedTokens }),
    ...(delta.cachedEstimated && { cachedEstimated: true }),
  };
}

/**
 * How long the server says it spent on one request, where it says (Ollama `load_duration`, `prompt_eval_duration`,
 * `eval_duration`; llama.cpp `timings.prompt_ms`, `predicted_ms`). Milliseconds.
 */
export interface ServerTimings {
  loadMs?: number;
  promptMs?: number;
  generationMs?: number;
}

/** What the server is reading now: as it reports (llama.cpp `prompt_progress`) or as estimated from its speed. */
export interface ReadingProgress {
  /** Tokens read so far of those it must read (the cached prefix is not counted). */
  processed: number;
  /** Tokens it must read: the prompt minus what it reused from its cache. */
  total: number;
  /** Tokens reused from the cache, where the server says. */
  cached?: number;
  /** An estimate from the measured speed (the server says nothing until its first token). */
  estimated?: boolean;
}

export type StreamDelta =
  /** `reading`: the status is the server reading the prompt (the message says so for people). */
  | { type: 'status'; message: string; reading?: ReadingProgress }
  | { type: 'thinking'; text: string }
  | { type: 'text'; text: string }
  /** A complete tool call, after the provider accumulated its pieces. */
  | { type: 'tool_call'; call: ToolCall }
  | ({ type: 'usage'; timings?: ServerTimings } & PromptUsage)
  | { type: 'done'; finishReason: string };

/** The kinds of server the OpenAI-compatible provider tells apart (by the extra endpoints each serves). */
export type ServerKind = 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm' | 'openai-compatible';

/** What a server says about itself and one model right now (asked fresh, never cached). */
export interface ServerStatus {
  kind: ServerKind;
  version?: string;
  /** The model is loaded now, where the server says (Ollama `/api/ps`, LM Studio `state`). */
  loaded?: boolean;
  /** The context the server runs the model with now (Ollama `/api/ps`, LM Studio loaded, llama.cpp `/props`, vLLM). */
  loadedContextLength?: number;
  /** llama.cpp: its parallel slots (`-np`, `/props` total_slots), each with its own cached prompt. */
  slots?: number;
}

export interface ChatProvider {
  readonly id: 'ollama' | 'openai';
  /** Where the server lives, for error messages. */
  readonly baseUrl: string;
  readonly capabilities: ProviderCapabilities;
  /** Streams one model reply. Breaking out of the iteration aborts the HTTP request. Throws ProviderError. */
  chat(request: ChatRequest): AsyncIterable<StreamDelta>;
  listModels(signal: AbortSignal): Promise<ModelInfo[]>;
  /**
   * The context the server runs the loaded model with right now, where it says so after a request
   * (Ollama `/api/ps` `context_length`); undefined when it does not tell.
   */
  runningContextLength?(model: string, signal: AbortSignal): Promise<number | undefined>;
  modelInfo(model: string, signal: AbortSignal): Promise<ModelInfo>;
  /** The server's kind and version and the model's loaded state, asked fresh (the setup check). Throws ProviderError. */
  serverStatus?(model: string, signal: AbortSignal): Promise<ServerStatus>;
  /**
   * The setup check measured how fast the server reads prompts: first-byte deadlines allow for long reads.
   * `ifUnknown`: a stored measurement, kept only where replies have not taught a speed yet.
   */
  notePromptSpeed?(model: string, tokensPerSecond: number, ifUnknown?: boolean): void;
  /**
   * One embedding per input, in order (large inputs are sent in batches). Throws EmbeddingUnavailableError
   * (src/core/embeddings.ts) when the server has no such model or it cannot embed; otherwise ProviderError.
   */
  embed?(model: string, input: readonly string[], signal: AbortSignal): Promise<number[][]>;
}

export type ProviderErrorKind =
  | 'connection_refused'
  | 'http'
  | 'stream_error'
  | 'empty_response'
  | 'incomplete_stream'
  | 'first_byte_timeout'
  | 'aborted'
  | 'invalid_response';

/** A failure talking to the model server, with a message a user can act on. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly options: {
      status?: number;
      retryable?: boolean;
      cause?: unknown;
      /** The server's own message (JSON error, the text of an HTML page), for the user. */
      serverText?: string;
      /** How long the server asked us to wait (Retry-After on 429/503). */
      retryAfterMs?: number;
    } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
  get retryable(): boolean {
    if (this.options.retryable !== undefined) return this.options.retryable;
    // 429 is worth another try only when the server says when (Retry-After); 5xx always.
    if (this.kind === 'http') return (this.options.status ?? 0) >= 500 || (this.options.status === 429 && this.options.retryAfterMs !== undefined);
    return this.kind === 'stream_error' || this.kind === 'incomplete_stream';
  }
}
