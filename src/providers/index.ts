// Builds the configured provider. No I/O happens here; the first request talks to the server.
import type { ChatProvider } from '../core/provider';
import type { ProviderClock } from './clock';
import { OllamaProvider } from './ollama';
import { OpenAICompatibleProvider } from './openaiCompatible';

export interface ProviderSettings {
  provider: 'ollama' | 'openai';
  /** Ollama host (default http://127.0.0.1:11434) or OpenAI-compatible base URL (default http://127.0.0.1:1234/v1). */
  baseUrl?: string;
  /** OpenAI-compatible only. */
  apiKey?: string;
  /** Ollama only: `keep_alive`, default '30m'. */
  keepAlive?: string | number;
  firstByteTimeoutMs?: number;
  loadingStatusDelayMs?: number;
  fetch?: typeof fetch;
  clock?: ProviderClock;
  /** Deadline of one model-info request (default 15 s) and of one embedding batch (default 30 s). */
  infoTimeoutMs?: number;
  embedTimeoutMs?: number;
  /** Told what a slow model-info or embedding request is waiting for. */
  onWaiting?: (message: string) => void;
}

export function createProvider(settings: ProviderSettings): ChatProvider {
  const common = {
    ...(settings.firstByteTimeoutMs !== undefined && { firstByteTimeoutMs: settings.firstByteTimeoutMs }),
    ...(settings.loadingStatusDelayMs !== undefined && { loadingStatusDelayMs: settings.loadingStatusDelayMs }),
    ...(settings.fetch && { fetch: settings.fetch }),
    ...(settings.clock && { clock: settings.clock }),
    ...(settings.infoTimeoutMs !== undefined && { infoTimeoutMs: settings.infoTimeoutMs }),
    ...(settings.embedTimeoutMs !== undefined && { embedTimeoutMs: settings.embedTimeoutMs }),
    ...(settings.onWaiting && { onWaiting: settings.onWaiting }),
  };
  const baseUrl = settings.baseUrl?.trim() || undefined;
  switch (settings.provider) {
    case 'ollama':
      return new OllamaProvider({
        ...common,
        ...(baseUrl && { host: baseUrl }),
        ...(settings.keepAlive !== undefined && { keepAlive: settings.keepAlive }),
      });
    case 'openai':
      return new OpenAICompatibleProvider({
        ...common,
        ...(baseUrl && { baseUrl }),
        ...(settings.apiKey && { apiKey: settings.apiKey }),
      });
    default: {
      const unknown: unknown = (settings as { provider: unknown }).provider;
      throw new TypeError(`Unknown provider "${String(unknown)}": use "ollama" or "openai" (LM Studio, llama.cpp server, vLLM).`);
    }
  }
}

export { OllamaProvider } from './ollama';
export { OpenAICompatibleProvider } from './openaiCompatible';
export { ThinkTagSplitter } from './thinkTagSplitter';
export { capabilitiesFor, OLLAMA_CAPABILITIES, OPENAI_COMPATIBLE_CAPABILITIES } from './capabilities';
export type { ProviderClock } from './clock';
