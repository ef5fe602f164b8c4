// A server request is answered once. Over HTTP the SDK resumes a POST stream that ended without a result (it takes an
// error response for "no answer yet", typescript-sdk PR #2638) by a GET with Last-Event-ID, and an event store that
// replays every stream's events after that ID (server-everything's does) sends earlier elicitation and sampling
// requests again: answered again, the user would be asked twice and the sampling limit spent on replays.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

type MessageHandler = NonNullable<Transport['onmessage']>;

/** How many request ids a connection remembers (a replay repeats recent events; ids only grow). */
const REMEMBERED_IDS = 4096;

/**
 * Drops a JSON-RPC request whose id the server already sent on this transport; the log says so. Works through the
 * transport's own `onmessage`, which the SDK's Protocol sets and chains, so transport-specific parts (OAuth's
 * finishAuth, the session id) stay as they are.
 */
export function answerServerRequestsOnce(transport: Transport, log: (line: string) => void): void {
  const seen = new Set<string | number>();
  // One message reaches every chained handler: it is checked once, at the outermost one.
  const admitted = new WeakSet<object>();
  let current: MessageHandler | undefined;
  const guard = (inner: MessageHandler): MessageHandler => (message, extra) => {
    if (!admitted.has(message)) {
      const request = message as { id?: unknown; method?: unknown };
      if (typeof request.method === 'string' && (typeof request.id === 'string' || typeof request.id === 'number')) {
        if (seen.has(request.id)) {
          log(`the server sent request ${JSON.stringify(request.id)} (${request.method}) again, a replayed event: it was answered once and is not answered twice`);
          return;
        }
        seen.add(request.id);
        if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value as string | number);
      }
      admitted.add(message);
    }
    inner(message, extra);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (current ? guard(current) : undefined),
    set: (handler: MessageHandler | undefined) => {
      current = handler;
    },
  });
}
