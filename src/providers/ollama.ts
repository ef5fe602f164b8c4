// ChatProvider for Ollama's `/api/chat` through the `ollama` package. One client per request, with a
// fetch bound to that request's signal: `client.abort()` would abort every stream of a shared client.
import { PromptCacheEstimate } from './promptCacheEstimate';
import { Ollama, type ChatRequest as OllamaChatRequest, type ShowResponse } from 'ollama';
import {
  ProviderError,
  type ChatProvider,
  type ChatRequest,
  type ModelInfo,
  type ServerStatus,
  type StreamDelta,
} from '../core/provider';
import { EmbeddingUnavailableError } from '../core/embeddings';
import { fetchWithSignal } from './abort';
import { OLLAMA_CAPABILITIES } from './capabilities';
import { embedInBatches, embeddingUnavailable } from './embedBatches';
import {
  DEFAULT_FIRST_BYTE_TIMEOUT_MS,
  DEFAULT_LOADING_STATUS_DELAY_MS,
  systemProviderClock,
  type ProviderClock,
} from './clock';
import { isRecord, positive } from './jsonValues';
import {
  contextHint,
  emptyResponseError,
  incompleteStreamError,
  toProviderError,
  type ErrorContext,
} from './networkErrors';
import { toOllamaMessages, toOllamaTools } from './ollamaMessages';
import { redactUrl, refuseUrlCredentials } from './endpointSecrets';
import { serverWordsFetch } from './serverWords';
import { streamReply } from './replyStream';
import { OllamaChunks } from './ollamaChunks';
import { DEFAULT_EMBED_TIMEOUT_MS, DEFAULT_INFO_TIMEOUT_MS, withDeadline, type DeadlineCall, type DeadlineSettings } from './requestDeadline';
import { needsReasoningBack } from '../core/reasoningModels';
import { keepAliveMs, OVERFLOW_FIELDS, rejectsOverflowFields, thinkField, withoutOverflowFields } from './ollamaRequestFields';
import { learningSpeed, planReading, promptSpeedFor, readingDeadlineMs, type PromptSpeed } from './readingTime';

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
export const DEFAULT_KEEP_ALIVE = '30m';
/** Default `num_ctx` ceiling: bigger windows cost memory most local machines do not have. */
export const NUM_CTX_CAP = 32768;
/** `num_ctx` when `/api/show` does not report the model's context length. */
export const FALLBACK_NUM_CTX = 8192;

export interface OllamaOptions {
  host?: string;
  fetch?: typeof fetch;
  /** How long Ollama keeps the model loaded after a request (`keep_alive`); default '30m'. */
  keepAlive?: string | number;
  /** How long to wait for the first streamed byte (cold model loads); default 5 minutes. */
  firstByteTimeoutMs?: number;
  /** When to report "loading model…" while waiting; default 3 s. */
  loadingStatusDelayMs?: number;
  clock?: ProviderClock;
  /** Deadline of one model-info request (`/api/show`, `/api/ps`, `/api/tags`); default 15 s. */
  infoTimeoutMs?: number;
  /** Deadline of one embedding batch; default 30 s. */
  embedTimeoutMs?: number;
  /** Told what a slow model-info or embedding request is waiting for. */
  onWaiting?: (message: string) => void;
  /** Prompt reading speeds (the first-byte deadline allows for the read); default: shared per server in this process. */
  promptSpeed?: PromptSpeed;
}

const START_HINT = 'Start it with `ollama serve` (or open the Ollama app), then check the Ollama host setting.';
const NO_DONE_MESSAGE = 'Did not receive done or success response in stream.';

export class OllamaProvider implements ChatProvider {
  readonly id = 'ollama' as const;
  readonly baseUrl: string;
  readonly capabilities = OLLAMA_CAPABILITIES;
  private readonly fetchFn: typeof fetch;
  private readonly keepAlive: string | number;
  private readonly firstByteTimeoutMs: number;
  private readonly loadingStatusDelayMs: number;
  private readonly clock: ProviderClock;
  private readonly label: string;
  /** `/api/show` answers per model; only successes are kept. */
  private readonly infoCache = new Map<string, ModelInfo>();
  private readonly cacheEstimate = new PromptCacheEstimate();
  private readonly deadlines: DeadlineSettings;
  private readonly promptSpeed: PromptSpeed;
  /**
   * Ask Ollama to refuse a prompt longer than num_ctx (`truncate: false`, `shift: false`) instead of silently
   * dropping its start: the product then knows and compresses. Off once a server (or a proxy) rejects the fields.
   */
  private refuseOverflow = true;
  /** When each model was last asked (its cached prompt is gone once keep_alive passed). */
  private readonly lastRequestAt = new Map<string, number>();

