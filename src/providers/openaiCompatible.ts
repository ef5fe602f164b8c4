// ChatProvider for servers speaking OpenAI's `/v1/chat/completions` (LM Studio, llama.cpp server, vLLM),
// through the `openai` package. Streams SSE deltas, rebuilds tool calls by index, splits reasoning out.
import { PromptCacheEstimate } from './promptCacheEstimate';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import {
  ProviderError,
  type ChatProvider,
  type ChatRequest,
  type ModelInfo,
  type ServerStatus,
  type StreamDelta,
} from '../core/provider';
import { EmbeddingUnavailableError } from '../core/embeddings';
import { OPENAI_COMPATIBLE_CAPABILITIES } from './capabilities';
import { embedInBatches, embeddingUnavailable } from './embedBatches';
import {
  DEFAULT_FIRST_BYTE_TIMEOUT_MS,
  DEFAULT_LOADING_STATUS_DELAY_MS,
  systemProviderClock,
  type ProviderClock,
} from './clock';
import { isRecord } from './jsonValues';
import {
  abortedError,
  contextHint,
  toProviderError,
  type ErrorContext,
} from './networkErrors';
import { toOpenAIMessages, toOpenAIResponseFormat, toOpenAITools } from './openaiMessages';
import { infoFromModelEntry, llamaCppProps, lmStudioModelInfo, serverRoot, type LlamaCppProps } from './openaiModelInfo';
import { LlamaCppSlots } from './llamaCppSlots';
import { openaiServerStatus } from './openaiServerStatus';
import { DEFAULT_EMBED_TIMEOUT_MS, DEFAULT_INFO_TIMEOUT_MS, withDeadline, type DeadlineCall, type DeadlineSettings } from './requestDeadline';
import { serverWordsFetch } from './serverWords';
import { streamReply } from './replyStream';
import { OpenAIChunks } from './openaiChunks';
import { effortForBudget, needsReasoningBack, thinksInLevels } from '../core/reasoningModels';
import { learningSpeed, planReading, promptSpeedFor, readingDeadlineMs, type PromptSpeed } from './readingTime';
import { capitalise } from '../shared/format';
import { checkApiKey, redactUrl, refuseUrlCredentials } from './endpointSecrets';

export const DEFAULT_OPENAI_BASE_URL = 'http://127.0.0.1:1234/v1';

export interface OpenAICompatibleOptions {
  /** e.g. `http://127.0.0.1:1234/v1` (LM Studio) or `http://127.0.0.1:8080/v1` (llama-server); `/v1` is added when the path is empty. */
  baseUrl?: string;
  /** Only needed when the server was started with an API key. */
  apiKey?: string;
  fetch?: typeof fetch;
  /** How long to wait for the first streamed byte (cold model loads); default 5 minutes. */
  firstByteTimeoutMs?: number;
  /** When to report "loading model…" while waiting; default 3 s. */
  loadingStatusDelayMs?: number;
  clock?: ProviderClock;
  /** Deadline of one model-info request (`/v1/models`, `/props`, LM Studio's `/api/v0/models`); default 15 s. */
  infoTimeoutMs?: number;
  /** Deadline of one embedding batch; default 30 s. */
  embedTimeoutMs?: number;
  /** Told what a slow model-info or embedding request is waiting for. */
  onWaiting?: (message: string) => void;
  /** Prompt reading speeds (the first-byte deadline allows for the read); default: shared per server in this process. */
  promptSpeed?: PromptSpeed;
}

const START_HINT =
  'Start the server: in LM Studio open the Developer tab and switch the server on (or run `lms server start`); ' +
  'for llama.cpp run `llama-server -m <model.gguf> --port 8080`; for vLLM run `vllm serve <model>`. ' +
  'Then check the base URL setting.';

/**
 * The server's own thinking controls, sent only where understood: gpt-oss's effort level (llama.cpp takes it as a
 * template argument, LM Studio and vLLM as `reasoning_effort`), and llama.cpp's `enable_thinking: false` for
 * templates with a thinking switch (Qwen3 and the like).
 */
