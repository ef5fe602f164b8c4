// Is a step done? Read from evidence, never from a round count: the executor's closing words must not say that
// work remains ("I've renamed 3 files. There are 2 remaining…", "Still to rename: a.txt"), and a step whose goal
// names several files must have used each of them in a call. What a step hands on is digested from its results.
import { isIncompleteResponse } from '../analysis/incomplete';
import type { PlanStep } from './planRequest';
import type { StepThread } from './stepThread';
import { clip } from './stepShortening';

/** Phrases weak executors close a step with while work is left, beyond the loop's own incompleteness check. */
const WORK_LEFT: readonly RegExp[] = [
  /\b(?:still|yet) to (?:be )?[a-z]+/i,
  /\b(?:not|never) (?:yet |been |all )*(?:renamed|done|finished|edited|updated|changed|moved|processed|created|fixed|written|added|converted|deleted|removed)\b/i,
  /\b(?:remaining|left|missing|pending|outstanding)\s*:(?!\s*(?:none|nothing|no\b|0\b|n\/a))/i,
  /\bcould(?:n't| not) (?:finish|complete|do)\b/i,
];

/** The closing words say that work is left. */
export function saysWorkLeft(text: string): boolean {
  // "Step 2 of 3 is done" echoes the step's own heading: it says nothing about what is left of this step.
  const prose = text.replace(/\bstep \d+\s*(?:\/|of)\s*\d+\b/gi, 'this step').trim();
  if (!prose) return false;
  return isIncompleteResponse(prose) || WORK_LEFT.some((p) => p.test(prose));
}

/** File paths a goal names (`src/a.ts`, `doc-01.txt`), lower-cased; globs (`shot-*.txt`) are not names. */
export function namedFiles(goal: string): string[] {
  const found = goal.match(/(?<![\w*?/.-])(?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w*?/-])/g) ?? [];
  return [...new Set(found.map((f) => f.replace(/\\/g, '/').toLowerCase()))].filter((f) => !/^(?:e\.g|i\.e|etc)\b/.test(f));
}

/**
 * What is left of the step by the evidence, or undefined when it reads as done. `text`: the executor's closing
 * words. Only a goal naming two or more files is checked file by file (one file in a goal is often context).
 */
export function workLeft(step: PlanStep, text: string, thread: StepThread): string | undefined {
  if (saysWorkLeft(text)) return `the executor says: "${clip(text.replace(/\s+/g, ' '), 200)}"`;
  const named = namedFiles(step.goal);
  if (named.length < 2) return undefined;
  const untouched = named.filter((f) => !thread.touched.has(f) && !thread.touched.has(f.split('/').pop()!));
  return untouched.length ? `no call used ${untouched.join(', ')} yet` : undefined;
}

/** The user message that sends the executor back to work (appended to the step's exchange only). */
export function continueNudge(left: string): string {
  return `The step is not done yet: ${left}. Continue with the tools until every part of the step is done; do not repeat calls that already succeeded. Then reply with one short sentence.`;
}

export const EMPTY_NUDGE = 'Your reply was empty. If the step is done, say what you did in one short sentence; otherwise continue with the tools.';

/**
 * The step's results for later steps and the answer: all of them when they fit, else the first line of each
 * (what each call did) with the newest kept whole as far as room allows; cut in the middle, never at the end.
 */
export function digestResults(results: readonly string[], text: string, maxChars: number): string {
  const whole = [...results, ...(text ? [text] : [])].join('\n');
  if (whole.length <= maxChars) return whole;
  const lines = results.map((r) => clip(r.split('\n', 1)[0] ?? '', 160));
  const last = results.at(-1) ?? '';
  const tail = [...(last.includes('\n') ? [`Last result in full:\n${last}`] : []), ...(text ? [text] : [])].join('\n');
  const head = lines.join('\n');
  if (head.length + tail.length + 1 <= maxChars) return tail ? `${head}\n${tail}` : head;
  return clipMiddle(tail ? `${head}\n${tail}` : head, maxChars);
}

/** Keeps the start and the end (the newest state) and says how much of the middle was cut. */
export function clipMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars - 30);
  const headChars = Math.floor(keep / 3);
  return `${text.slice(0, headChars)}\n[…${text.length - keep} chars cut]\n${text.slice(text.length - (keep - headChars))}`;
}
