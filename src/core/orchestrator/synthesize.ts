// The planner's second request: the final answer, streamed as ordinary text events, from the user's request,
// the plan and the step results, digested to fit the planner's window.
import type { ChatMessage } from '../messages';
import type { ChatProvider } from '../provider';
import type { EventBus } from '../agent/events';
import { streamRound, type RoundReply } from '../agent/round';
import { estimateTokens } from '../tokens';
import { digestSteps } from './digest';
import type { Plan, StepRecord } from './plan';

/** Window assumed when the planner's is not known: the smallest a local server commonly runs. */
const DEFAULT_WINDOW = 4096;
/** Share of the window the step results may take; the rest is the prompt, the answer and slack. */
const RESULTS_SHARE = 0.5;
const CHARS_PER_TOKEN = 4;

export interface SynthesisInput {
  provider: ChatProvider;
  model: string;
  request: string;
  plan: Plan;
  records: readonly StepRecord[];
  signal: AbortSignal;
  contextSize?: number;
  think?: boolean;
}

export function synthesisMessages(input: Pick<SynthesisInput, 'request' | 'plan' | 'records' | 'contextSize'>): ChatMessage[] {
  const window = input.contextSize ?? DEFAULT_WINDOW;
  const system =
    'You are the agent answering the user. The work below was already done by tools, step by step. Answer the request ' +
    'from these results: say plainly what was done and what failed or was skipped. Be brief. Do not call tools.';
  const head = `Request: ${input.request}\n\nDone when: ${input.plan.doneWhen || '(not stated)'}\n\nSteps and results:\n`;
  const budgetChars = Math.max(800, Math.floor(window * RESULTS_SHARE * CHARS_PER_TOKEN) - (estimateTokens(system + head) * CHARS_PER_TOKEN));
  return [
    { role: 'system', content: system },
    { role: 'user', content: head + digestSteps(input.records, budgetChars) },
  ];
}

export async function synthesize(input: SynthesisInput, bus: EventBus): Promise<RoundReply> {
  return streamRound(
    {
      provider: input.provider,
      model: input.model,
      messages: synthesisMessages(input),
      tools: [],
      signal: input.signal,
      ...(input.contextSize !== undefined && { contextSize: input.contextSize }),
      ...(input.think !== undefined && { think: input.think }),
    },
    bus,
  );
}