  constructor(options: OllamaOptions = {}) {
    this.baseUrl = normaliseHost(options.host ?? DEFAULT_OLLAMA_HOST);
    this.label = `Ollama at ${this.baseUrl}`;
    this.fetchFn = serverWordsFetch(options.fetch ?? ((input, init) => fetch(input, init)), {
      label: this.label,
      wire: 'ollama',
      hint: (status, words, model) => (status === 404 && model && /not found/i.test(words) ? ` Pull it with \`ollama pull ${model}\`.` : ''),
    });
    this.keepAlive = options.keepAlive ?? DEFAULT_KEEP_ALIVE;
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
  }

  /** The setup check measured how fast the server reads prompts. */
  notePromptSpeed(model: string, tokensPerSecond: number, ifUnknown = false): void {
    if (ifUnknown && this.promptSpeed.of(model) !== undefined) return;
    this.promptSpeed.set(model, tokensPerSecond);
  }

  /** A request with its own short deadline (model info, embeddings), on a client bound to the deadline's signal. */
  private bounded<T>(what: string, kind: DeadlineCall['kind'], signal: AbortSignal, fn: (client: Ollama) => Promise<T>): Promise<T> {
    return withDeadline(this.deadlines, { label: this.label, what, kind, signal }, (bounded) => fn(this.client(bounded)));
  }

  chat(request: ChatRequest): AsyncGenerator<StreamDelta> {
    const messages = toOllamaMessages(request.messages, needsReasoningBack(request.model));
    let streamOpened = false;
    // Ollama says nothing until its first token: the deadline allows for the read the measured speed predicts.
    const speed = this.promptSpeed.of(request.model);
    // After keep_alive without a request the model was unloaded: its cache went with it, everything is read again.
    const now = this.clock.now();
    const idle = now - (this.lastRequestAt.get(request.model) ?? now);
    this.lastRequestAt.set(request.model, now);
    const unloaded = idle > keepAliveMs(this.keepAlive);
    const reused = unloaded ? 0 : this.cacheEstimate.reusedShare(request.model, request.messages, request.tools);
    const reading = speed === undefined ? undefined : planReading(speed, request.messages, request.tools, reused);
    const stream = streamReply({
      signal: request.signal,
      open: async (signal) => {
        const client = this.client(signal);
        const body = await this.buildBody(request, messages);
        const stream = await client.chat(body).catch((err: unknown) => {
          if (!this.refuseOverflow || !rejectsOverflowFields(err)) throw err;
          // An older server or a strict proxy: today's behaviour (and the usage-based overflow detection) stays.
          this.refuseOverflow = false;
          return client.chat(withoutOverflowFields(body));
        });
        streamOpened = true;
        return stream;
      },
      chunks: new OllamaChunks(this.cacheEstimate.begin(request.model, request.messages, request.tools)),
      label: this.label,
      firstByte: {
        timeoutMs: readingDeadlineMs(this.firstByteTimeoutMs, reading),
        statusDelayMs: this.loadingStatusDelayMs,
        clock: this.clock,
        ...(reading && { reading }),
      },
      errorContext: this.errorContext(request.signal),
      mapError: (e, produced) => this.mapClientError(e, request.model, streamOpened, produced),
    });
    return learningSpeed(stream, this.promptSpeed, request.model);
  }

  async listModels(signal: AbortSignal): Promise<ModelInfo[]> {
    try {
      const list = await this.bounded('/api/tags (the model list)', 'info', signal, (client) => client.list());
      return (list.models ?? []).map((m) => ({ name: m.name }));
    } catch (err) {
      throw toProviderError(err, this.errorContext(signal), (e) => this.mapClientError(e, undefined, false, false));
    }
  }

  async modelInfo(model: string, signal: AbortSignal): Promise<ModelInfo> {
    try {
      return await this.bounded(`/api/show (model info for ${model})`, 'info', signal, (client) => this.fetchModelInfo(model, client));
    } catch (err) {
      throw toProviderError(err, this.errorContext(signal), (e) => this.mapClientError(e, model, false, false));
    }
  }

