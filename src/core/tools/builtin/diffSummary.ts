// Summaries of a proposed file change for approval dialogs and tracking: +/- counts, a short unified diff, changed lines.
import { structuredPatch, type StructuredPatch } from 'diff';
import type { LineRange } from '../../workingContext/tracker';
import { countLines } from './common';

export interface ChangeSummary {
  added: number;
  removed: number;
  /** Unified diff hunks (no file headers), cut to a readable length. Empty when the diff was too costly. */
  patch: string;
  /** Lines of the new content that changed (for the context tracker); undefined when nothing changed. */
  range: LineRange | undefined;
}

const MAX_PATCH_LINES = 60;
/** Diffing is quadratic in the worst case; give up on pathological inputs rather than stall the turn. */
const DIFF_TIMEOUT_MS = 1500;

export function summarizeChange(before: string | undefined, after: string): ChangeSummary {
  const old = before ?? '';
  if (old === after) return { added: 0, removed: 0, patch: '', range: undefined };
  const patch: StructuredPatch | undefined = structuredPatch('a', 'b', old, after, undefined, undefined, {
    context: 2,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (!patch) {
    // Too different to diff cheaply: describe it as a full rewrite.
    const n = countLines(after);
    return { added: n, removed: countLines(old), patch: '', range: n ? { start: 1, end: n } : undefined };
  }
  let added = 0;
  let removed = 0;
  let first = Infinity;
  let last = 0;
  const out: string[] = [];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      out.push(line);
      const mark = line[0];
      if (mark === '+') {
        added++;
        first = Math.min(first, newLine);
        last = Math.max(last, newLine);
        newLine++;
      } else if (mark === '-') {
        removed++;
        // A pure deletion still "touches" the line where the text used to be.
        const at = Math.max(1, newLine);
        first = Math.min(first, at);
        last = Math.max(last, at);
      } else if (mark === ' ') {
        newLine++;
      }
    }
  }
  const total = countLines(after);
  const range = first === Infinity ? undefined : { start: Math.min(first, Math.max(total, 1)), end: Math.min(last, Math.max(total, 1)) };
  return { added, removed, patch: cutLines(out, MAX_PATCH_LINES), range };
}

function cutLines(lines: string[], max: number): string {
  if (lines.length <= max) return lines.join('\n');
  return lines.slice(0, max).join('\n') + `\n… (${lines.length - max} more diff lines)`;
}
