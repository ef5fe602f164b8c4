// A reasoning model that thinks at length before every reply, like Qwen3 or a DeepSeek-R1 distill on a laptop:
// `thinkingTokens` tokens of deliberation, then what the wrapped model would do. Thinking off (Ollama `think:
// false`, llama.cpp `chat_template_kwargs.enable_thinking: false`, or Qwen3's `/no_think` at the end of the last
// user message) makes it answer at once. It ignores the harness's note about its cut reasoning (the wrapped model
// sees the request without it), so a task only completes when the harness's own retry does its job.
import type { ChatBody, ScriptedReply } from '../fakeLlm';

export const CUT_REASONING_MARK = 'reached the thinking budget';

const THOUGHT = 'Let me think about what the task needs, which file comes next and what the tool result said. ';

export function reasoningModel(inner: (request: ChatBody) => ScriptedReply, thinkingTokens: number): (request: ChatBody) => ScriptedReply {
  const thinking = THOUGHT.repeat(Math.ceil((thinkingTokens * 4) / THOUGHT.length));
  return (request) => {
    const messages = request.messages ?? [];
    const last = messages.at(-1);
    const noted = last?.role === 'user' && typeof last.content === 'string' && last.content.includes(CUT_REASONING_MARK);
    const reply = inner(noted ? { ...request, messages: messages.slice(0, -1) } : request);
    if (thinkingOff(request)) return reply;
    return { ...reply, thinking };
  };
}

export function thinkingOff(request: ChatBody): boolean {
  const kwargs = request.chat_template_kwargs as { enable_thinking?: unknown } | undefined;
  const last = (request.messages ?? []).at(-1);
  const noThink = last?.role === 'user' && typeof last.content === 'string' && last.content.trimEnd().endsWith('/no_think');
  return request.think === false || kwargs?.enable_thinking === false || noThink;
}
