// A reply the server stopped at its output limit (`finish_reason`/`done_reason` "length"): its calls were dropped
// (src/core/toolProtocol/replyStreamer.ts), the model is told and asked to split the work, and the next request
// of the turn asks for a larger limit (Ollama `num_predict`, OpenAI-compatible `max_tokens`) — only that option
// changes, so the prompt's bytes (and the server's prompt cache) stay as they were.
import type { ProtocolReply } from '../toolProtocol/replyStreamer';

/** Cut replies in one turn before it stops: a model that cannot fit its work in any limit is not asked forever. */
export const MAX_CUT_RETRIES = 3;
/** The raised limit never goes beyond this (a local model's memory for the reply). */
export const OUTPUT_LIMIT_CAP = 32768;
/** The least a raised limit asks for when the server did not say how much it generated. */
export const MIN_RAISED_LIMIT = 4096;

export type Cut = NonNullable<ProtocolReply['cut']>;

/**
 * Twice what was generated (or what was asked), at least MIN_RAISED_LIMIT, at most OUTPUT_LIMIT_CAP and half the
 * context window when it is known (some servers refuse a request whose prompt plus output limit exceed the window).
 */
export function raisedOutputLimit(current: number | undefined, generated: number | undefined, contextSize?: number): number {
  const base = Math.max(current ?? 0, generated ?? 0);
  const cap = contextSize ? Math.min(OUTPUT_LIMIT_CAP, Math.floor(contextSize / 2)) : OUTPUT_LIMIT_CAP;
  return Math.max(Math.min(cap, Math.max(MIN_RAISED_LIMIT, base * 2)), current ?? 0);
}

/** What the model is told after a cut reply. */
export function cutNudge(cut: Cut): string {
  if (!cut.partialCall) {
    return 'Your last reply was cut off at the output limit before you finished. Continue from where it stopped; keep each reply short.';
  }
  return (
    'Your last reply was cut off at the output limit while you were writing a tool call, so the call was not run and nothing was changed. ' +
    'Split the work into smaller edits: change a large file with several edit_file calls of a few lines each instead of rewriting it whole, ' +
    'and write a long new file in parts. Then go on with the task.'
  );
}

/** What the user is told. */
export function cutNotice(cut: Cut, generated: number | undefined, raisedTo: number, attempt: number): string {
  const size = generated ? ` (${generated} tokens)` : '';
  const what = cut.partialCall
    ? `in the middle of a tool call${cut.calls.length ? ` (${[...new Set(cut.calls)].join(', ')})` : ''}; the call was not run. Told the model to split the work into smaller edits`
    : 'before it finished; asked the model to continue';
  return `The model's reply hit the output limit${size} ${what}, and raised the output limit to ${raisedTo} tokens (${attempt}/${MAX_CUT_RETRIES}).`;
}

export function cutGiveUp(generated: number | undefined): string {
  const size = generated ? ` of ${generated} tokens` : '';
  return `Stopped: the model's replies kept hitting the output limit${size}, even after it was raised and the model was told to split the work. Ask for a smaller change, or raise the output limit on the server.`;
}
