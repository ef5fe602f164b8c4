// A provider seen through a wrapper that changes only its chat (a cache slot, a thinking budget). Every other
// method runs on the provider itself, which keeps state: caches, the server it found, the prompt speed it learned.
import type { ChatProvider } from './provider';

export function withChat(inner: ChatProvider, chat: ChatProvider['chat']): ChatProvider {
  const bind = <K extends keyof ChatProvider>(key: K) => {
    const method = inner[key];
    return typeof method === 'function' ? { [key]: (method as (...a: unknown[]) => unknown).bind(inner) } : {};
  };
  return {
    id: inner.id,
    baseUrl: inner.baseUrl,
    capabilities: inner.capabilities,
    chat,
    listModels: (signal) => inner.listModels(signal),
    modelInfo: (model, signal) => inner.modelInfo(model, signal),
    ...bind('runningContextLength'),
    ...bind('serverStatus'),
    ...bind('notePromptSpeed'),
    ...bind('embed'),
  };
}
