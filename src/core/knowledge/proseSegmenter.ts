// Markdown cut at its headings (sections), and any other text cut at its blank lines (paragraphs). Headings
// inside fenced code blocks do not count.
import type { CutCost, Piece } from './chunkSizing';
import { indentWidth } from './codeLexer';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const LIST_OR_QUOTE = /^ {0,3}(?:[-*+>]|\d+[.)])(?:\s|$)/;

export interface ProseSegmentation {
  pieces: Piece[];
  cutCost: CutCost;
}

export function segmentMarkdown(lines: readonly string[], from: number, to: number): ProseSegmentation {
  const inFence = fenceMap(lines, to);
  const starts: Array<{ line: number; name?: string; section: boolean }> = [];
  let i = from;
  // YAML front matter is a block of its own.
  if (from === 0 && /^---\s*$/.test(lines[0] ?? '')) {
    const close = lines.findIndex((l, k) => k > 0 && k <= to && /^(?:---|\.\.\.)\s*$/.test(l));
    if (close > 0) {
      starts.push({ line: 0, section: false });
      i = close + 1;
    }
  }
  for (; i <= to; i++) {
    if (inFence[i]) continue;
    const line = lines[i]!;
    const atx = ATX.exec(line);
    if (atx) {
      starts.push(named(i, atx[2]));
      continue;
    }
    const below = lines[i + 1];
    const previous = i > 0 ? lines[i - 1]! : '';
    if (
      i < to &&
      below !== undefined &&
      !inFence[i + 1] &&
      SETEXT.test(below) &&
      line.trim() !== '' &&
      !LIST_OR_QUOTE.test(line) &&
      (i === from || previous.trim() === '' || ATX.test(previous))
    ) {
      starts.push(named(i, line.trim()));
      i++; // the underline
    }
  }
  if (starts.length === 0 || starts[0]!.line > from) {
    if (lines.slice(from, (starts[0]?.line ?? to + 1)).some((l) => l.trim() !== '')) starts.unshift({ line: from, section: false });
    else if (starts.length > 0) starts[0]!.line = from; // leading blank lines join the first section
  }
  const pieces: Piece[] = [];
  let parent: Piece | undefined;
  starts.forEach((s, k) => {
    const end = (starts[k + 1]?.line ?? to + 1) - 1;
    const piece: Piece = { start: parent?.start ?? s.line, end, kind: s.section ? 'section' : 'block', head: s.line };
    const name = parent?.name && s.name ? `${parent.name} / ${s.name}` : (s.name ?? parent?.name);
    if (name) piece.name = name;
    parent = undefined;
    // A heading with nothing under it but a subheading introduces that subsection: one chunk for both.
    const headingLines = lines[s.line + 1] !== undefined && SETEXT.test(lines[s.line + 1]!) && s.section && !ATX.test(lines[s.line]!) ? 2 : 1;
    const empty = s.section && k + 1 < starts.length && lines.slice(s.line + headingLines, end + 1).every((l) => l.trim() === '');
    if (empty) parent = piece;
    else pieces.push(piece);
  });
  const cutCost: CutCost = (c) => {
    const next = lines[c + 1];
    if (next === undefined) return 0;
    if (inFence[c + 1] && inFence[c]) return 50;
    if (lines[c]!.trim() === '') return 0;
    return LIST_OR_QUOTE.test(next) ? 2 : 5;
  };
  return { pieces, cutCost };
}

function named(line: number, text: string | undefined): { line: number; name?: string; section: boolean } {
  const name = text?.replace(/[*_`]/g, '').trim();
  return name ? { line, name, section: true } : { line, section: true };
}

/** Which lines are inside a fenced code block (the fence lines themselves count as inside). */
function fenceMap(lines: readonly string[], to: number): boolean[] {
  const inside: boolean[] = [];
  let fence: string | undefined;
  for (let i = 0; i <= to; i++) {
    const match = FENCE.exec(lines[i]!);
    if (fence === undefined) {
      if (match) fence = match[1];
      inside.push(fence !== undefined);
    } else {
      inside.push(true);
      if (match && match[1]![0] === fence[0] && match[1]!.length >= fence.length && lines[i]!.trim() === match[1]) fence = undefined;
    }
  }
  return inside;
}

/** Paragraphs: runs of non-blank lines, with the blank lines after them. */
export function segmentText(lines: readonly string[], from: number, to: number): ProseSegmentation {
  const pieces: Piece[] = [];
  for (let i = from; i <= to; i++) {
    const blank = lines[i]!.trim() === '';
    const previousBlank = i === from || lines[i - 1]!.trim() === '';
    if (!blank && previousBlank) pieces.push({ start: i, end: i, kind: 'block' });
  }
  if (pieces.length === 0) return { pieces: [], cutCost: () => 0 };
  pieces[0]!.start = from;
  for (let k = 0; k < pieces.length - 1; k++) pieces[k]!.end = pieces[k + 1]!.start - 1;
  pieces[pieces.length - 1]!.end = to;
  const cutCost: CutCost = (c) => {
    const next = lines[c + 1];
    if (next === undefined || lines[c]!.trim() === '') return 0;
    // Structured text (YAML, JSON, INI) reads best cut before its least indented lines (but after a closing bracket).
    return 1 + Math.min(indentWidth(next), 40) + (/^\s*[\]})]/.test(next) ? 1 : 0);
  };
  return { pieces, cutCost };
}