function reasoningControls(request: ChatRequest, llamaCpp: boolean): object {
  if (thinksInLevels(request.model)) {
    if (request.think === undefined && request.thinkingBudget === undefined) return {};
    const effort = request.think === false ? 'low' : effortForBudget(request.thinkingBudget);
    return llamaCpp ? { chat_template_kwargs: { reasoning_effort: effort } } : { reasoning_effort: effort };
  }
  return llamaCpp && request.think === false ? { chat_template_kwargs: { enable_thinking: false } } : {};
}


/** Short, so a model reloaded with another context length is noticed on the next turn. */
const MODEL_INFO_TTL_MS = 5_000;

export class OpenAICompatibleProvider implements ChatProvider {
  readonly id = 'openai' as const;
  readonly baseUrl: string;
  readonly capabilities = OPENAI_COMPATIBLE_CAPABILITIES;
  private readonly client: OpenAI;
  private readonly cacheEstimate = new PromptCacheEstimate();
  private readonly fetchFn: typeof fetch;
  private readonly firstByteTimeoutMs: number;
  private readonly loadingStatusDelayMs: number;
  private readonly clock: ProviderClock;
  private readonly label: string;
  private readonly deadlines: DeadlineSettings;
  private readonly promptSpeed: PromptSpeed;
  /** Seen to be llama.cpp (`/props` answered): only it is sent llama.cpp's own request fields. */
  private llamaCpp = false;
  /** Its slots, when llama.cpp: the chat and side work each keep one (`id_slot`). */
  private readonly slots = new LlamaCppSlots();

