// A thinking budget. Reasoning models (Qwen3, gpt-oss, DeepSeek-R1 distills) can think for thousands of tokens a
// round, at 10–30 tokens/s on a laptop. The request says the budget (providers turn it into the server's own
// control where one exists: gpt-oss effort levels); where the model thinks past it anyway, the stream is stopped
// there, and the round is asked again without thinking, with the partial reasoning in the request so the work done
// is not lost. The retry appends to the end of the request: the cached prefix holds.
import type { ChatMessage } from '../messages';
import type { ChatProvider, ChatRequest, StreamDelta } from '../provider';
import { estimateTokens } from '../tokens';
import { formatCount } from '../../shared/format';
import { followUpRequest } from '../prompt/requestLayout';
import { withChat } from '../chatOverride';

export const DEFAULT_THINKING_BUDGET = 2000;

/** What the model is told when its reasoning was cut (and Qwen3's own switch to answer without thinking). */
export function cutReasoningNote(reasoning: string, budget: number): ChatMessage {
  return {
    role: 'user',
    content:
      `[Your reasoning reached the thinking budget (${formatCount(budget)} tokens) and was stopped. What you had worked out so far:\n` +
      `${reasoning.trim()}\n` +
      'Continue from there: act now (call a tool or answer) without further deliberation.] /no_think',
  };
}

export function budgetNotice(budget: number): string {
  return `Thinking budget reached (${formatCount(budget)} tokens): the model continues without thinking.`;
}

/** A provider whose replies stop thinking at `budget` tokens (0: no budget). Everything else passes through. */
export function withThinkingBudget(inner: ChatProvider, budget: number): ChatProvider {
  if (!(budget > 0)) return inner;
  return withChat(inner, (request) => budgetedChat(inner, request, budget));
}

async function* budgetedChat(inner: ChatProvider, request: ChatRequest, budget: number): AsyncGenerator<StreamDelta> {
  if (request.think === false || request.responseFormat) {
    yield* inner.chat(request);
    return;
  }
  let reasoning = '';
  let tokens = 0;
  let cut = false;
  for await (const delta of inner.chat({ ...request, thinkingBudget: budget })) {
    yield delta;
    if (delta.type !== 'thinking') continue;
    reasoning += delta.text;
    tokens += estimateTokens(delta.text);
    // Pieces estimated one by one overcount (words split across chunks): the whole decides once they pass.
    if (tokens > budget && (tokens = estimateTokens(reasoning)) > budget) {
      cut = true;
      break; // closes the request: the server stops generating
    }
  }
  if (!cut) return;
  yield { type: 'status', message: budgetNotice(budget) };
  // A follow-up of the request just cut (src/core/prompt/requestLayout.ts): its messages and tools, then the note.
  yield* inner.chat({ ...request, think: false, ...followUpRequest(request, [cutReasoningNote(reasoning, budget)]) });
}
