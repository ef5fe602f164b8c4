// What broken or strict servers send instead of a stream, for both fake servers: a proxy's HTML error page, a
// 200 carrying a JSON error body (llama.cpp and vLLM behind some gateways), a reply with the wrong content type,
// a whole non-streamed completion to a streamed request, and 429/503 with Retry-After. Plus a strict validator
// of the conversation as vLLM and OpenAI's own API check it, answering 400 with the reason.
import type { ReplyWriter } from './httpHarness';
import type { ChatBody, ScriptedReply } from './script';

export type Wire = 'ollama' | 'openai';

/** Answers the reply when its fault is one of the bad replies; false when the caller should go on. */
export function answerBadReply(reply: ReplyWriter, script: ScriptedReply, wire: Wire): boolean {
  const message = script.errorMessage ?? 'scripted server error';
  switch (script.fault) {
    case 'html_error': {
      const status = script.status ?? 502;
      const page = `<html>\r\n<head><title>${status} Bad Gateway</title></head>\r\n<body>\r\n<center><h1>${status} Bad Gateway</h1></center>\r\n<hr><center>${message}</center>\r\n</body>\r\n</html>\r\n`;
      reply.res.writeHead(status, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(page)), server: 'nginx/1.24.0' });
      reply.res.end(page);
      return true;
    }
    case 'json_error_200':
      reply.json(200, wire === 'openai' ? { error: { message, type: 'server_error', code: 500 } } : { error: message });
      return true;
    case 'wrong_content_type':
      reply.res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      reply.res.end(message);
      return true;
  }
  return false;
}

/** Headers for an http500-fault reply: Retry-After when scripted. */
export function errorHeaders(script: ScriptedReply): Record<string, string> {
  return script.retryAfter !== undefined ? { 'retry-after': script.retryAfter } : {};
}

/**
 * The checks a validating server makes on a chat request (vLLM, OpenAI): every assistant message with tool calls is
 * followed by one tool result per call id (OpenAI; by count on Ollama, which has no ids), no tool result answers a
 * call that was not made, and no user or assistant message comes while results are still missing. Returns the
 * reason a 400 would give, or undefined when the conversation is well-formed.
 */
export function conversationProblem(body: ChatBody, wire: Wire): string | undefined {
  const messages = body.messages ?? [];
  let pending: string[] = [];
  let pendingAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const role = String(m.role);
    if (role === 'tool') {
      const id = wire === 'openai' ? m.tool_call_id : pending[0];
      if (wire === 'openai' && typeof id !== 'string') return `messages[${i}]: a tool message needs tool_call_id`;
      const at = pending.indexOf(String(id));
      if (at < 0) return `messages[${i}]: tool result for "${String(id)}" answers no tool call of the assistant message before it`;
      pending.splice(at, 1);
      continue;
    }
    if (pending.length > 0) {
      return `messages[${pendingAt}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'; missing: ${pending.join(', ')} (found a ${role} message at messages[${i}])`;
    }
    if (role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      pending = (m.tool_calls as Array<Record<string, unknown>>).map((c, k) => (wire === 'openai' ? String(c.id) : `call ${k + 1}`));
      pendingAt = i;
    }
  }
  // A request may end with the results still to come only when it ends on the assistant's calls (never sent so).
  if (pending.length > 0) return `messages[${pendingAt}]: the conversation ends with tool calls that have no results (${pending.join(', ')})`;
  return undefined;
}

/** The 400 a strict server answers, in each wire format's error shape. */
export function refuseConversation(reply: ReplyWriter, reason: string, wire: Wire): void {
  if (wire === 'openai') reply.json(400, { object: 'error', message: reason, type: 'BadRequestError', param: null, code: 400 });
  else reply.json(400, { error: reason });
}
