// Talking to the model server outside a turn: building the provider from settings, listing models with a short
// probe timeout (which also decides whether the server is "unreachable"), and the context window per model.
import { ProviderError, type ChatProvider, type ModelInfo } from '../../core/provider';
import { errorMessage, type Logger } from '../log/logger';
import { serverUrl, type HarnessSettings } from '../settings/harnessSettings';
import { originOf } from '../settings/serverSettings';
import type { TurnEngine } from '../engine/engineLoader';
import { isUnauthorized, missingKeyNotice, noModelMessage, serverName, unreachableMessage } from './modelText';
import { firstChatModel } from '../../core/modelNames';


export interface ModelServiceDeps {
  log: Logger;
  /** The key stored for a server origin (a key is only ever sent to the origin it was entered for). */
  apiKeys: { get(origin: string): Promise<string | undefined> };
  loadEngine: () => Promise<TurnEngine>;
  probeTimeoutMs?: number;
  modelInfoTimeoutMs?: number;
}

const PROBE_TIMEOUT_MS = 4000;
const MODEL_INFO_TIMEOUT_MS = 5000;

export class ModelService {
  private readonly contextCache = new Map<string, number | null>();
  private readonly reachabilityListeners = new Set<(unreachable: string | undefined) => void>();

  constructor(private readonly deps: ModelServiceDeps) {}

  /** Told after every probe: a message when the server did not answer, undefined when it did. */
  onDidProbe(listener: (unreachable: string | undefined) => void): () => void {
    this.reachabilityListeners.add(listener);
    return () => this.reachabilityListeners.delete(listener);
  }

  private reached(unreachable: string | undefined): void {
    for (const listener of this.reachabilityListeners) listener(unreachable);
  }

  private readonly waitListeners = new Set<(message: string) => void>();

  /** Told when a model-info or embedding request is slow: "waiting for … to answer /api/show …". */
  onDidWait(listener: (message: string) => void): () => void {
    this.waitListeners.add(listener);
    return () => this.waitListeners.delete(listener);
  }

  async provider(settings: HarnessSettings): Promise<ChatProvider> {
    const engine = await this.deps.loadEngine();
    return engine.createChatProvider(settings, await this.keyFor(settings), this.deps.log, (message) => {
      for (const listener of this.waitListeners) listener(message);
    });
  }

  /** The API key requests to this server carry: the one stored for its origin, if any (OpenAI-compatible only). */
  async keyFor(settings: HarnessSettings): Promise<{ origin: string; value: string } | undefined> {
    if (settings.provider !== 'openai') return undefined;
    const origin = originOf(serverUrl(settings));
    if (!origin) return undefined;
    const value = await this.deps.apiKeys.get(origin);
    return value ? { origin, value } : undefined;
  }

  /** For an HTTP 401 from a server we sent no key to: the notice that says why. */
  async missingKeyNotice(settings: HarnessSettings, message: string): Promise<string | undefined> {
    if (settings.provider !== 'openai' || !isUnauthorized(message)) return undefined;
    const origin = originOf(serverUrl(settings));
    if (!origin || (await this.keyFor(settings))) return undefined;
    return missingKeyNotice(origin);
  }

  /** The server's models. Throws an Error whose message says what is wrong and what to do. */
  async list(settings: HarnessSettings, signal: AbortSignal): Promise<ModelInfo[]> {
    const provider = await this.provider(settings);
    const timeoutMs = this.deps.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
    const probe = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
    try {
      const infos = await provider.listModels(probe);
      this.reached(undefined);
      return infos;
    } catch (err) {
      if (signal.aborted) throw err;
      const timedOut = probe.aborted;
      // Only an HTTP answer proves someone is there; anything else (refused, DNS, reset, timeout) is unreachable.
      const answered = !timedOut && err instanceof ProviderError && (err.kind === 'http' || err.kind === 'invalid_response');
      if (answered) {
        this.reached(undefined);
        const why = errorMessage(err);
        const hint = await this.missingKeyNotice(settings, why);
        throw new Error(`The ${serverName(settings)} at ${serverUrl(settings)} answered with an error: ${why}${hint ? ` ${hint}` : ''}`);
      }
      // The provider's "connection refused" text already names the address and how to start the server.
      const text =
        err instanceof ProviderError && err.kind === 'connection_refused'
          ? err.message
          : unreachableMessage(settings, timedOut ? `no answer within ${timeoutMs / 1000} s` : errorMessage(err));
      this.reached(text);
      throw new Error(text);
    }
  }

  /** The first model that can chat (not an embedding-only model). */
  async firstChatModel(settings: HarnessSettings, signal: AbortSignal): Promise<string> {
    const infos = await this.list(settings, signal);
    const chat = firstChatModel(infos);
    if (!chat) throw new Error(noModelMessage(settings));
    return chat.name;
  }

  /** The context window the model runs with; null when unknown. Failures fall back to the provider's default. */
  async contextWindow(settings: HarnessSettings, model: string, signal: AbortSignal): Promise<number | null> {
    if (settings.contextSize > 0) return settings.contextSize;
    const engine = await this.deps.loadEngine();
    const key = `${settings.provider}|${serverUrl(settings)}|${model}`;
    if (this.contextCache.has(key)) return this.contextCache.get(key)!;
    try {
      const provider = await this.provider(settings);
      const timeout = AbortSignal.timeout(this.deps.modelInfoTimeoutMs ?? MODEL_INFO_TIMEOUT_MS);
      const info = await provider.modelInfo(model, AbortSignal.any([signal, timeout]));
      const size = engine.contextWindowOf(settings, info);
      this.contextCache.set(key, size);
      return size;
    } catch (err) {
      if (signal.aborted) throw err;
      this.deps.log.warn(`could not read the context size of ${model}: ${errorMessage(err)}`);
      return engine.contextWindowOf(settings, undefined);
    }
  }

  clearCache(): void {
    this.contextCache.clear();
  }
}
