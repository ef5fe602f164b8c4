// The journal's line format and its reader. One JSON object a line:
//   {"n": <sequence>, "v": <schema version>, "ops": [[sql, [params…]], …]}
// A line is one transaction. A damaged last line is a write that a crash cut short (it was never
// acknowledged); damage anywhere else means the file itself is bad. A BLOB parameter travels as
// {"b64": "<base64>"} (schema 11 on; before that, callers sent hex text through SQLite's unhex()).
import { readFileSync } from 'node:fs';

export type SqlParam = string | number | null | Uint8Array;
export type JournalOp = [sql: string, params: SqlParam[]];

export interface JournalEntry {
  /** Strictly increasing across the journal's whole life, also across folds. */
  n: number;
  /** The schema version the statements were written for. */
  v: number;
  ops: JournalOp[];
}

export interface JournalProblem {
  kind: 'torn-tail' | 'corrupt';
  /** 1-based line number of the bad line. */
  line: number;
  reason: string;
}

export interface JournalRead {
  /** The good entries, in order, up to the first problem. */
  entries: JournalEntry[];
  /** The 1-based line number of each entry (blank lines are skipped). */
  lines: number[];
  /** Byte length of the prefix that holds `entries`. */
  goodBytes: number;
  totalBytes: number;
  problem?: JournalProblem;
}

export function encodeEntry(entry: JournalEntry): Buffer {
  const ops = entry.ops.some(hasBytes) ? entry.ops.map((op): unknown => (hasBytes(op) ? [op[0], op[1].map(toJson)] : op)) : entry.ops;
  return Buffer.from(`${JSON.stringify({ n: entry.n, v: entry.v, ops })}\n`, 'utf8');
}

function hasBytes(op: JournalOp): boolean {
  return op[1].some((p) => p instanceof Uint8Array);
}

/** Base64, not hex: a third bigger instead of twice, and it needs no SQL function to turn back into bytes. */
function toJson(param: SqlParam): unknown {
  return param instanceof Uint8Array ? { b64: Buffer.from(param.buffer, param.byteOffset, param.byteLength).toString('base64') } : param;
}

/** Reads a journal file; a missing file is an empty journal. */
export function readJournalFile(path: string): JournalRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], lines: [], goodBytes: 0, totalBytes: 0 };
    throw err;
  }
  return parseJournal(bytes);
}

export function parseJournal(bytes: Uint8Array): JournalRead {
  const entries: JournalEntry[] = [];
  const lines: number[] = [];
  let offset = 0;
  let line = 0;
  let lastN = 0;
  while (offset < bytes.length) {
    line++;
    const newline = bytes.indexOf(0x0a, offset);
    const end = newline < 0 ? bytes.length : newline;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset + offset, end - offset).toString('utf8');
    const next = newline < 0 ? bytes.length : newline + 1;
    const isLast = next >= bytes.length;
    if (text.trim() === '' && newline >= 0) {
      offset = next;
      continue;
    }
    const parsed = newline < 0 ? { error: 'line has no end (the write was cut short)' } : decodeEntry(text, lastN);
    if ('error' in parsed) {
      return {
        entries,
        lines,
        goodBytes: offset,
        totalBytes: bytes.length,
        problem: { kind: isLast ? 'torn-tail' : 'corrupt', line, reason: parsed.error },
      };
    }
    entries.push(parsed);
    lines.push(line);
    lastN = parsed.n;
    offset = next;
  }
  return { entries, lines, goodBytes: offset, totalBytes: bytes.length };
}

function decodeEntry(text: string, lastN: number): JournalEntry | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null) return { error: 'not a JSON object' };
  const { n, v, ops } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(n) || (n as number) <= lastN) return { error: `bad sequence number ${String(n)} after ${lastN}` };
  if (!Number.isSafeInteger(v) || (v as number) < 0) return { error: 'bad schema version' };
  if (!Array.isArray(ops) || !ops.every(isOp)) return { error: 'bad statement list' };
  for (const op of ops as Array<[string, unknown[]]>) {
    if (op[1].some(isBytes)) op[1] = op[1].map((p) => (isBytes(p) ? new Uint8Array(Buffer.from(p.b64, 'base64')) : p));
  }
  return { n: n as number, v: v as number, ops: ops as JournalOp[] };
}

function isOp(op: unknown): boolean {
  return (
    Array.isArray(op) &&
    op.length === 2 &&
    typeof op[0] === 'string' &&
    Array.isArray(op[1]) &&
    op[1].every((p) => p === null || typeof p === 'string' || typeof p === 'number' || isBytes(p))
  );
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isBytes(param: unknown): param is { b64: string } {
  if (typeof param !== 'object' || param === null || Array.isArray(param)) return false;
  const keys = Object.keys(param);
  const b64 = (param as { b64?: unknown }).b64;
  return keys.length === 1 && typeof b64 === 'string' && b64.length % 4 === 0 && BASE64.test(b64);
}