  /** `/api/embed`, in batches. A missing model, or one that cannot embed, throws EmbeddingUnavailableError. */
  async embed(model: string, input: readonly string[], signal: AbortSignal): Promise<number[][]> {
    try {
      return await embedInBatches(model, input, this.label, async (batch) => {
        const response = await this.bounded(`/api/embed (embeddings with ${model})`, 'embed', signal, (client) =>
          client.embed({ model, input: batch, truncate: true, keep_alive: this.keepAlive }),
        );
        return response?.embeddings;
      });
    } catch (err) {
      if (err instanceof EmbeddingUnavailableError) throw err;
      const status = (err as { status_code?: unknown } | null)?.status_code;
      if (!signal.aborted && err instanceof Error && err.name === 'ResponseError' && typeof status === 'number') {
        const pullHint = `Pull it with \`ollama pull ${model}\`, or set the embedding model setting to a model you have.`;
        const unavailable = embeddingUnavailable(model, status, err.message, this.label, pullHint, err);
        if (unavailable) throw unavailable;
      }
      throw toProviderError(err, this.errorContext(signal), (e) => this.mapClientError(e, model, false, false));
    }
  }

  /** `/api/ps`: Ollama lists loaded models with the `context_length` each runs (newer servers; older ones omit it). */
  async runningContextLength(model: string, signal: AbortSignal): Promise<number | undefined> {
    try {
      return positive((await this.bounded('/api/ps (loaded models)', 'info', signal, (client) => this.psEntry(model, client)))?.context_length);
    } catch (err) {
      if (signal.aborted) throw toProviderError(err, this.errorContext(signal));
      if (err instanceof ProviderError && err.kind === 'first_byte_timeout') throw err; // hung, not old
      return undefined; // an old server without /api/ps is no error: the counts still tell
    }
  }

  /** `/api/version` and `/api/ps`, asked fresh. */
  async serverStatus(model: string, signal: AbortSignal): Promise<ServerStatus> {
    return this.bounded('/api/version and /api/ps (server status)', 'info', signal, (client) => this.askServerStatus(model, client, signal));
  }

  private async askServerStatus(model: string, client: Ollama, signal: AbortSignal): Promise<ServerStatus> {
    try {
      const { version } = await client.version();
      const status: ServerStatus = { kind: 'ollama', ...(typeof version === 'string' && version && { version }) };
      const entry = await this.psEntry(model, client).catch((err: unknown) => {
        if (signal.aborted) throw err;
        return null; // no /api/ps: loaded state unknown
      });
      if (entry === null) return status;
      const running = positive(entry?.context_length);
      return { ...status, loaded: entry !== undefined, ...(running !== undefined && { loadedContextLength: running }) };
    } catch (err) {
      throw toProviderError(err, this.errorContext(signal), (e) => this.mapClientError(e, undefined, false, false));
    }
  }

  private async psEntry(model: string, client: Ollama): Promise<Record<string, unknown> | undefined> {
    const ps = (await client.ps()) as unknown as { models?: Array<Record<string, unknown>> };
    const wanted = new Set([model, model.includes(':') ? model : `${model}:latest`]);
    return (ps.models ?? []).find((m) => wanted.has(String(m.name)) || wanted.has(String(m.model)));
  }

  private async buildBody(
    request: ChatRequest,
    messages: OllamaChatRequest['messages'],
  ): Promise<OllamaChatRequest & { stream: true }> {
    const needsInfo = request.contextSize === undefined || request.think !== undefined || request.thinkingBudget !== undefined;
    const info = !needsInfo
      ? undefined
      : (this.infoCache.get(request.model) ??
        (await this.bounded(`/api/show (model info for ${request.model})`, 'info', request.signal, (bounded) => this.cachedModelInfo(request.model, bounded))));
    // Always send num_ctx: Ollama's own default is small and silently truncates long prompts.
    const numCtx = request.contextSize ?? info?.defaultContextSize ?? defaultNumCtx(info?.contextLength);
    const canThink = info?.capabilities?.includes('thinking') ?? false;
    const think = thinkField(request);
    return {
      model: request.model,
      messages,
      stream: true,
      keep_alive: this.keepAlive,
      options: {
        num_ctx: numCtx,
        ...(request.maxTokens !== undefined && { num_predict: request.maxTokens }),
        ...(request.temperature !== undefined && { temperature: request.temperature }),
      },
      ...(request.tools.length > 0 && { tools: toOllamaTools(request.tools) }),
      // Ollama rejects `think` for models without the capability, so only send it where it is understood.
      ...(think !== undefined && canThink && { think }),
      // Structured output: Ollama takes the JSON Schema itself as `format`.
      ...(request.responseFormat !== undefined && { format: request.responseFormat.schema }),
      // Newer Ollama (api.ChatRequest Truncate/Shift): an overflow is an HTTP 400, not a silently cut prompt.
      ...(this.refuseOverflow && OVERFLOW_FIELDS),
    };
  }

