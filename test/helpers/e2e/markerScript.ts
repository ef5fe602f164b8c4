// A fake-LLM script that picks replies by a marker in the user's message instead of by request order,
// so the extension may add requests (retries, model checks) without shifting every later reply.
import type { ChatBody, Script, ScriptedReply } from '../fakeLlm';

/**
 * `routes[marker][k]` (a reply, or a function of the request) answers the k-th model call of a turn whose user message contains `marker`
 * (k = how many assistant messages follow that user message in the request). A request no route
 * matches gets the server's loud "script ran out" error.
 */
export type RoundReply = ScriptedReply | ((body: ChatBody) => ScriptedReply);
export type Route = RoundReply[] | ((round: number, body: ChatBody) => ScriptedReply | undefined);

export function markerScript(routes: Record<string, Route>): Script {
  const markers = Object.keys(routes);
  return (body) => {
    const messages = body.messages ?? [];
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]!;
      if (message.role !== 'user') continue;
      const text = contentText(message.content);
      const marker = markers.find((m) => text.includes(m));
      if (marker === undefined) continue;
      const round = messages.slice(i + 1).filter((m) => m.role === 'assistant').length;
      const route = routes[marker]!;
      if (typeof route === 'function') return route(round, body);
      const reply = route[round];
      return typeof reply === 'function' ? reply(body) : reply;
    }
    return undefined;
  };
}

/** Text of a message's content, whether a string (Ollama, most servers) or OpenAI content parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : '')).join('');
  }
  return '';
}

/** Tool results the client sent in one request (role "tool"), as text. */
export function toolResults(body: Record<string, unknown>): string[] {
  const messages = (body.messages as Array<Record<string, unknown>> | undefined) ?? [];
  return messages.filter((m) => m.role === 'tool').map((m) => contentText(m.content));
}
