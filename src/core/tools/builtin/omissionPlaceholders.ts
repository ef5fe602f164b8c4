// Finds "omission placeholders" in text a model wants to write: comments such as `// ... rest of the code ...`,
// `# existing code here` or `/* unchanged */` that stand for code the model did not bother to send. Written to
// disk they silently delete that code, so write_file and edit_file refuse such text (see writeGuard.ts).
// Only whole comment lines are judged, in the comment syntax of the file's language, so spread syntax, varargs,
// Python's `...` and ellipses in prose are never mistaken for placeholders.
import * as path from 'node:path';

export interface Placeholder {
  /** 1-based line in the new text. */
  line: number;
  /** The line as written (trimmed). */
  text: string;
}

type Syntax = 'slash' | 'hash' | 'dash' | 'html' | 'semi' | 'percent';

const C_LIKE = 'js jsx mjs cjs ts tsx mts cts java c h cc cpp cxx hpp hh cs go rs swift kt kts scala dart groovy gradle proto zig sol v json5 jsonc';
const FAMILIES: Array<[string, Syntax[]]> = [
  [C_LIKE, ['slash']],
  ['css scss less styl', ['slash']],
  ['php', ['slash', 'hash']],
  ['py pyi pyw rb sh bash zsh fish ps1 psm1 yml yaml toml r pl pm cmake nix ex exs jl coffee tf hcl cfg conf mk makefile dockerfile gitignore env', ['hash']],
  ['sql lua hs elm ada vhdl', ['dash']],
  ['html htm xml svg xhtml md markdown mdx', ['html']],
  ['vue svelte astro', ['html', 'slash']],
  ['lisp clj cljs el scm asm s ini', ['semi', 'hash']],
  ['tex sty erl hrl m', ['percent']],
];
const ALL: Syntax[] = ['slash', 'hash', 'dash', 'html', 'semi', 'percent'];

const BY_EXTENSION = new Map<string, Syntax[]>();
for (const [exts, syntaxes] of FAMILIES) for (const ext of exts.split(' ')) BY_EXTENSION.set(ext, syntaxes);

/** The comment syntaxes to judge a file by: its language's, or every common one for an unknown extension. */
export function commentSyntaxesFor(filePath: string): Syntax[] {
  const base = path.basename(filePath).toLowerCase();
  const ext = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1) : base;
  return BY_EXTENSION.get(ext) ?? ALL;
}

// Opening markers per syntax (a leading `*` is the middle of a /* */ block); the closing marker is stripped too.
const OPENERS: Record<Syntax, RegExp> = {
  slash: /^(?:\{\s*\/\*+|\/\/+!?|\/\*+!?|\*(?!\*\/))\s*/,
  hash: /^#+(?!!)\s*/,
  dash: /^--+(?:\[\[)?\s*/,
  html: /^<!--+\s*/,
  semi: /^;+\s*/,
  percent: /^%+\s*/,
};
const CLOSERS = /\s*(?:\*+\/\s*\}?|--+>|\]\]|\*\))\s*$/;

const ELLIPSIS = /(?:\.\s*){3,}|…/;
const ELLIPSES = /(?:\.\s*){3,}|…+/g;
/** A body that is nothing but an ellipsis: `...`, `…`, `. . .`. */
const ONLY_ELLIPSIS = /^(?:(?:\.\s*){3,}|…+)[.;:,]?$/;

