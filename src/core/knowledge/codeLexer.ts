// A line-by-line reading of source code that is just good enough to find structure: which brackets are open at
// the start and end of each line, which lines sit inside a multi-line string or comment, and each line's code with
// comments removed and string contents blanked (so a brace in a string or comment never counts). Not a parser:
// when the heuristics are wrong, the chunker still covers every line, only with coarser chunks.

export interface LineInfo {
  /** Nothing but whitespace. */
  blank: boolean;
  /** Brackets open at the start / end of the line, outermost first: '{', '(', '[' ('$' = a template's `${`). */
  openAtStart: string;
  openAtEnd: string;
  /** The line begins / ends inside a multi-line string or block comment. */
  startsInside: boolean;
  endsInside: boolean;
  /** The code of the line, comments removed, string contents blanked (quotes kept), trimmed. */
  code: string;
  /** Not blank, yet no code: a comment, or the inside of a block comment. */
  commentOnly: boolean;
  /** Leading whitespace width (a tab counts 4). */
  indent: number;
}

interface QuoteRule {
  open: string;
  close: string;
  /** Whether the string may run past the end of its line (single-line strings are closed at the line's end). */
  multiline: boolean;
  escapes: boolean;
  /** JavaScript template literals: `${` opens code again. */
  interpolation?: boolean;
}

export interface LexerRules {
  lineComments: readonly string[];
  blockComment?: readonly [string, string];
  /** Rust block comments nest. */
  nestedComments?: boolean;
  /** Longest first: '"""' must be tried before '"'. */
  quotes: readonly QuoteRule[];
  /** JavaScript: `/…/` after an operator is a regular expression, not a division. */
  regexLiterals?: boolean;
  /** Rust: `'` starts a character literal only when one closes right after (else it is a lifetime). */
  rustQuotes?: boolean;
  /** PHP: `#[` is an attribute, not a comment. */
  hashAttribute?: boolean;
}

const SINGLE = (q: string): QuoteRule => ({ open: q, close: q, multiline: false, escapes: true });
const MULTI = (q: string, escapes = true): QuoteRule => ({ open: q, close: q, multiline: true, escapes });

const C_COMMENTS = { lineComments: ['//'], blockComment: ['/*', '*/'] as const };

export const SCRIPT_RULES: LexerRules = {
  ...C_COMMENTS,
  quotes: [SINGLE('"'), SINGLE("'"), { open: '`', close: '`', multiline: true, escapes: true, interpolation: true }],
  regexLiterals: true,
};
export const GO_RULES: LexerRules = { ...C_COMMENTS, quotes: [SINGLE('"'), SINGLE("'"), MULTI('`', false)] };
export const RUST_RULES: LexerRules = { ...C_COMMENTS, nestedComments: true, quotes: [MULTI('"')], rustQuotes: true };
export const C_LIKE_RULES: LexerRules = { ...C_COMMENTS, quotes: [MULTI('"""'), MULTI("'''"), SINGLE('"'), SINGLE("'")] };
export const CSHARP_RULES: LexerRules = {
  ...C_COMMENTS,
  quotes: [MULTI('"""'), { open: '@"', close: '"', multiline: true, escapes: false }, SINGLE('"'), SINGLE("'")],
};
export const PHP_RULES: LexerRules = { lineComments: ['//', '#'], blockComment: ['/*', '*/'], quotes: [MULTI('"'), MULTI("'")], hashAttribute: true };
export const PYTHON_RULES: LexerRules = { lineComments: ['#'], quotes: [MULTI('"""'), MULTI("'''"), SINGLE('"'), SINGLE("'")] };

const CLOSERS: Record<string, string> = { '}': '{', ')': '(', ']': '[' };
/** After these words a `/` starts a regular expression. */
const REGEX_AFTER_WORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const RUST_CHAR = /^'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/;
const RUST_RAW = /^b?r(#*)"/;

type Frame = { kind: 'string'; rule: QuoteRule; close: string } | { kind: 'comment'; depth: number };

export function indentWidth(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') width++;
    else if (ch === '\t') width += 4;
    else break;
  }
  return width;
}

