// Side requests must not cost the chat its cached prompt. llama-server started with `-np 2` keeps one prompt per
// slot, and a request placed in the chat's slot evicts the conversation: its next round is read from the start.
// Left to itself the server places a request by prefix similarity or, failing that, in the least recently used
// slot, which after two different side requests (a plan, then a synthesis; two index summaries) is the chat's. So
// every request says whose it is: the chat's rounds, its thinking-budget retry and the compression pass (which
// shares the chat's prefix and so reads only its instruction there) are the chat's; the planner, the executor,
// index summaries, MCP sampling and the setup check are side work. Providers without slots ignore the mark.
import type { CacheSlot, ChatProvider } from './provider';
import { withChat } from './chatOverride';

/** A provider whose requests are marked `slot` unless the caller marked them already. Everything else passes through. */
export function inCacheSlot(inner: ChatProvider, slot: CacheSlot): ChatProvider {
  return withChat(inner, (request) => inner.chat(request.cacheSlot ? request : { ...request, cacheSlot: slot }));
}
