// The planned run's traces in the session history: where its request is, the messages a step already wrote (a
// resumed step continues from them), calls a reload cut off before their result, and what the single-model loop
// is told when it takes over.
import type { ChatMessage } from '../messages';
import { digestSteps } from './stepShortening';
import type { StepRecord } from './planRequest';

const CONTINUATION_RESULTS_CHARS = 3000;

/** What the single-model loop is told when it takes over a planned run. */
export function continuationText(request: string, reason: string, records: readonly StepRecord[]): string {
  return [
    `The planned run of this request stopped (${reason}). Continue it yourself with the tools.`,
    'The tool calls above already ran: do not repeat them. Check their results and do only what is left.',
    '',
    `Request: ${request}`,
    '',
    'Steps so far:',
    digestSteps(records, CONTINUATION_RESULTS_CHARS),
  ].join('\n');
}

/** Where the request sits in history (the last user message with exactly its text), or -1. */
export function requestIndex(history: readonly ChatMessage[], request: string): number {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === 'user' && history[i]!.content === request) return i;
  return -1;
}

/** A reload can cut a step between a tool call and its result: every call gets an answer before anything else is sent. */
export async function closeUnansweredCalls(history: readonly ChatMessage[], append: (m: ChatMessage) => Promise<void>): Promise<void> {
  const answered = new Set(history.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
  const last = [...history].reverse().find((m) => m.role === 'assistant');
  for (const call of last?.toolCalls ?? []) {
    if (!answered.has(call.id)) {
      await append({ role: 'tool', content: 'Not run: the session was interrupted before this call finished. Check its effect before calling it again.', toolCallId: call.id, toolName: call.name });
    }
  }
}

/** The messages a step already wrote to history (from its "Step i/n:" heading on). */
export function stepExchange(history: readonly ChatMessage[], request: string, index: number, total: number): ChatMessage[] | undefined {
  const from = requestIndex(history, request);
  const heading = `Step ${index + 1}/${total}:`;
  for (let i = history.length - 1; i > from; i--) {
    const m = history[i]!;
    if (m.role === 'assistant' && m.content.startsWith(heading)) return history.slice(i).filter((x) => x.role === 'assistant' || x.role === 'tool');
  }
  return undefined;
}
