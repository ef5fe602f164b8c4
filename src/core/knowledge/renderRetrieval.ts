// The "retrieved context" prompt part: what the retriever found, best first, within a token budget. Each item
// is its location line (`path:start-end (name) — summary`), the chunk's text (clipped to a fair share of
// what is left, so the best hit cannot crowd out the rest) and its graph neighbours as pointers. Items that
// do not fit even clipped are dropped. Token counts use estimateTokens, line by line, so the total is an
// upper bound of estimateTokens of the whole text.
import { estimateTokens } from '../tokens';
import type { Retrieval, RetrievedChunk } from './types';

export interface RetrievedContextLayout {
  /** The prompt text ('' when nothing fits or nothing was retrieved). */
  text: string;
  /** The items shown, best first. */
  shown: RetrievedChunk[];
  /** Shown items whose text was cut. */
  clipped: number;
  /** Items left out for lack of room (or past `count`). */
  dropped: number;
  /** Estimated tokens of `text`. */
  tokens: number;
}

const PREAMBLE =
  'Retrieved from the workspace index for this request (best match first; excerpts may be clipped or out of date, read the file before changing it):';
/** A chunk shown with less than this many lines of its text is not worth its location line. */
const MIN_LINES = 2;

/** The prompt text of a retrieval within `budgetTokens`, at most `count` items. */
export function renderRetrievedContext(retrieval: Retrieval, budgetTokens: number, count?: number): string {
  return layoutRetrievedContext(retrieval, budgetTokens, count).text;
}

/** renderRetrievedContext with what was shown, clipped and dropped (for the panel's "What the model knows"). */
export function layoutRetrievedContext(retrieval: Retrieval, budgetTokens: number, count = retrieval.items.length): RetrievedContextLayout {
  const candidates = retrieval.items.slice(0, Math.max(0, Math.floor(count)));
  const empty: RetrievedContextLayout = { text: '', shown: [], clipped: 0, dropped: retrieval.items.length, tokens: 0 };
  const preambleTokens = lineTokens(PREAMBLE);
  if (candidates.length === 0 || !(budgetTokens > preambleTokens)) return empty;

  const blocks: string[][] = [];
  const shown: RetrievedChunk[] = [];
  let clipped = 0;
  let used = preambleTokens;
  candidates.forEach((item, i) => {
    const remaining = budgetTokens - used;
    // A fair share of what is left; what a short item does not use goes to the ones after it.
    const share = Math.floor(remaining / (candidates.length - i));
    const block = renderItem(item, share) ?? renderItem(item, remaining);
    if (!block) return;
    // A blank line before each item.
    const cost = 1 + block.lines.reduce((n, line) => n + lineTokens(line), 0);
    if (cost > remaining) return;
    used += cost;
    blocks.push(block.lines);
    shown.push(item);
    if (block.clipped) clipped++;
  });
  if (shown.length === 0) return empty;
  const text = [PREAMBLE, ...blocks.flatMap((lines) => ['', ...lines])].join('\n');
  return { text, shown, clipped, dropped: retrieval.items.length - shown.length, tokens: estimateTokens(text) };
}

/** One item's lines within `budget` tokens, or undefined when not even its location and two lines fit. */
function renderItem(item: RetrievedChunk, budget: number): { lines: string[]; clipped: boolean } | undefined {
  const head = location(item) + (item.name ? ` (${item.name})` : '') + (item.summary?.trim() ? ` — ${oneLine(item.summary)}` : '');
  const related =
    item.neighbours.length > 0
      ? `related: ${item.neighbours.map((n) => `${n.relation} (${location(n)})`).join('; ')}`
      : undefined;
  const textLines = item.text.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(item.text) + 1));
  const fixed = [head, fence, fence, ...(related ? [related] : [])];
  let room = budget - fixed.reduce((n, line) => n + lineTokens(line), 0) - 1; // 1: the blank line before the item
  const body: string[] = [];
  for (const line of textLines) {
    const cost = lineTokens(line);
    if (cost > room) break;
    body.push(line);
    room -= cost;
  }
  const clipped = body.length < textLines.length;
  if (clipped) {
    const note = () => `… (clipped: lines ${item.startLine + body.length}-${item.endLine} not shown)`;
    // Make room for the note by giving back lines.
    while (body.length > 0 && lineTokens(note()) > room) room += lineTokens(body.pop()!);
    if (body.length < MIN_LINES) return undefined;
    body.push(note());
  }
  if (body.length === 0) return undefined;
  return { lines: [head, fence, ...body, fence, ...(related ? [related] : [])], clipped };
}

function location(span: { file: string; startLine: number; endLine: number }): string {
  return `${span.file}:${span.startLine}-${span.endLine}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** A line's tokens with its newline (estimateTokens is linear in characters, so parts add up to at least the whole). */
function lineTokens(line: string): number {
  return estimateTokens(`${line}\n`);
}
