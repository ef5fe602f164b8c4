// What each kind of server can do, so the core can decide what to ask for.
import type { ProviderCapabilities } from '../core/provider';

export const OLLAMA_CAPABILITIES: Readonly<ProviderCapabilities> = Object.freeze({
  thinking: true,
  keepAlive: true,
  tools: true,
  jsonMode: true,
  streaming: true,
  embeddings: true,
  contextSizeApi: true,
});

/** LM Studio, llama.cpp server, vLLM: thinking arrives as `reasoning_content` / `reasoning` / `<think>`;
 * the context size is fixed when the model is loaded and models stay loaded as the server decides. */
export const OPENAI_COMPATIBLE_CAPABILITIES: Readonly<ProviderCapabilities> = Object.freeze({
  thinking: true,
  keepAlive: false,
  tools: true,
  jsonMode: true,
  streaming: true,
  embeddings: true,
  contextSizeApi: false,
});

export function capabilitiesFor(provider: 'ollama' | 'openai'): Readonly<ProviderCapabilities> {
  return provider === 'ollama' ? OLLAMA_CAPABILITIES : OPENAI_COMPATIBLE_CAPABILITIES;
}
