// Cuts a file into chunks along its structure: declarations in code, sections in Markdown, paragraphs elsewhere.
// Every line of the file (or of the requested range) lands in exactly one chunk, in order, so a chunk's line
// numbers always point at the text it holds. No real parser (none is cheap to bundle for all these languages):
// a lexer that knows strings and comments, then per-language heuristics; when they guess wrong the chunks get
// coarser, never lost.
import { mergeTiny, splitLong, type CutCost, type Piece } from './chunkSizing';
import { C_LIKE_RULES, CSHARP_RULES, GO_RULES, lexLines, PHP_RULES, PYTHON_RULES, RUST_RULES, SCRIPT_RULES, type LexerRules } from './codeLexer';
import { segmentCode } from './codeSegmenter';
import { chunkStrategyFor, detectLanguage, type ChunkStrategy } from './language';
import { segmentMarkdown, segmentText } from './proseSegmenter';
import type { ChunkDraft, ChunkKind, Chunker, LineSpan } from './types';

export const DEFAULT_MAX_LINES = 80;

export interface ChunkOptions {
  range?: LineSpan;
  maxLines?: number;
}

/** One declaration or heading of a file, for an outline (also those merged into a bigger chunk). */
export interface OutlineEntry {
  name: string;
  kind: ChunkKind;
  /** The declaration's own line (below its doc comment), 1-based. */
  line: number;
  endLine: number;
}

/**
 * The file's lines as the chunks see them: split at \n, \r\n or \r (as editors do); a final line break ends the
 * last line rather than starting an empty one.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export const chunkText: Chunker = (text, path, options = {}) => {
  const maxLines = checkMaxLines(options.maxLines);
  const lines = splitLines(text);
  const span = lineSpan(lines, options.range);
  if (!span) return [];
  const { from, to } = span;
  const { pieces, cutCost } = segment(lines, from, to, path, text, maxLines, false);
  const minLines = Math.min(5, Math.max(1, Math.floor(maxLines / 8)));
  const maxMerged = Math.max(minLines, Math.floor(maxLines / 2));
  const sized = mergeTiny(splitLong(pieces, maxLines, cutCost), lines, minLines, maxMerged);
  return sized.map((piece): ChunkDraft => {
    const draft: ChunkDraft = { startLine: piece.start + 1, endLine: piece.end + 1, kind: piece.kind, text: lines.slice(piece.start, piece.end + 1).join('\n') };
    if (piece.name !== undefined) draft.name = piece.name;
    return draft;
  });
};

/** The named declarations (functions, classes and their methods, types, headings), in file order. */
export function outlineText(text: string, path: string, options: { range?: LineSpan } = {}): OutlineEntry[] {
  const lines = splitLines(text);
  const span = lineSpan(lines, options.range);
  if (!span) return [];
  const { pieces } = segment(lines, span.from, span.to, path, text, DEFAULT_MAX_LINES, true);
  return pieces
    .filter((p) => p.name !== undefined && !p.imports)
    .map((p) => ({ name: p.name!, kind: p.kind, line: (p.head ?? p.start) + 1, endLine: lastContentLine(lines, p) + 1 }));
}

function segment(
  lines: readonly string[],
  from: number,
  to: number,
  path: string,
  text: string,
  maxLines: number,
  splitAllContainers: boolean,
): { pieces: Piece[]; cutCost: CutCost } {
  const language = detectLanguage(path, text);
  const strategy = chunkStrategyFor(language);
  // A byte order mark is not part of the first line's code (the chunk text keeps it: it is in the file).
  if (lines[0]?.startsWith('\uFEFF')) lines = [lines[0].slice(1), ...lines.slice(1)];
  if (strategy === 'markdown') {
    const markdown = segmentMarkdown(lines, from, to);
    if (markdown.pieces.some((p) => p.kind === 'section')) return markdown;
    return segmentText(lines, from, to);
  }
  if (strategy === 'text') return segmentText(lines, from, to);
  // The lexer reads from the top even for a range: whether line 40 sits inside a string depends on lines 1–39.
  const info = lexLines(lines.slice(0, to + 1), lexerRules(strategy, language));
  return segmentCode(info, from, to, { strategy, language, maxLines, splitAllContainers });
}

function lexerRules(strategy: ChunkStrategy, language: string): LexerRules {
  if (strategy === 'script') return SCRIPT_RULES;
  if (strategy === 'python') return PYTHON_RULES;
  if (strategy === 'go') return GO_RULES;
  if (strategy === 'rust') return RUST_RULES;
  if (language === 'csharp') return CSHARP_RULES;
  if (language === 'php') return PHP_RULES;
  return C_LIKE_RULES;
}

function checkMaxLines(maxLines: number | undefined): number {
  if (maxLines === undefined) return DEFAULT_MAX_LINES;
  if (!Number.isSafeInteger(maxLines) || maxLines < 1) throw new RangeError(`maxLines must be a whole number ≥ 1 (got ${String(maxLines)}).`);
  return maxLines;
}

/**
 * The 0-based lines to chunk, or undefined when there is nothing to chunk (an empty or all-blank file or range).
 * A range reaching past the end of the file is cut at the end (the file may have shrunk since it was chosen).
 */
function lineSpan(lines: readonly string[], range: LineSpan | undefined): { from: number; to: number } | undefined {
  let from = 0;
  let to = lines.length - 1;
  if (range !== undefined) {
    const { startLine, endLine } = range;
    if (!Number.isSafeInteger(startLine) || !Number.isSafeInteger(endLine) || startLine < 1 || endLine < startLine) {
      throw new RangeError(`A line range needs whole numbers with 1 ≤ startLine ≤ endLine (got ${String(startLine)}–${String(endLine)}).`);
    }
    from = startLine - 1;
    to = Math.min(endLine - 1, lines.length - 1);
  }
  for (let i = from; i <= to; i++) if (lines[i]!.trim() !== '') return { from, to };
  return undefined;
}

function lastContentLine(lines: readonly string[], piece: Piece): number {
  let end = piece.ownEnd ?? piece.end;
  while (end > piece.start && lines[end]!.trim() === '') end--;
  return end;
}