export function lexLines(lines: readonly string[], rules: LexerRules): LineInfo[] {
  const out: LineInfo[] = [];
  /** Open brackets, outermost first. */
  let open = '';
  /** The string or comment the scanner is inside (strings inside `${…}` of a template sit below code frames). */
  const frames: Frame[] = [];
  /** The last code character before this line, and the word it ended (for telling regexes from divisions). */
  let carriedChar = '';
  let carriedWord = '';
  const blockOpen = rules.blockComment?.[0];
  const blockClose = rules.blockComment?.[1];
  // Characters that may start a comment, string or regex, and brackets: only these need a closer look.
  const special = new Uint8Array(128);
  const mark = (ch: string) => {
    if (ch.charCodeAt(0) < 128) special[ch.charCodeAt(0)] = 1;
  };
  for (const token of [...rules.lineComments, ...rules.quotes.map((q) => q.open), ...'{}()[]']) mark(token[0]!);
  if (blockOpen) mark(blockOpen);
  if (rules.regexLiterals) mark('/');
  if (rules.rustQuotes) for (const ch of ["'", 'r', 'b']) mark(ch);

  let line = '';
  let code = '';
  /** Start of the run of plain code being read (copied into `code` in one slice), or -1. */
  let run = -1;
  const endRun = (at: number) => {
    if (run >= 0) code += line.slice(run, at);
    run = -1;
  };
  for (line of lines) {
    const openAtStart = open;
    const startFrame = top(frames);
    const startsInside = startFrame !== undefined;
    code = '';
    run = -1;
    /** Index of the last non-space code character on this line, or -1. */
    let lastCode = -1;
    let i = 0;
    let escapedNewline = false;
    while (i < line.length) {
      const frame = top(frames);
      if (frame?.kind === 'comment') {
        const close = line.indexOf(blockClose!, i);
        const nested = rules.nestedComments ? line.indexOf(blockOpen!, i) : -1;
        if (nested >= 0 && (close < 0 || nested < close)) {
          frame.depth++;
          i = nested + blockOpen!.length;
        } else if (close >= 0) {
          i = close + blockClose!.length;
          if (--frame.depth === 0) frames.pop();
        } else i = line.length;
        continue;
      }
      if (frame?.kind === 'string') {
        i = scanString(line, i, frame);
        if (i >= line.length) break;
        if (frame.rule.escapes && line[i] === '\\') {
          if (i === line.length - 1) escapedNewline = true;
          i += 2;
        } else if (line.startsWith(frame.close, i)) {
          frames.pop();
          code += frame.close;
          i += frame.close.length;
          carriedChar = '"';
          lastCode = -1;
        } else if (frame.rule.interpolation && line.startsWith('${', i)) {
          // Code again until the matching `}`; '$' on the bracket stack marks where the template resumes.
          frames.push(INTERPOLATION);
          open += '$';
          i += 2;
        } else i++;
        continue;
      }
      // Code: skip plain characters quickly.
      if (run < 0) run = i;
      let c = line.charCodeAt(i);
      while (c >= 128 || special[c] === 0) {
        if (c !== 32 && c !== 9) lastCode = i;
        if (++i >= line.length) break;
        c = line.charCodeAt(i);
      }
      if (i >= line.length) break;
      const ch = line[i]!;
      if (ch !== '{' && ch !== '}' && ch !== '(' && ch !== ')' && ch !== '[' && ch !== ']') {
        const lineComment = rules.lineComments.find((c) => line.startsWith(c, i));
        if (lineComment && !(rules.hashAttribute && lineComment === '#' && line[i + 1] === '[')) {
          endRun(i);
          break;
        }
        if (blockOpen && line.startsWith(blockOpen, i)) {
          endRun(i);
          frames.push({ kind: 'comment', depth: 1 });
          i += blockOpen.length;
          code += ' ';
          continue;
        }
        if (rules.rustQuotes && ch === "'") {
          endRun(i);
          const literal = RUST_CHAR.exec(line.slice(i, i + 16));
          code += literal ? "''" : "'"; // else a lifetime: just the quote
          i += literal ? literal[0].length : 1;
          carriedChar = "'";
          lastCode = -1;
          continue;
        }
        if (rules.rustQuotes && (ch === 'r' || ch === 'b') && !isWordChar(line[i - 1])) {
          const raw = RUST_RAW.exec(line.slice(i, i + 260));
          if (raw) {
            endRun(i);
            const close = `"${raw[1]}`;
            frames.push({ kind: 'string', rule: { open: '"', close, multiline: true, escapes: false }, close });
            code += '"';
            i += raw[0].length;
            continue;
          }
        }
        const quote = rules.quotes.find((q) => line.startsWith(q.open, i));
        if (quote) {
          endRun(i);
          frames.push({ kind: 'string', rule: quote, close: quote.close });
          code += quote.open;
          i += quote.open.length;
          continue;
        }
        if (rules.regexLiterals && ch === '/') {
          const before = lastCode >= 0 ? line[lastCode]! : carriedChar;
          const word = lastCode >= 0 ? wordEndingAt(line, lastCode) : carriedWord;
          const end = regexMayStart(before, word) ? regexEnd(line, i) : -1;
          if (end > 0) {
            endRun(i);
            code += 'REGEX'; // a placeholder that cannot look like an operator at the end of a line
            i = end;
            carriedChar = '/';
            lastCode = -1;
            continue;
          }
        }
      }
      if (ch === '{' || ch === '(' || ch === '[') {
        open += ch;
      } else if (ch === '}' || ch === ')' || ch === ']') {
        const opener = CLOSERS[ch]!;
        if (ch === '}' && open[open.length - 1] === '$') {
          // The end of a template's `${…}`: back into the string.
          endRun(i);
          open = open.slice(0, -1);
          frames.pop(); // the interpolation marker
          i++;
          continue;
        }
        if (open[open.length - 1] === opener) open = open.slice(0, -1);
        else {
          // A stray closer (a heuristic went wrong) must not drive the depth below zero.
          const at = open.lastIndexOf(opener);
          if (at >= 0 && !open.slice(at).includes('$')) open = open.slice(0, at);
        }
      }
      if (ch !== ' ' && ch !== '\t') lastCode = i;
      i++;
    }
    endRun(line.length);
    if (lastCode >= 0) {
      carriedChar = line[lastCode]!;
      carriedWord = wordEndingAt(line, lastCode);
    }
    // A single-line string that is still open at the end of its line was a heuristic miss (or an apostrophe in
    // JSX text): close it, unless the newline itself was escaped.
    const frame = top(frames);
    if (frame?.kind === 'string' && !frame.rule.multiline && !escapedNewline) frames.pop();
    const endsInside = top(frames) !== undefined;
    const trimmed = code.trim();
    const blank = trimmed === '' && line.trim() === '';
    out.push({
      blank,
      openAtStart,
      openAtEnd: open,
      startsInside,
      endsInside,
      code: trimmed,
      // A line inside a multi-line string is part of that string's statement, never a comment of its own.
      commentOnly: !blank && trimmed === '' && startFrame?.kind !== 'string',
      indent: indentWidth(line),
    });
  }
  return out;
}

