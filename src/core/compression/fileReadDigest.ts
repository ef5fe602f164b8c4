// The digest of a file read: which lines were read, the first meaningful lines, and an outline of the
// declarations (or, for prose and data, its "Label: value" lines), so a compressed read still says what the file is.
import { clip, oneLine } from './marker';
import type { ToolResultMeta } from './metadata';
import type { DigestFacts } from './digestFacts';

const FIRST_LINES = 2;
const FIRST_LINE_CHARS = 100;
const OUTLINE_MAX = 12;
const OUTLINE_CHARS = 160;
/** "Title: Quarterly report", "Document kind: invoice." — unindented, a capitalised label of a few words. */
const LABEL_LINE = /^[A-Z][\w -]{0,30}:\s+\S/;
const LABEL_LINES = 4;
const LABEL_LINE_CHARS = 120;

const READ_RANGE = /^.+ lines (\d+)-\d+ of \d+:$/;
const READ_WHOLE = /^.+ \(\d+ lines\):$/;
const READ_FOOTER = /^\[Showing lines \d+-\d+ of \d+\. /;
const CUT_NOTE = /^\[… \d+ characters \(\d+ lines\) removed from the middle of this result\./;
const NOT_MEANINGFUL = /^\s*(?:#!|import\s|from\s+\S+\s+import\s|#include\s|using\s+[\w.]+;|use\s+[\w:{}, ]+;|package\s+[\w.]+;?$|['"]use strict['"];?$|(?:const|let|var)\s+\w+\s*=\s*require\()/;

/**
 * read_file (its header gives the range) or an MCP file read: the range, the first lines and an outline.
 * Undefined for a built-in read that is no file body ("x is empty (0 lines).", "File x does not exist. …").
 */
export function fileReadDigest(text: string, meta: ToolResultMeta, builtin: boolean): DigestFacts | undefined {
  const lines = text.split('\n');
  let start = 1;
  let body = lines;
  const range = READ_RANGE.exec(lines[0]!);
  if (range) start = Number(range[1]);
  if (range || READ_WHOLE.test(lines[0]!)) body = lines.slice(1);
  else if (builtin) return undefined;
  const cut = body.some((l) => CUT_NOTE.test(l));
  const content = body.filter((l) => !READ_FOOTER.test(l) && !CUT_NOTE.test(l));
  const symbols = outline(content, start);
  // Prose and data have no declarations: their short "Label: value" lines (a title, a status, a kind) are
  // the outline instead.
  const labels = symbols ? [] : labelLines(content, start);
  // With an outline one line is enough to say what the file is, and none when that line opens the outline.
  const wanted = symbols || labels.length ? 1 : FIRST_LINES;
  const first: Array<{ n: number; text: string }> = [];
  let begins = '';
  for (let i = 0; i < content.length && first.length < wanted; i++) {
    const line = content[i]!;
    if (!/[\p{L}\p{N}]/u.test(line) || NOT_MEANINGFUL.test(line)) continue;
    begins ||= line.trim();
    if (symbols && SYMBOL_PATTERNS.some((re) => re.test(line))) break;
    first.push({ n: start + i, text: clip(line.trim(), FIRST_LINE_CHARS) });
  }
  const span = meta.lines ? `lines ${meta.lines}` : `${content.length} lines`;
  const shown = [...first, ...labels.filter((l) => !first.some((f) => f.n === l.n))].sort((a, b) => a.n - b.n);
  const facts = shown.map((l) => `Line ${l.n}: ${l.text}`);
  if (symbols) facts.push(`Outline: ${symbols}`);
  if (cut) facts.push('(The result as first sent was already cut in the middle.)');
  return { facts, brief: `${span}${begins ? `; begins: ${oneLine(begins, 100)}` : ''}`, partial: true };
}

function labelLines(content: readonly string[], start: number): Array<{ n: number; text: string }> {
  const out: Array<{ n: number; text: string }> = [];
  for (let i = 0; i < content.length && out.length < LABEL_LINES; i++) {
    const line = content[i]!;
    if (line.length <= LABEL_LINE_CHARS && LABEL_LINE.test(line)) out.push({ n: start + i, text: line.trim() });
  }
  return out;
}

// Declarations worth naming in an outline: cheap regexes over top-level lines, for the common languages.
// Each gives the kind (group 1) and the name (group 2).
const SYMBOL_PATTERNS: readonly RegExp[] = [
  // TypeScript / JavaScript
  /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function|class|interface|enum|namespace|type)\*?\s+([A-Za-z_$][\w$]*)/,
  /^export\s+(const|let|var)\s+([A-Za-z_$][\w$]*)/,
  // Python
  /^(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/,
  // Go
  /^(func)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
  // Rust
  /^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(fn|struct|enum|trait|mod)\s+([A-Za-z_]\w*)/,
  // Java / C# / Kotlin
  /^(?:(?:public|private|protected|internal|static|final|sealed|abstract|data)\s+)*(class|interface|enum|record|object)\s+([A-Za-z_]\w*)/,
  // Markdown headings
  /^(#{1,3})\s+(\S.{0,39})/,
];

function outline(lines: readonly string[], start: number): string {
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line || /^\s/.test(line)) continue;
    for (const re of SYMBOL_PATTERNS) {
      const m = re.exec(line);
      if (!m) continue;
      const kind = m[1]!.startsWith('#') ? 'heading' : m[1]!;
      found.push(`${kind} ${m[2]!.trim()} (line ${start + i})`);
      break;
    }
  }
  let text = '';
  let shown = 0;
  for (const f of found.slice(0, OUTLINE_MAX)) {
    if (text && text.length + f.length + 2 > OUTLINE_CHARS) break;
    text += (text ? ', ' : '') + f;
    shown++;
  }
  return found.length > shown ? `${text} (+${found.length - shown} more)` : text;
}

/** A built-in read_file result that read the file (its header names the lines, or the file is empty). */
export function isFileBody(firstLine: string): boolean {
  return READ_RANGE.test(firstLine) || READ_WHOLE.test(firstLine) || / is empty \(0 lines\)\.$/.test(firstLine);
}
