// Cuts source code into declarations (functions, classes, types …) using the lexer's per-line facts. Two
// layouts share one driver: brace languages (a unit ends where the bracket depth returns to its level and the
// statement is complete) and Python (a unit ends where the indentation returns to its level). Doc comments and
// decorators directly above a declaration join it; imports form one chunk; blank lines join the piece above.
import type { ChunkStrategy } from './language';
import { classifyDeclaration, type Declaration, type DeclarationContext } from './declarations';
import type { LineInfo } from './codeLexer';
import type { CutCost, Piece } from './chunkSizing';

type Role = 'comment' | 'decorator' | 'code';

interface Body {
  /** Last line of the declaration's header (the line that opens the body). */
  headerEnd: number;
  from: number;
  to: number;
  /** Level of the members. */
  base: number;
}

interface Layout {
  /** Bracket depth (brace languages) or indentation (Python) of a line that can start a unit. */
  level(i: number): number;
  /** Whether a unit may begin on line i (it is not the inside of a string, bracket or continued line). */
  canStart(i: number): boolean;
  role(i: number, base: number): Role;
  unitEnd(i: number, to: number, base: number, role: Role): number;
  body(head: number, end: number, base: number): Body | undefined;
  headText(head: number, end: number): string;
  cutCost: CutCost;
}

export interface CodeSegmentOptions {
  strategy: ChunkStrategy;
  language: string;
  maxLines: number;
  /** Cut every class into its members, however short (the outline wants them all). */
  splitAllContainers?: boolean;
}

export interface CodeSegmentation {
  pieces: Piece[];
  cutCost: CutCost;
}

/** Pieces covering lines from..to (0-based, inclusive) exactly; [] when they are all blank. */
export function segmentCode(info: readonly LineInfo[], from: number, to: number, options: CodeSegmentOptions): CodeSegmentation {
  const layout = options.strategy === 'python' ? pythonLayout(info) : braceLayout(info, options);
  let base = Number.POSITIVE_INFINITY;
  for (let i = from; i <= to; i++) if (!info[i]!.blank && layout.canStart(i)) base = Math.min(base, layout.level(i));
  if (!Number.isFinite(base)) base = 0;
  const scope = enclosingScope(info, layout, options, from, base);
  const driver = new Driver(info, layout, options);
  return { pieces: driver.segment(from, to, base, scope), cutCost: layout.cutCost };
}

class Driver {
  constructor(
    private readonly info: readonly LineInfo[],
    private readonly layout: Layout,
    private readonly options: CodeSegmentOptions,
  ) {}

  segment(from: number, to: number, base: number, scope: DeclarationContext): Piece[] {
    const { info, layout } = this;
    // 1. Units: maximal statements at this level.
    const raw: Array<{ start: number; end: number; role: Role }> = [];
    for (let i = from; i <= to; ) {
      if (info[i]!.blank) {
        i++;
        continue;
      }
      const role = layout.role(i, base);
      const end = Math.max(i, Math.min(to, layout.unitEnd(i, to, base, role)));
      raw.push({ start: i, end, role });
      i = end + 1;
    }
    // 2. Comments and decorators right above a declaration (no blank line between) belong to it.
    const units: Array<{ start: number; end: number; head: number; comment: boolean }> = [];
    let pending: typeof raw = [];
    const flush = () => {
      for (const p of pending) units.push({ start: p.start, end: p.end, head: p.start, comment: p.role === 'comment' });
      pending = [];
    };
    for (const unit of raw) {
      const last = pending[pending.length - 1];
      if (last && last.end + 1 !== unit.start) flush();
      if (unit.role !== 'code') {
        pending.push(unit);
        continue;
      }
      units.push({ start: pending[0]?.start ?? unit.start, end: unit.end, head: unit.start, comment: false });
      pending = [];
    }
    flush();

    // 3. What each unit declares; imports gather into one piece; long classes are cut into their members.
    const pieces: Piece[] = [];
    const comments = new Set<Piece>();
    let lastImports = -1;
    for (const unit of units) {
      const declaration: Declaration = unit.comment
        ? { kind: 'block' }
        : classifyDeclaration(this.options.strategy, layout.headText(unit.head, unit.end), scope);
      if (declaration.imports && lastImports >= 0 && pieces.slice(lastImports + 1).every((p) => comments.has(p))) {
        // Comments between import groups stay with the imports.
        pieces.length = lastImports + 1;
        pieces[lastImports]!.end = unit.end;
        continue;
      }
      const piece: Piece = { start: unit.start, end: unit.end, kind: declaration.kind, head: unit.head };
      if (declaration.name !== undefined) piece.name = declaration.name;
      if (declaration.imports) piece.imports = true;
      const long = unit.end - unit.start + 1 > this.options.maxLines;
      if (declaration.container && (long || this.options.splitAllContainers)) {
        const members = this.splitContainer(unit, declaration, base, scope);
        if (members) {
          pieces.push(...members);
          continue;
        }
      }
      if (declaration.imports) lastImports = pieces.length;
      if (unit.comment) comments.add(piece);
      pieces.push(piece);
    }
    if (pieces.length === 0) return [];

    // 4. Blank lines join the piece above them (leading ones the first piece): the pieces cover from..to.
    pieces[0]!.start = from;
    for (let k = 0; k < pieces.length - 1; k++) pieces[k]!.end = pieces[k + 1]!.start - 1;
    pieces[pieces.length - 1]!.end = to;
    return pieces;
  }

