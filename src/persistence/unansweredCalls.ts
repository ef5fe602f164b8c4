// Every stored tool call must have a result, or every later request is malformed (`assistant(tool_calls) →
// user`) and validating servers (vLLM, OpenAI) refuse the session forever. A call can lose its result when the
// process stops in the middle of it: Ctrl-C while a command ignores signals, a crash, kill -9, a full disk.
// Loading a session gives each such call an "interrupted" result, in place, so the model sees what happened.
import type { ChatMessage } from '../core/messages';

export const INTERRUPTED_RESULT =
  'Not finished: the session was interrupted (stopped, crashed or out of disk space) before this call returned a result. Check its effect before calling it again.';

export interface AnsweredHistory {
  /** The history with a result after every call. */
  history: ChatMessage[];
  /** The results added, in order. */
  added: ChatMessage[];
  /** How many of `added` sit at the very end of the history (these can simply be appended to the store). */
  atTail: number;
}

export function answerUnansweredCalls(history: readonly ChatMessage[]): AnsweredHistory {
  const out: ChatMessage[] = [];
  const added: ChatMessage[] = [];
  let atTail = 0;
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    out.push(message);
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    // The results that follow this reply (tool messages right after it).
    const answered = new Set<string>();
    let j = i + 1;
    let count = 0;
    for (; j < history.length && history[j]!.role === 'tool'; j++) {
      const id = history[j]!.toolCallId;
      if (id) answered.add(id);
      count++;
      out.push(history[j]!);
    }
    // Results without ids (Ollama stores none) answer the calls in order.
    const missing = message.toolCalls.filter((call, k) => !answered.has(call.id) && !(answered.size === 0 && k < count));
    for (const call of missing) {
      const result: ChatMessage = { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: call.id, toolName: call.name };
      out.push(result);
      added.push(result);
      if (j >= history.length) atTail++;
    }
    i = j - 1;
  }
  return { history: out, added, atTail };
}
