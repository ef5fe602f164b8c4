// A reasoning model that thinks at length before every reply, like Qwen3 or a DeepSeek-R1 distill on a laptop:
// `thinkingTokens` tokens of deliberation, then what the wrapped model would do. Thinking off (Ollama `think:
// false`, llama.cpp `chat_template_kwargs.enable_thinking: false`, or Qwen3's `/no_think` at the end of the last
// user message) makes it answer at once. It ignores the harness's note about its cut reasoning (the wrapped model
// sees the request without it), so a task only completes when the harness's own retry does its job.
import type { ChatBody, ScriptedReply } from '../fakeLlm';

export const CUT_REASONING_MARK = 'reached the thinking budget';

const TOPICS = ['what the task needs', 'which file comes next', 'what the tool result said', 'whether the new name is right', 'if anything was done twice'];
const ASIDES = ['and what the user asked for', 'before the next call', 'given the listing', 'as the notes are named', 'so nothing is lost', 'in the order of the files', 'with the workspace in mind'];

/**
 * Deliberation that goes on without looping: real overthinking wanders, it does not repeat one sentence verbatim
 * (that would be a repetition loop, which the reply guard stops on its own). Two lists of coprime lengths: the text
 * repeats only after 35 sentences, far longer than any loop the guard looks for.
 */
function deliberation(tokens: number): string {
  let out = '';
  for (let i = 0; out.length < tokens * 4; i++) out += `Let me think about ${TOPICS[i % TOPICS.length]}, ${ASIDES[i % ASIDES.length]}. `;
  return out;
}

export function reasoningModel(inner: (request: ChatBody) => ScriptedReply, thinkingTokens: number): (request: ChatBody) => ScriptedReply {
  const thinking = deliberation(thinkingTokens);
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