  /** The class header (with the fields above its first method), then one piece per member. */
  private splitContainer(
    unit: { start: number; end: number; head: number },
    declaration: Declaration,
    base: number,
    scope: DeclarationContext,
  ): Piece[] | undefined {
    const body = this.layout.body(unit.head, unit.end, base);
    if (!body || body.from > body.to) return undefined;
    const inner: DeclarationContext =
      declaration.container === 'members' ? (declaration.name ? { member: true, owner: declaration.name } : { member: true }) : scope;
    const members = this.segment(body.from, body.to, body.base, inner);
    const first = members.findIndex((p) => p.kind !== 'block');
    if (first < 0) return undefined; // nothing but fields: cutting it would only scatter them
    const header: Piece = { start: unit.start, end: first > 0 ? members[first - 1]!.end : body.headerEnd, kind: declaration.kind, head: unit.head };
    if (declaration.name !== undefined) header.name = declaration.name;
    const rest = members.slice(first);
    rest[0]!.start = header.end + 1;
    const last = rest[rest.length - 1]!;
    last.ownEnd = last.end;
    last.end = unit.end; // the closing brace goes with the last member
    return [header, ...rest];
  }
}

/** When a range starts inside a class, its members are named after it. */
function enclosingScope(info: readonly LineInfo[], layout: Layout, options: CodeSegmentOptions, from: number, base: number): DeclarationContext {
  if (base === 0) return { member: false };
  for (let k = from - 1; k >= 0; k--) {
    if (info[k]!.blank || !layout.canStart(k) || info[k]!.commentOnly || layout.level(k) >= base) continue;
    const declaration = classifyDeclaration(options.strategy, layout.headText(k, Math.min(info.length - 1, from)), { member: false });
    if (declaration.container === 'members') return declaration.name ? { member: true, owner: declaration.name } : { member: true };
    return { member: declaration.kind === 'class' || declaration.kind === 'interface' };
  }
  return { member: false };
}

// ---- Brace languages ----

