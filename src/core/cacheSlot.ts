// Side requests must not cost the chat its cached prompt. llama-server started with `-np 2` keeps one prompt per
// slot, and a request placed in the chat's slot evicts the conversation: its next round is read from the start.
// Left to itself the server places a request by prefix similarity or, failing that, in the least recently used
// slot, which after two different side requests (a plan, then a synthesis; two index summaries) is the chat's. So
// every request says whose it is: the chat's rounds, its thinking-budget retry and the compression pass (which
// shares the chat's prefix and so reads only its instruction there) are the chat's; the planner, the executor,
// index summaries, MCP sampling and the setup check are side work. Providers without slots ignore the mark.
import type { CacheSlot, ChatProvider } from './provider';

/** A provider whose requests are marked `slot` unless the caller marked them already. Everything else passes through. */
export function inCacheSlot(inner: ChatProvider, slot: CacheSlot): ChatProvider {
  // Every other method runs on the provider itself (it keeps state: caches, what server it found).
  const bind = <K extends keyof ChatProvider>(key: K) => {
    const method = inner[key];
    return typeof method === 'function' ? { [key]: (method as (...a: unknown[]) => unknown).bind(inner) } : {};
  };
  return {
    id: inner.id,
    baseUrl: inner.baseUrl,
    capabilities: inner.capabilities,
    chat: (request) => inner.chat(request.cacheSlot ? request : { ...request, cacheSlot: slot }),
    listModels: (signal) => inner.listModels(signal),
    modelInfo: (model, signal) => inner.modelInfo(model, signal),
    ...bind('runningContextLength'),
    ...bind('serverStatus'),
    ...bind('notePromptSpeed'),
    ...bind('embed'),
  };
}