  private async cachedModelInfo(model: string, client: Ollama): Promise<ModelInfo> {
    const cached = this.infoCache.get(model);
    if (cached) return cached;
    const info = await this.fetchModelInfo(model, client);
    this.infoCache.set(model, info);
    return info;
  }

  private async fetchModelInfo(model: string, client: Ollama): Promise<ModelInfo> {
    const show = await client.show({ model });
    const info: ModelInfo = { name: model };
    const contextLength = contextLengthOf(show);
    if (contextLength) info.contextLength = contextLength;
    info.defaultContextSize = defaultNumCtx(contextLength);
    if (Array.isArray(show.capabilities)) info.capabilities = show.capabilities.filter((c) => typeof c === 'string');
    return info;
  }

  private client(signal: AbortSignal): Ollama {
    return new Ollama({ host: this.baseUrl, fetch: fetchWithSignal(this.fetchFn, signal) });
  }

  private errorContext(signal: AbortSignal): ErrorContext {
    return { serverLabel: this.label, startHint: START_HINT, signal };
  }

  private mapClientError(err: unknown, model: string | undefined, streamOpened: boolean, produced: boolean): ProviderError | undefined {
    if (!(err instanceof Error)) return undefined;
    const status = (err as { status_code?: unknown }).status_code;
    if (err.name === 'ResponseError' && typeof status === 'number') {
      const hint =
        status === 404 && model && /not found/i.test(err.message) ? ` Pull it with \`ollama pull ${model}\`.` : contextHint(err.message);
      return new ProviderError('http', `${this.label} answered HTTP ${status}: ${err.message}.${hint}`, { status, cause: err });
    }
    if (err.message === NO_DONE_MESSAGE) return produced ? incompleteStreamError(this.label, err) : emptyResponseError(this.label);
    // ollama-js rethrows an in-stream `{"error": "…"}` line as a plain Error.
    if (streamOpened && err.constructor === Error) {
      return new ProviderError('stream_error', `${this.label} reported an error in the middle of the reply: ${err.message}.`, { cause: err });
    }
    return undefined;
  }
}

/** The num_ctx sent when none is configured: the model's maximum, capped at what most machines can hold. */
export function defaultNumCtx(contextLength: number | undefined): number {
  return Math.min(contextLength ?? FALLBACK_NUM_CTX, NUM_CTX_CAP);
}

/** `model_info["<arch>.context_length"]`, e.g. `qwen3.context_length`. */
function contextLengthOf(show: ShowResponse): number | undefined {
  const raw: unknown = show.model_info;
  const modelInfo: Record<string, unknown> | undefined =
    raw instanceof Map ? Object.fromEntries(raw) : isRecord(raw) ? raw : undefined;
  if (!modelInfo) return undefined;
  const arch = modelInfo['general.architecture'];
  const exact = typeof arch === 'string' ? modelInfo[`${arch}.context_length`] : undefined;
  if (typeof exact === 'number' && exact > 0) return exact;
  for (const [key, value] of Object.entries(modelInfo)) {
    if (key.endsWith('.context_length') && typeof value === 'number' && value > 0) return value;
  }
  return undefined;
}

function normaliseHost(raw: string): string {
  const withScheme = raw.includes('://') ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new TypeError(`Invalid Ollama host "${redactUrl(raw)}": expected something like ${DEFAULT_OLLAMA_HOST}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Invalid Ollama host "${redactUrl(raw)}": only http:// and https:// are supported`);
  }
  refuseUrlCredentials(url, raw, 'The Ollama host');
  return url.toString().replace(/\/+$/, '');
}
