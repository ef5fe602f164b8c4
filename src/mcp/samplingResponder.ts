// Answers an approved sampling request with the chat's own model, through the same provider interface a turn
// uses. The server's model hints are never followed: the user's local model is the one that runs.
import type { ChatMessage } from '../core/messages';
import type { ChatProvider } from '../core/provider';
import type { SamplingPort, SamplingRequest, SamplingResult } from './clientFeatures';

export interface SamplingResponderOptions {
  /** The provider, or a getter for the one the chat uses right now. */
  provider: ChatProvider | (() => ChatProvider);
  /** The model name, or a getter for the chat's current model. */
  model: string | (() => string);
  /** Ends every running answer (e.g. when the host shuts down). */
  signal?: AbortSignal;
}

export function createSamplingResponder(options: SamplingResponderOptions): SamplingPort {
  return async (request, signal) => {
    const provider = typeof options.provider === 'function' ? options.provider() : options.provider;
    const model = typeof options.model === 'function' ? options.model() : options.model;
    // Our own controller: it also stops the stream once a stop sequence shows up.
    const controller = new AbortController();
    const sources = [signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
    const forward = (event: Event) => controller.abort((event.target as AbortSignal).reason);
    for (const s of sources) {
      if (s.aborted) controller.abort(s.reason);
      else s.addEventListener('abort', forward, { once: true });
    }
    try {
      controller.signal.throwIfAborted();
      return await answer(provider, model, request, controller.signal);
    } finally {
      // The host's signal lives long; leave no listener behind per request.
      for (const s of sources) s.removeEventListener('abort', forward);
    }
  };
}

async function answer(provider: ChatProvider, model: string, request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult> {
  const stops = (request.stopSequences ?? []).filter((s) => s !== '');
  let text = '';
  let finish: string | undefined;
  for await (const delta of provider.chat({
    model,
    messages: toChatMessages(request),
    tools: [],
    signal,
    maxTokens: request.maxTokens,
    // A server's request, not the chat's: it must not take the chat's cached prompt (src/core/cacheSlot.ts).
    cacheSlot: 'side',
    ...(request.temperature !== undefined && { temperature: request.temperature }),
  })) {
    if (delta.type === 'text') {
      text += delta.text;
      const cut = firstStop(text, stops);
      // Leaving the loop ends the HTTP request; the model need not run on past the stop.
      if (cut !== undefined) return { model, text: text.slice(0, cut), stopReason: 'stopSequence' };
    } else if (delta.type === 'done') finish = delta.finishReason;
  }
  return { model, text, stopReason: finish === 'length' ? 'maxTokens' : 'endTurn' };
}

export function toChatMessages(request: SamplingRequest): ChatMessage[] {
  return [
    ...(request.systemPrompt ? [{ role: 'system' as const, content: request.systemPrompt }] : []),
    ...request.messages.map((m): ChatMessage => ({ role: m.role, content: m.text })),
  ];
}

/** Where the earliest stop sequence begins, if any has appeared. */
function firstStop(text: string, stops: readonly string[]): number | undefined {
  let best: number | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && (best === undefined || at < best)) best = at;
  }
  return best;
}
