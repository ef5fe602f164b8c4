// "Index lines…": the range the user typed, checked against the file. Pure (unit-tested); the InputBox shows the
// error text while they type.
import type { LineSpan } from '../../core/knowledge/types';

export type LineRangeParse = { ok: true; range: LineSpan } | { ok: false; error: string };

/** A dash, en dash, "..", ":" or "to" between two line numbers; one number alone is that line. */
const RANGE = /^(\d+)\s*(?:-|–|—|\.\.|:|to)\s*(\d+)$/i;

/** Parses "start-end" (1-based, inclusive) for a file of `lineCount` lines. */
export function parseLineRange(text: string, lineCount: number): LineRangeParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: `Type a range such as 1-${Math.max(1, Math.min(lineCount, 40))}.` };
  const single = /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
  const match = RANGE.exec(trimmed);
  if (single === undefined && !match) return { ok: false, error: 'Type two line numbers with a dash between them, e.g. 10-42.' };
  const startLine = single ?? Number(match![1]);
  const endLine = single ?? Number(match![2]);
  if (startLine < 1) return { ok: false, error: 'Lines start at 1.' };
  if (startLine > endLine) return { ok: false, error: `The first line (${startLine}) comes after the last (${endLine}).` };
  if (endLine > lineCount) return { ok: false, error: `The file has ${lineCount} line${lineCount === 1 ? '' : 's'}; the range ends at ${endLine}.` };
  return { ok: true, range: { startLine, endLine } };
}

/** How a range is shown back to the user ("lines 10-42", "line 7"). */
export function formatLineSpan(span: LineSpan): string {
  return span.startLine === span.endLine ? `line ${span.startLine}` : `lines ${span.startLine}-${span.endLine}`;
}