/** The index of the next character in a string that may matter (escape, closing quote, `${`), or the line's end. */
function scanString(line: string, from: number, frame: Frame & { kind: 'string' }): number {
  const close = frame.close[0]!;
  const escapes = frame.rule.escapes;
  const interpolation = frame.rule.interpolation === true;
  for (let i = from; i < line.length; i++) {
    const ch = line[i];
    if (ch === close || (escapes && ch === '\\') || (interpolation && ch === '$')) return i;
  }
  return line.length;
}

function wordEndingAt(line: string, end: number): string {
  let start = end;
  while (start > 0 && isWordChar(line[start - 1])) start--;
  return isWordChar(line[end]) ? line.slice(start, end + 1) : '';
}

/** Marks code inside a template's `${…}`: the template string frame sits below it. */
const INTERPOLATION: Frame = { kind: 'comment', depth: Number.NaN };

/** The innermost string or comment, or undefined when the scanner reads code (also inside `${…}`). */
function top(frames: Frame[]): Frame | undefined {
  const last = frames[frames.length - 1];
  return last === INTERPOLATION ? undefined : last;
}

function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
}

function regexMayStart(lastCode: string, lastWord: string): boolean {
  if (lastCode === '') return true;
  if (isWordChar(lastCode)) return REGEX_AFTER_WORDS.has(lastWord);
  return !')]}"\''.includes(lastCode) && lastCode !== '`';
}

/** Where a regex literal starting at `start` ends (index after its flags), or -1 when it does not close on this line. */
function regexEnd(line: string, start: number): number {
  if (line[start + 1] === '/' || line[start + 1] === '*') return -1;
  let inClass = false;
  for (let i = start + 1; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\') i++;
    else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (ch === '/' && !inClass) {
      let end = i + 1;
      while (end < line.length && /[a-z]/i.test(line[end]!)) end++;
      return end;
    }
  }
  return -1;
}
