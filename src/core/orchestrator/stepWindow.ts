// A step that runs for many rounds (a dozen files read and renamed) outgrows a small executor window. Within a
// segment the exchange only grows (the server's prompt cache re-reads nothing it has seen); when the next request
// would not fit, a new segment starts: the same system prompt and tools, the step's prompt with one line per call
// already made, and the newest round kept whole — so the executor neither loses a read it is about to act on nor
// repeats what it did.
import type { ChatMessage, ToolDefinition } from '../messages';
import { argumentsToText } from '../messages';
import type { TokenMeter } from '../window/meter';
import { clip } from './stepShortening';
import type { StepThread } from './stepThread';

/** Share of the window kept free for the reply and for the estimate's error. */
const RESERVE_SHARE = 0.2;
const MIN_RESERVE = 256;
/** Lines kept of earlier segments' calls (the newest): enough to show what was done, bounded for long steps. */
const MAX_DONE_LINES = 60;

/**
 * Whether the request (system prompt, step prompt, exchange) and its tools leave the reserve free. The run's meter
 * remembers each message's and the tool array's count, so a long step re-estimates only its newest messages.
 */
export function fitsWindow(messages: readonly ChatMessage[], tools: readonly ToolDefinition[], window: number, meter: TokenMeter): boolean {
  if (window <= 0) return true;
  const used = meter.messages(messages) + meter.tools(tools);
  return used <= window - Math.max(MIN_RESERVE, Math.floor(window * RESERVE_SHARE));
}

/**
 * Moves everything before the newest round with tool calls into one-line digests. False when there is nothing
 * to move (a single round that is too big on its own is sent as it is; the server says if it does not fit).
 */
export function startNewSegment(thread: StepThread): boolean {
  const lastCalls = findLastIndex(thread.exchange, (m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0);
  if (lastCalls <= 0) return false;
  const dropped = thread.exchange.slice(0, lastCalls);
  thread.done.push(...callLines(dropped));
  if (thread.done.length > MAX_DONE_LINES) thread.done.splice(0, thread.done.length - MAX_DONE_LINES, `- (${thread.done.length - MAX_DONE_LINES + 1} earlier calls not listed)`);
  thread.exchange = thread.exchange.slice(lastCalls);
  return true;
}

/** "- move_file {"source":"a.txt",…} → Moved a.txt to b.txt." per call, from assistant calls and their results. */
function callLines(messages: readonly ChatMessage[]): string[] {
  const results = new Map(messages.filter((m) => m.role === 'tool' && m.toolCallId).map((m) => [m.toolCallId!, m.content]));
  return messages.flatMap((m) =>
    (m.toolCalls ?? []).map((call) => {
      const result = results.get(call.id);
      const outcome = result === undefined ? 'no result' : clip(result.split('\n', 1)[0] ?? '', 160);
      return `- ${call.name} ${clip(argumentsToText(call.arguments), 160)} → ${outcome}`;
    }),
  );
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
