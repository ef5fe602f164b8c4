// Finding old_text for edit_file: exact occurrences, a CRLF-tolerant retry, and "closest lines" hints on a miss.
import { lineAt, splitLines, toCrlf, usesCrlf } from './common';

export interface Occurrences {
  /** Character offsets of each (non-overlapping) match. */
  offsets: number[];
  /** The old/new text actually used (converted to CRLF when the file uses it and the model sent LF). */
  oldText: string;
  newText: string;
}

export function findOccurrences(text: string, oldText: string, newText: string): Occurrences {
  const direct = offsetsOf(text, oldText);
  if (direct.length || !oldText.includes('\n') || oldText.includes('\r') || !usesCrlf(text)) {
    return { offsets: direct, oldText, newText };
  }
  // Models write "\n"; a Windows file has "\r\n". Match and replace in the file's own line endings.
  const crlfOld = toCrlf(oldText);
  return { offsets: offsetsOf(text, crlfOld), oldText: crlfOld, newText: toCrlf(newText) };
}

function offsetsOf(text: string, needle: string): number[] {
  const out: number[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(needle, from);
    if (at < 0) return out;
    out.push(at);
    from = at + needle.length;
  }
}

export function lineNumbersOf(text: string, offsets: readonly number[]): number[] {
  return offsets.map((o) => lineAt(text, o));
}

const MAX_HINT_SCAN_LINES = 20_000;
const WINDOW = 5;

/**
 * Where the model probably meant: the window of file lines most similar to the first lines of old_text,
 * shown with line numbers. Undefined when nothing is reasonably close (or the file is too big to scan cheaply).
 */
export function closestLines(text: string, oldText: string): string | undefined {
  const fileLines = splitLines(text);
  if (fileLines.length > MAX_HINT_SCAN_LINES) return undefined;
  const wanted = splitLines(oldText).map((l) => l.trim());
  const firstIdx = wanted.findIndex((l) => l !== '');
  if (firstIdx < 0) return undefined;
  const probe = wanted.slice(firstIdx, firstIdx + WINDOW);
  const trimmed = fileLines.map((l) => l.trim());
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < trimmed.length; i++) {
    // Cheap pre-filter on the first line before scoring the whole window.
    const head = similarity(trimmed[i]!, probe[0]!);
    if (head < 0.4) continue;
    let sum = head;
    for (let j = 1; j < probe.length; j++) sum += similarity(trimmed[i + j] ?? '', probe[j]!);
    const score = sum / probe.length;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best < 0 || bestScore < 0.5) return undefined;
  const from = Math.max(0, best - 1);
  const to = Math.min(fileLines.length, best + Math.max(wanted.length - firstIdx, 1) + 1, from + 12);
  const width = String(to).length;
  return fileLines
    .slice(from, to)
    .map((l, k) => `${String(from + k + 1).padStart(width)}| ${l}`)
    .join('\n');
}

/** Dice coefficient over character bigrams: 1 for equal strings, near 0 for unrelated ones. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const g = a.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g);
    if (n) {
      shared++;
      grams.set(g, n - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}