  constructor(options: OpenAICompatibleOptions = {}) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl ?? DEFAULT_OPENAI_BASE_URL);
    if (options.apiKey) checkApiKey(options.apiKey);
    this.label = `the OpenAI-compatible server at ${this.baseUrl}`;
    this.fetchFn = serverWordsFetch(options.fetch ?? ((input, init) => fetch(input, init)), { label: this.label, wire: 'openai' });
    this.firstByteTimeoutMs = options.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
    this.loadingStatusDelayMs = options.loadingStatusDelayMs ?? DEFAULT_LOADING_STATUS_DELAY_MS;
    this.clock = options.clock ?? systemProviderClock;
    this.deadlines = {
      infoTimeoutMs: options.infoTimeoutMs ?? DEFAULT_INFO_TIMEOUT_MS,
      embedTimeoutMs: options.embedTimeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS,
      clock: this.clock,
      ...(options.onWaiting && { onWaiting: options.onWaiting }),
    };
    this.promptSpeed = options.promptSpeed ?? promptSpeedFor(this.baseUrl);
    this.client = new OpenAI({
      baseURL: this.baseUrl,
      // Local servers ignore the key unless started with one; the client insists on a value.
      apiKey: options.apiKey || 'not-needed',
      fetch: this.fetchFn,
      // Retrying is the caller's decision (it knows whether the turn can be repeated).
      maxRetries: 0,
      // Our own first-byte guard decides when to give up; keep the library's limit out of its way.
      timeout: this.firstByteTimeoutMs + 60_000,
      logLevel: 'off',
    });
  }

  async *chat(request: ChatRequest): AsyncGenerator<StreamDelta> {
    if (request.cacheSlot) await this.slots.known(() => this.askProps(request.signal));
    const idSlot = this.slots.idFor(request.cacheSlot);
    const body: ChatCompletionCreateParamsStreaming = {
      model: request.model,
      messages: toOpenAIMessages(request.messages, this.llamaCpp && needsReasoningBack(request.model)),
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools.length > 0 && { tools: toOpenAITools(request.tools) }),
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
      ...(request.responseFormat !== undefined && { response_format: toOpenAIResponseFormat(request.responseFormat) }),
      // llama.cpp streams its reading progress; other servers may reject fields they do not know.
      ...(this.llamaCpp && ({ return_progress: true } as object)),
      ...(idSlot !== undefined && ({ id_slot: idSlot } as object)),
      ...reasoningControls(request, this.llamaCpp),
    };
    const speed = this.promptSpeed.of(request.model);
    const reading = speed === undefined ? undefined : planReading(speed, request.messages, request.tools, this.cacheEstimate.reusedShare(request.model, request.messages, request.tools));
    let firstByteMs: number | undefined;
    const stream = streamReply({
      signal: request.signal,
      open: (signal) => this.client.chat.completions.create(body, { signal }),
      chunks: new OpenAIChunks(this.cacheEstimate.begin(request.model, request.messages, request.tools)),
      label: this.label,
      firstByte: {
        timeoutMs: readingDeadlineMs(this.firstByteTimeoutMs, reading),
        statusDelayMs: this.loadingStatusDelayMs,
        clock: this.clock,
        ...(reading && { reading }),
        onFirstItem: (waited) => (firstByteMs = waited),
      },
      errorContext: this.errorContext(request.signal),
      mapError: (e) => this.mapClientError(e),
    });
    yield* learningSpeed(stream, this.promptSpeed, request.model, () => firstByteMs);
  }

  /** The setup check measured how fast the server reads prompts. */
  notePromptSpeed(model: string, tokensPerSecond: number, ifUnknown = false): void {
    if (ifUnknown && this.promptSpeed.of(model) !== undefined) return;
    this.promptSpeed.set(model, tokensPerSecond);
  }

  async listModels(signal: AbortSignal): Promise<ModelInfo[]> {
    try {
      const page = await this.bounded('/v1/models (the model list)', 'info', signal, (bounded) => this.client.models.list({ signal: bounded }));
      return page.data.map((m) => infoFromModelEntry({ ...m }));
    } catch (err) {
      throw toProviderError(err, this.errorContext(signal), (e) => this.mapClientError(e));
    }
  }

  /**
   * `/v1/embeddings`, in batches. Floats are asked for explicitly: the `openai` package otherwise asks for base64,
   * which not every local server speaks. A missing model or a server that cannot embed throws EmbeddingUnavailableError.
   */
  async embed(model: string, input: readonly string[], signal: AbortSignal): Promise<number[][]> {
    try {
      return await embedInBatches(model, input, this.label, async (batch) => {
        const response = await this.bounded(`/v1/embeddings (embeddings with ${model})`, 'embed', signal, (bounded) =>
          this.client.embeddings.create({ model, input: batch, encoding_format: 'float' }, { signal: bounded }),
        );
        if (!Array.isArray(response?.data)) return undefined;
        // The order of `data` is the server's; `index` says which input each vector belongs to.
        return [...response.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding as unknown);
      });
    } catch (err) {
      if (err instanceof EmbeddingUnavailableError) throw err;
      if (!signal.aborted && err instanceof APIError && typeof err.status === 'number') {
        const pullHint = 'Load or download it on the server, or set the embedding model setting to a model the server lists.';
        const unavailable = embeddingUnavailable(model, err.status, serverErrorText(err), this.label, pullHint, err);
        if (unavailable) throw unavailable;
      }
      throw toProviderError(err, this.errorContext(signal), (e) => this.mapClientError(e));
    }
  }

  /** Which server this is (LM Studio, llama.cpp, vLLM, or another) and the model's loaded context, asked fresh. */
  async serverStatus(model: string, signal: AbortSignal): Promise<ServerStatus> {
    try {
      const status = await this.bounded('its status (/props, /v1/models)', 'info', signal, (bounded) =>
        openaiServerStatus(this.fetchFn, serverRoot(this.baseUrl), model, () => this.listModels(bounded), bounded),
      );
      if (status.kind === 'llamacpp') this.llamaCpp = true;
      this.slots.note(status.kind === 'llamacpp' ? { ...(status.slots !== undefined && { slots: status.slots }) } : undefined);
      return status;
    } catch (err) {
      throw toProviderError(err, this.errorContext(signal), (e) => this.mapClientError(e));
    }
  }

  /** LM Studio's own API first (it knows the loaded context), then vLLM / llama.cpp hints, then just the name. */
  /** The window lookup and the tool-protocol check both ask at the start of a turn: answer both with one lookup. */
  private readonly infoCache = new Map<string, { at: number; info: Promise<ModelInfo> }>();

  modelInfo(model: string, signal: AbortSignal): Promise<ModelInfo> {
    const now = this.clock.now();
    const cached = this.infoCache.get(model);
    if (cached && now - cached.at < MODEL_INFO_TTL_MS) return cached.info;
    const info = this.bounded(`model info for ${model} (/v1/models, /props)`, 'info', signal, (bounded) => this.lookUpModelInfo(model, bounded));
    this.infoCache.set(model, { at: now, info });
    // A failed or cancelled lookup must not be reused.
    info.catch(() => this.infoCache.delete(model));
    return info;
  }

  private async lookUpModelInfo(model: string, signal: AbortSignal): Promise<ModelInfo> {
    const context = this.errorContext(signal);
    const root = serverRoot(this.baseUrl);
    try {
      const fromLmStudio = await lmStudioModelInfo(this.fetchFn, root, model, signal);
      if (fromLmStudio) {
        this.slots.note(undefined);
        return fromLmStudio;
      }
      let info: ModelInfo = { name: model };
      try {
        const listed = await this.listModels(signal);
        info = listed.find((m) => m.name === model) ?? (listed.length > 0 ? { ...info, listed: false } : info);
      } catch (err) {
        // A server without /v1/models still serves chat; only "not reachable" and cancellation matter here.
        if (err instanceof ProviderError && (err.kind === 'connection_refused' || err.kind === 'aborted')) throw err;
      }
      if (info.loadedContextLength === undefined) {
        const props = await this.readProps(root, signal);
        if (props?.nCtx) info = { ...info, loadedContextLength: props.nCtx };
      } else this.slots.note(undefined);
      return info;
    } catch (err) {
      throw toProviderError(err, context);
    }
  }

  /** llama.cpp's `/props` (undefined elsewhere): what it says makes this provider send llama.cpp's own fields. */
  private async readProps(root: string, signal: AbortSignal): Promise<LlamaCppProps | undefined> {
    const props = await llamaCppProps(this.fetchFn, root, signal);
    if (props) this.llamaCpp = true;
    this.slots.note(props);
    return props;
  }

  /** `/props` before a marked request when no model lookup said yet whether this is llama.cpp. */
  private askProps(signal: AbortSignal): Promise<LlamaCppProps | undefined> {
    return this.bounded('/props (its slots)', 'info', signal, (bounded) => this.readProps(serverRoot(this.baseUrl), bounded));
  }

  /** A request with its own short deadline (model info, embeddings). */
  private bounded<T>(what: string, kind: DeadlineCall['kind'], signal: AbortSignal, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return withDeadline(this.deadlines, { label: this.label, what, kind, signal }, fn);
  }

  private errorContext(signal: AbortSignal): ErrorContext {
    return { serverLabel: this.label, startHint: START_HINT, signal };
  }

  private mapClientError(err: unknown): ProviderError | undefined {
    if (err instanceof APIUserAbortError) return abortedError(err);
    if (err instanceof APIConnectionTimeoutError) {
      return new ProviderError('first_byte_timeout', `${capitalise(this.label)} did not answer in time.`, { cause: err, retryable: true });
    }
    // Network failures: the generic rules read the socket error from the cause chain.
    if (err instanceof APIConnectionError) return undefined;
    if (!(err instanceof APIError)) return undefined;
    const serverText = serverErrorText(err);
    if (err.status !== undefined) {
      return new ProviderError(
        'http',
        `${capitalise(this.label)} answered HTTP ${err.status}: ${serverText}.${contextHint(serverText)}`,
        { status: err.status, cause: err },
      );
    }
    // `data: {"error": {...}}` inside a 200 stream (llama.cpp does this when generation fails).
    const code = err.code ?? (isRecord(err.error) ? err.error.code : undefined);
    return new ProviderError(
      'stream_error',
      `${capitalise(this.label)} reported an error in the middle of the reply: ${serverText}${code !== undefined && code !== null ? ` (code ${String(code)})` : ''}.`,
      { cause: err },
    );
  }
}


/** The server's own words: `{"error":{"message"}}` (OpenAI, llama.cpp), `{"error":"…"}` (LM Studio) or plain text. */
function serverErrorText(err: APIError): string {
  const detail: unknown = err.error;
  if (typeof detail === 'string' && detail) return detail;
  if (isRecord(detail) && typeof detail.message === 'string' && detail.message) return detail.message;
  const text = err.message.replace(/^\d{3}\s+/, '').trim();
  return text && !/status code \(no body\)/.test(text) ? text : 'no error text';
}

function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`Invalid base URL "${redactUrl(raw)}": expected something like ${DEFAULT_OPENAI_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Invalid base URL "${redactUrl(raw)}": only http:// and https:// are supported`);
  }
  refuseUrlCredentials(url, raw, 'The base URL');
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1';
  return url.toString().replace(/\/+$/, '');
}