/** The code a placeholder stands for. */
const THING = String.raw`(?:code|file|content|contents|implementation|logic|functions?|methods?|class(?:es)?|components?|modules?|imports?|exports?|body|lines?|tests?|props|properties|fields|styles|rules|sections?|text|markup|html|config(?:uration)?|definitions?|handlers?|routes?|cases|helpers?|setup|functionality|template|stuff)`;
const STATE = String.raw`(?:here|goes here|go here|unchanged|unmodified|untouched|omitted|(?:remains?|stays?|is|are|left|kept)(?: the)? (?:same|unchanged|as (?:before|is))|(?:is |are )?(?:the )?same(?: as (?:before|above))?|as (?:before|is|above)|not shown|continues)`;
/** Whole bodies that say "code left out", with or without an ellipsis. */
const WHOLE: RegExp[] = [
  new RegExp(String.raw`^(?:(?:keep|insert|add|include|paste|put) )?(?:the |all |your )?(?:rest|remainder) of (?:the |this |your |my )?${THING}(?: ${STATE})?$`, 'i'),
  new RegExp(String.raw`^(?:(?:keep|insert|add|include|paste|put) )?(?:the |all |your )?(?:existing|original|previous|unchanged|old) ${THING}(?: ${STATE})?$`, 'i'),
  new RegExp(String.raw`^(?:the |all |your )?(?:other|remaining|more|same) ${THING} ${STATE}$`, 'i'),
  new RegExp(String.raw`^(?:the |this |your )?${THING} ${STATE}$`, 'i'),
  /^(?:everything else |all else |the rest |rest )?(?:unchanged|unmodified|untouched|no changes?|not changed|omitted|omitted for brevity|truncated|snip|snipped|same as before|same as above|as before|remains? the same|stays? the same)$/i,
];
/** With an ellipsis, a shorter hint is enough: `... rest ...`, `... existing ...`, `... 40 more lines ...`. */
const HINT = /\b(?:rest|remainder|existing|remaining|unchanged|same|previous|original|omitted|snip|more|other)\b/i;

/** Longest comment body (in words) still judged: a placeholder is a short note, not an explanation. */
const MAX_WORDS = 10;

/** Is this one comment line an omission placeholder? Exported for the unit tests and the bench. */
export function isPlaceholderLine(line: string, syntaxes: readonly Syntax[]): boolean {
  const trimmed = line.trim();
  if (trimmed.length < 3 || trimmed.length > 120) return false;
  for (const syntax of syntaxes) {
    const open = OPENERS[syntax].exec(trimmed);
    if (!open) continue;
    const body = trimmed.slice(open[0].length).replace(CLOSERS, '').trim();
    // A ` * ` line is the middle of a doc comment: prose and examples ("// ... other methods"), not a stand-in.
    if (open[0].trim().startsWith('*')) continue;
    if (judgeBody(body)) return true;
  }
  return false;
}

function judgeBody(raw: string): boolean {
  // Brackets around the note change nothing: `(rest of file unchanged)`, `[...]`, `<existing code>`.
  const body = raw.replace(/^[([{<]\s*/, '').replace(/\s*[)\]}>]$/, '').trim();
  if (body === '') return false;
  const hasEllipsis = ELLIPSIS.test(body);
  if (ONLY_ELLIPSIS.test(body)) return true;
  // A TODO or lint directive is a note about work, not a stand-in for code.
  if (/^(?:todo|fixme|xxx|hack|note|eslint|prettier|@ts-|type:|noqa|pylint)\b/i.test(body)) return false;
  const words = body
    .replace(ELLIPSES, ' ')
    .replace(/[.:;,!]+\s*$/, '')
    .split(/\s+/)
    .filter((w) => /\w/.test(w));
  if (words.length === 0 || words.length > MAX_WORDS) return false;
  const plain = words.join(' ').replace(/[.:;,!]+$/, '');
  if (hasEllipsis && words.length <= 6 && HINT.test(plain)) return true;
  return WHOLE.some((re) => re.test(plain));
}

function normalize(line: string): string {
  return line.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The first placeholder line in `newText` that is not already in `oldText` (an edit may keep a `// ...` comment
 * the file already had). `filePath` picks the comment syntax.
 */
export function findPlaceholder(newText: string, oldText: string | undefined, filePath: string): Placeholder | undefined {
  const syntaxes = commentSyntaxesFor(filePath);
  let existing: Set<string> | undefined;
  const lines = newText.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!isPlaceholderLine(line, syntaxes)) continue;
    existing ??= new Set((oldText ?? '').split(/\r?\n/).map(normalize));
    if (existing.has(normalize(line))) continue;
    return { line: i + 1, text: line.trim() };
  }
  return undefined;
}
