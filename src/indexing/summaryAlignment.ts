// The model's answer checked against the chunks it was shown, so no summary lands on code it does not describe.
// A weak model skips a trivial chunk and numbers the rest its own way (from 1, or from 0), so "chunk 2" may mean
// the third chunk. Each summary is placed by evidence: the chunk whose span holds its start_line, the chunk that
// declares what the summary is about ("Defines fn1_3 …"), and — weakest — its number. A summary whose subject is
// declared in another chunk can never stay on this one. The placement keeps the reply's order (a monotone
// alignment), so one reliable summary also places its neighbours. Entity lines are checked the same way: the
// declaration must be on the line given, else it moves to the line that declares it, else it is dropped.
import type { ChunkDraft, FileSummary } from '../core/knowledge/types';
import { escapeRegExp } from '../shared/escape';

export interface ReplyChunk {
  /** As numbered in the prompt (from 1); -1 when not given. A model counting from 0 writes 0. */
  chunk: number;
  /** The first line of the chunk's span; 0 when not given. */
  startLine: number;
  summary: string;
}

/** The names each chunk declares (its own name, and every declaration whose line is in its span). */
export type ChunkNames = ReadonlyArray<ReadonlySet<string>>;

export interface Aligned {
  chunks: Array<{ index: number; summary: string }>;
  realigned: number;
  dropped: number;
}

const FORBIDDEN = Number.NEGATIVE_INFINITY;
const SCORE = { startLine: 4, subject: 3, number: 1, wrongLine: -2 } as const;

export function alignChunkSummaries(entries: readonly ReplyChunk[], chunks: readonly ChunkDraft[], names: ChunkNames): Aligned {
  const owner = new Map<string, number>();
  names.forEach((set, i) => set.forEach((n) => owner.set(n, owner.has(n) && owner.get(n) !== i ? -1 : i)));
  const patterns = subjectPatterns(owner);
  const subjects = entries.map((e) => subjectChunks(e.summary, patterns));
  const byLine = entries.map((e) => (e.startLine > 0 ? chunks.findIndex((c) => e.startLine >= c.startLine && e.startLine <= c.endLine) : -1));
  const claimed = entries.map((e, i) => (byLine[i]! >= 0 ? byLine[i]! : e.chunk >= 0 ? e.chunk - 1 : -1));
  // The reply's order, by what each entry claims, ties kept as written.
  const order = entries.map((_, i) => i).sort((a, b) => claimed[a]! - claimed[b]! || a - b);
  const expected = numberedChunks(order, entries, subjects, byLine);
  const score = (e: number, c: number): number => {
    const subject = subjects[e]!;
    if (subject.size > 0 && !subject.has(c)) return FORBIDDEN;
    let s = 0;
    if (byLine[e]! >= 0) s += byLine[e] === c ? SCORE.startLine : SCORE.wrongLine;
    if (subject.has(c)) s += SCORE.subject;
    if (expected.get(e) === c) s += SCORE.number;
    return s;
  };
  const placed = monotoneMatch(order, chunks.length, score);
  const out: Aligned = { chunks: [], realigned: 0, dropped: 0 };
  for (const e of order) {
    const c = placed.get(e);
    if (c === undefined) {
      out.dropped++;
      continue;
    }
    if (claimed[e] !== c) out.realigned++;
    out.chunks.push({ index: c, summary: entries[e]!.summary });
  }
  out.chunks.sort((a, b) => a.index - b.index);
  return out;
}

/**
 * The chunk each entry's number points at once the model's own numbering is read off its reliable entries: where
 * entries are placed by their subject or start line, their numbers show the offset (0 when the model counted as
 * the prompt did, 1 when it counted from 0 or skipped a chunk …), and an entry between two such entries with the
 * same offset is read with it. Between different offsets (where the model skipped) its number means nothing.
 */
function numberedChunks(order: readonly number[], entries: readonly ReplyChunk[], subjects: ReadonlyArray<ReadonlySet<number>>, byLine: readonly number[]): Map<number, number> {
  const anchorOf = (e: number): number | undefined => (subjects[e]!.size === 1 ? [...subjects[e]!][0] : byLine[e]! >= 0 ? byLine[e] : undefined);
  const offsets = order.map((e) => {
    const anchor = anchorOf(e);
    return anchor !== undefined && entries[e]!.chunk >= 0 ? anchor - (entries[e]!.chunk - 1) : undefined;
  });
  const out = new Map<number, number>();
  order.forEach((e, p) => {
    if (entries[e]!.chunk < 0) return;
    const before = offsets.slice(0, p + 1).reverse().find((o) => o !== undefined);
    const after = offsets.slice(p).find((o) => o !== undefined);
    const offset = before === undefined ? (after ?? 0) : after === undefined || after === before ? before : undefined;
    if (offset !== undefined) out.set(e, entries[e]!.chunk - 1 + offset);
  });
  return out;
}

/**
 * Entries in `order` to chunk positions, increasing with the order, each chunk at most once, maximising the
 * total score (an entry may stay unplaced at 0). Dynamic programming over (entry, chunk).
 */
function monotoneMatch(order: readonly number[], chunkCount: number, score: (entry: number, chunk: number) => number): Map<number, number> {
  const k = order.length;
  // best[i][j]: the best total for the first i entries using chunks below j.
  const best: number[][] = Array.from({ length: k + 1 }, () => new Array<number>(chunkCount + 1).fill(0));
  for (let i = 1; i <= k; i++) {
    for (let j = 1; j <= chunkCount; j++) {
      const take = best[i - 1]![j - 1]! + score(order[i - 1]!, j - 1);
      best[i]![j] = Math.max(best[i - 1]![j]!, best[i]![j - 1]!, take);
    }
  }
  const placed = new Map<number, number>();
  let i = k;
  let j = chunkCount;
  while (i > 0 && j > 0) {
    if (best[i]![j] === best[i - 1]![j]) i--;
    else if (best[i]![j] === best[i]![j - 1]) j--;
    else {
      placed.set(order[i - 1]!, j - 1);
      i--;
      j--;
    }
  }
  return placed;
}