/** A line ending like this continues on the next line. */
const ENDS_UNFINISHED = /(?:[=,([{+*/%&|^?:.<]|=>|->|(?<![-+])-|\b(?:extends|implements|where|as|satisfies|in|of|instanceof|return|new|throw|await|yield)|[^+]\+)\s*$/;
/** A line starting like this continues the statement above it. */
const STARTS_CONTINUATION = /^(?:[.)\]}{?:,|&+=]|=>|->|&&|\|\||\?\?|-(?!-)|\b(?:else|catch|finally|extends|implements|where|as|satisfies|instanceof)\b)/;

/** `static int` or `PyObject *` alone on a line (C, C++, Objective-C). */
const C_RETURN_TYPE_LINE = /^(?:[A-Za-z_]\w*\s+)*[A-Za-z_]\w*(?:\s*\*+)?$/;
const C_TYPE_LANGUAGES = new Set(['c', 'cpp', 'objective-c', 'objective-cpp']);

function braceLayout(info: readonly LineInfo[], options: CodeSegmentOptions): Layout {
  const { strategy, language } = options;
  const cTypes = C_TYPE_LANGUAGES.has(language);
  return {
    level: (i) => info[i]!.openAtStart.length,
    canStart: (i) => !info[i]!.startsInside,
    role(i, base) {
      const line = info[i]!;
      if (line.commentOnly) return 'comment';
      const code = line.code;
      const opensArguments = line.openAtEnd.length > base;
      if (strategy === 'rust') return /^#!?\[/.test(code) && (opensArguments || /\]\s*$/.test(code)) ? 'decorator' : 'code';
      if (strategy === 'go') return 'code';
      if (code.startsWith('@') && !/^@(?:interface|implementation|protocol|end)\b/.test(code)) {
        const remainder = code.replace(/^(?:@[\w.$]+(?:\s*\([^()]*(?:\([^()]*\)[^()]*)*\))?\s*)+/, '');
        return opensArguments || remainder === '' ? 'decorator' : 'code';
      }
      if ((language === 'csharp' || language === 'php') && /^#?\[[^;]*\]$/.test(code)) return 'decorator';
      return 'code';
    },
    unitEnd(i, to, base, role) {
      let j = i;
      for (;;) {
        if (j >= to) return to;
        const line = info[j]!;
        const next = info[j + 1]!;
        if (role === 'comment') {
          if (line.endsInside || next.commentOnly) {
            j++;
            continue;
          }
          return j;
        }
        if (line.endsInside || line.openAtEnd.length > base) {
          j++;
          continue;
        }
        if (role === 'code' && cTypes && C_RETURN_TYPE_LINE.test(line.code)) {
          j++; // GNU style: the return type on its own line above the function's name
          continue;
        }
        if (role === 'code' && ENDS_UNFINISHED.test(line.code) && !/^(?:case\b|default\b)/.test(line.code)) {
          let k = j + 1;
          while (k <= to && (info[k]!.blank || info[k]!.commentOnly)) k++;
          if (k > to) return j;
          j = k;
          continue;
        }
        if (role === 'code' && !next.blank && !next.commentOnly && STARTS_CONTINUATION.test(next.code) && !(strategy === 'script' && /^\*/.test(next.code))) {
          j++;
          continue;
        }
        return j;
      }
    },
    body(head, end, base) {
      for (let h = head; h < end; h++) {
        const line = info[h]!;
        if (line.openAtEnd.length > base && line.openAtEnd[base] === '{') {
          return { headerEnd: h, from: h + 1, to: end - 1, base: base + 1 };
        }
      }
      return undefined;
    },
    headText(head, end) {
      const parts: string[] = [];
      for (let k = head; k <= end && parts.length < 4; k++) {
        const code = info[k]!.code;
        if (code === '') continue;
        parts.push(code);
        if (code.includes('{') || /;\s*$/.test(code)) break;
      }
      return parts.join(' ');
    },
    cutCost(i) {
      const next = info[i + 1];
      if (!next) return 0;
      return (next.startsInside ? 100 : 0) + 4 * next.openAtStart.length + (info[i]!.blank ? 0 : 2) + (next.blank ? 1 : 0);
    },
  };
}

// ---- Python ----

const PYTHON_CONTINUATION = /^(?:elif|else|except|finally)\b/;

function pythonLayout(info: readonly LineInfo[]): Layout {
  const continued = (i: number) => i > 0 && /\\$/.test(info[i - 1]!.code) && !info[i - 1]!.commentOnly;
  const canStart = (i: number) => !info[i]!.startsInside && info[i]!.openAtStart === '' && !continued(i);
  const layout: Layout = {
    level: (i) => info[i]!.indent,
    canStart,
    role(i) {
      const line = info[i]!;
      if (line.commentOnly) return 'comment';
      return line.code.startsWith('@') ? 'decorator' : 'code';
    },
    unitEnd(i, to, base, role) {
      if (role === 'comment') {
        let j = i;
        while (j < to && info[j + 1]!.commentOnly && info[j + 1]!.indent <= Math.max(base, info[i]!.indent)) j++;
        return j;
      }
      let last = i;
      for (let k = i + 1; k <= to; k++) {
        const line = info[k]!;
        if (!canStart(k)) {
          last = k;
          continue;
        }
        if (role === 'decorator') break;
        if (line.blank) continue;
        if (line.commentOnly) {
          // A comment belongs to the body when code deeper than this level follows it.
          let n = k + 1;
          while (n <= to && (info[n]!.blank || info[n]!.commentOnly)) n++;
          if (n <= to && info[n]!.indent > base && canStart(n)) {
            last = k;
            continue;
          }
          break;
        }
        if (line.indent > base || (line.indent === base && PYTHON_CONTINUATION.test(line.code))) {
          last = k;
          continue;
        }
        break;
      }
      return last;
    },
    body(head, end) {
      let h = head;
      while (h < end && !canEndHeader(h)) h++;
      if (h >= end) return undefined;
      for (let b = h + 1; b <= end; b++) {
        const line = info[b]!;
        if (line.blank || line.commentOnly || !canStart(b)) continue;
        return line.indent > info[head]!.indent ? { headerEnd: h, from: h + 1, to: end, base: line.indent } : undefined;
      }
      return undefined;
    },
    headText: (head) => info[head]!.code,
    cutCost(i) {
      const next = info[i + 1];
      if (!next) return 0;
      const inside = next.startsInside || next.openAtStart !== '' || continued(i + 1);
      return (inside ? 100 : 0) + (next.blank ? 1 : Math.floor(next.indent / 2)) + (info[i]!.blank ? 0 : 2);
    },
  };
  function canEndHeader(h: number): boolean {
    const line = info[h]!;
    return line.openAtEnd === '' && !line.endsInside && !/\\$/.test(line.code);
  }
  return layout;
}