const KINDS = 'function|class|method|interface|type|enum|struct|trait|constant|const|variable|module|namespace|section|heading|record|alias|component|hook|test|macro|property|field|constructor';
// Not "implements", "calls", "uses", "is": a chunk's summary may well name what it implements or calls.
const DECLARING = `defines|declares|declaration of|introduces|exports`;
const FILLER = `(?:(?:the|a|an|its|one|public|exported|private|async|static|abstract|helper|main|new|default|top-level)\\s+)*`;

/** The two patterns per identifying name that find a summary's subject; built once, tried on every summary. */
export interface SubjectPattern {
  name: string;
  chunk: number;
  patterns: readonly RegExp[];
}

/** For each name declared in exactly one chunk (a name declared in more than one says nothing about which). */
export function subjectPatterns(owner: ReadonlyMap<string, number>): SubjectPattern[] {
  const out: SubjectPattern[] = [];
  for (const [name, chunk] of owner) {
    if (chunk < 0) continue;
    const n = escapeRegExp(name);
    const b = /^\w/.test(name) ? '\\b' : '';
    const e = /\w$/.test(name) ? '(?![\\w$])' : '';
    out.push({
      name,
      chunk,
      patterns: [
        new RegExp(`^\\W*${FILLER}(?:(?:${KINDS})\\s+)?['"]?${b}${n}${e}`, 'i'),
        new RegExp(`\\b(?:${DECLARING})\\s+${FILLER}(?:(?:${KINDS})\\s+)?['"]?${b}${n}${e}`, 'i'),
      ],
    });
  }
  return out;
}

/** Chunks whose declarations the summary is about: named first ("parseConfig reads …"), or declared ("Defines fn1_3"). */
export function subjectChunks(summary: string, subjects: readonly SubjectPattern[]): Set<number> {
  const out = new Set<number>();
  const text = summary.replace(/[`*]/g, ''); // markdown code and emphasis (not _: names have it)
  // Case matters for code names; the patterns' words are matched case-insensitively, so check the name itself.
  for (const { name, chunk, patterns } of subjects) if (patterns.some((p) => matchesName(p, text, name))) out.add(chunk);
  return out;
}

function matchesName(pattern: RegExp, text: string, name: string): boolean {
  const m = pattern.exec(text);
  return m !== null && m[0].includes(name);
}

/** Names a chunk declares that can identify it: at least 3 characters, so "a" or "x" identify nothing. */
export function chunkNames(chunks: readonly ChunkDraft[], outline: ReadonlyArray<{ name: string; line: number }>): Array<Set<string>> {
  return chunks.map((c) => {
    const set = new Set<string>();
    const add = (name: string) => {
      if (name.length >= 3 && name !== 'imports') set.add(name);
      const last = name.split('.').pop()!;
      if (last !== name && last.length >= 3 && /[A-Z_\d$]/.test(last.slice(1))) set.add(last); // `Store.getItem` → getItem
    };
    if (c.name) add(c.name);
    for (const d of outline) if (d.line >= c.startLine && d.line <= c.endLine) add(d.name);
    return set;
  });
}

export interface CheckedEntities {
  entities: FileSummary['entities'];
  moved: number;
  dropped: number;
}

/** Each entity's line must show its name; else the line that declares it (outline, else first mention); else dropped. */
export function checkEntityLines(entities: FileSummary['entities'], lines: LineTexts, outline: ReadonlyArray<{ name: string; line: number }>): CheckedEntities {
  const out: CheckedEntities = { entities: [], moved: 0, dropped: 0 };
  for (const entity of entities) {
    const word = wordPattern(entity.name.split('.').pop() ?? entity.name);
    if (word.test(lines.get(entity.line) ?? '')) {
      out.entities.push(entity);
      continue;
    }
    const declared = outline.find((d) => d.name === entity.name || d.name.split('.').pop() === entity.name)?.line;
    const line = declared ?? [...lines].find(([, text]) => word.test(text))?.[0];
    if (line === undefined) {
      out.dropped++;
      continue;
    }
    out.moved++;
    out.entities.push({ ...entity, line });
  }
  return out;
}

/** A relation's line is kept only when that line mentions one of its ends. */
export function checkRelationLines(relations: FileSummary['relations'], lines: LineTexts): FileSummary['relations'] {
  return relations.map((r) => {
    if (r.line === undefined) return r;
    const text = lines.get(r.line) ?? '';
    if ([r.from, r.to].some((end) => wordPattern(end.split(/[/.]/).pop() ?? end).test(text) || text.includes(end))) return r;
    const { line: _dropped, ...rest } = r;
    return rest;
  });
}

/** Each line the chunks show, by its 1-based number. */
export type LineTexts = ReadonlyMap<number, string>;

export function lineTexts(chunks: readonly ChunkDraft[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const c of chunks) c.text.split(/\r?\n/).forEach((text, i) => out.set(c.startLine + i, text));
  return out;
}

function wordPattern(name: string): RegExp {
  return new RegExp(`${/^\w/.test(name) ? '\\b' : ''}${escapeRegExp(name)}${/\w$/.test(name) ? '(?![\\w$])' : ''}`);
}
