// The workspace knowledge graph in the session database (tables kg_*, migration 5): indexed files, their chunks,
// entities and relations. One database holds many workspaces' indexes (the editor keeps one sessions.db for all of
// them), so a store is bound to one workspace root and every row it reads or writes carries that root. Everything stored for one file is replaced in one db.write() — one journal line, one
// transaction — so a crash leaves either the old index of the file or the new one. Chunk ids are chosen here, not
// by SQLite, so replaying the journal gives callers' ids back exactly. Vectors are not stored here: they live in
// the shared `embeddings` table, keyed by (model, chunk hash).
import { isAbsolute, resolve } from 'node:path';
import type { Clock } from '../core/ports';
import {
  RELATION_KINDS,
  type ChunkKind,
  type ChunkRecord,
  type Entity,
  type IndexedFile,
  type IndexMode,
  type IndexState,
  type KnowledgeStorePort,
  type KnowledgeWrite,
  type Relation,
  type RelationKind,
} from '../core/knowledge/types';
import { PersistenceError } from './errors';
import type { JournalOp } from './journalFormat';
import type { JournaledDatabase, Row } from './journaledDatabase';

const MODES: readonly IndexMode[] = ['full', 'embed', 'metadata'];
const STATES: readonly IndexState[] = ['indexed', 'metadata', 'failed'];
const CHUNK_KINDS: readonly ChunkKind[] = ['function', 'class', 'method', 'interface', 'type', 'section', 'block', 'file'];
const MAX_PATH = 4096;

const FILE_COLUMNS = `f.*, (SELECT COUNT(*) FROM kg_chunks c WHERE c.workspace = f.workspace AND c.file_path = f.path) AS chunk_count`;
const UPSERT_FILE = `INSERT INTO kg_files (workspace, path, hash, mode, state, range_start, range_end, language, lines, bytes, summary, embed_model, indexed_at, note)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (workspace, path) DO UPDATE SET hash = excluded.hash, mode = excluded.mode, state = excluded.state,
    range_start = excluded.range_start, range_end = excluded.range_end, language = excluded.language, lines = excluded.lines,
    bytes = excluded.bytes, summary = excluded.summary, embed_model = excluded.embed_model, indexed_at = excluded.indexed_at, note = excluded.note`;
const INSERT_CHUNK = 'INSERT INTO kg_chunks (id, workspace, file_path, start_line, end_line, kind, name, hash, summary, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const INSERT_ENTITY = 'INSERT INTO kg_entities (workspace, file_path, name, kind, line, chunk_id) VALUES (?, ?, ?, ?, ?, ?)';
const INSERT_RELATION = 'INSERT INTO kg_relations (workspace, file_path, from_name, kind, to_name, line) VALUES (?, ?, ?, ?, ?, ?)';
const BUMP_REVISION: JournalOp = ['UPDATE kg_meta SET revision = revision + 1 WHERE id = 1', []];

export class SqlKnowledgeStore implements KnowledgeStorePort {
  /** The workspace root this store reads and writes (absolute, normalised: see workspaceKey). */
  readonly workspace: string;

  constructor(
    private readonly db: JournaledDatabase,
    private readonly clock: Clock,
    workspace: string,
  ) {
    this.workspace = workspaceKey(workspace);
  }

  /**
   * Stored in the database (kg_meta), so every store on the same data agrees; grows with each change. One counter
   * for all workspaces: a change in another workspace makes readers reload for nothing, which is harmless.
   */
  get revision(): number {
    return Number(this.db.get('SELECT revision FROM kg_meta WHERE id = 1')?.revision ?? 0);
  }

  putFile(write: KnowledgeWrite): ChunkRecord[] {
    const { file, chunks, entities, relations } = checkWrite(write);
    const path = file.path;
    const ws = this.workspace;
    const firstId = this.nextChunkId();
    const records: ChunkRecord[] = chunks.map((chunk, i) => {
      const record: ChunkRecord = {
        id: firstId + i,
        file: path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        kind: chunk.kind,
        text: chunk.text,
        hash: chunk.hash,
      };
      if (chunk.name !== undefined) record.name = chunk.name;
      if (chunk.summary !== undefined) record.summary = chunk.summary;
      return record;
    });
    const ops: JournalOp[] = [
      ['DELETE FROM kg_chunks WHERE workspace = ? AND file_path = ?', [ws, path]],
      ['DELETE FROM kg_entities WHERE workspace = ? AND file_path = ?', [ws, path]],
      ['DELETE FROM kg_relations WHERE workspace = ? AND file_path = ?', [ws, path]],
      [
        UPSERT_FILE,
        [
          ws,
          path,
          file.hash,
          file.mode,
          file.state,
          file.range?.startLine ?? null,
          file.range?.endLine ?? null,
          file.language,
          file.lines,
          file.bytes,
          file.summary ?? null,
          file.embedModel,
          this.clock.now(),
          file.note ?? null,
        ],
      ],
    ];
    for (const r of records) ops.push([INSERT_CHUNK, [r.id, ws, path, r.startLine, r.endLine, r.kind, r.name ?? null, r.hash, r.summary ?? null, r.text]]);
    for (const e of entities) ops.push([INSERT_ENTITY, [ws, path, e.name, e.kind, e.line, chunkAt(records, e.line)]]);
    for (const r of relations) ops.push([INSERT_RELATION, [ws, path, r.from, r.kind, r.to, r.line ?? null]]);
    ops.push(BUMP_REVISION);
    this.db.write(ops);
    return records;
  }

  getFile(path: string): IndexedFile | undefined {
    checkPathType(path);
    const row = this.db.get(`SELECT ${FILE_COLUMNS} FROM kg_files f WHERE f.workspace = ? AND f.path = ?`, [this.workspace, path]);
    return row ? rowToFile(row) : undefined;
  }

  /** By path. */
  listFiles(): IndexedFile[] {
    return this.db.all(`SELECT ${FILE_COLUMNS} FROM kg_files f WHERE f.workspace = ? ORDER BY f.path`, [this.workspace]).map(rowToFile);
  }

  removeFile(path: string): boolean {
    checkPathType(path);
    const ws = this.workspace;
    if (!this.db.get('SELECT 1 AS found FROM kg_files WHERE workspace = ? AND path = ?', [ws, path])) return false;
    this.db.write([
      ['DELETE FROM kg_chunks WHERE workspace = ? AND file_path = ?', [ws, path]],
      ['DELETE FROM kg_entities WHERE workspace = ? AND file_path = ?', [ws, path]],
      ['DELETE FROM kg_relations WHERE workspace = ? AND file_path = ?', [ws, path]],
      ['DELETE FROM kg_files WHERE workspace = ? AND path = ?', [ws, path]],
      BUMP_REVISION,
    ]);
    return true;
  }

  chunks(path?: string): ChunkRecord[] {
    const rows =
      path === undefined
        ? this.db.all('SELECT * FROM kg_chunks WHERE workspace = ? ORDER BY file_path, start_line, id', [this.workspace])
        : (checkPathType(path), this.db.all('SELECT * FROM kg_chunks WHERE workspace = ? AND file_path = ? ORDER BY start_line, id', [this.workspace, path]));
    return rows.map(rowToChunk);
  }

  /** In the order they were given, file by file. */
  entities(path?: string): Entity[] {
    const rows =
      path === undefined
        ? this.db.all('SELECT file_path, name, kind, line FROM kg_entities WHERE workspace = ? ORDER BY file_path, rowid', [this.workspace])
        : (checkPathType(path), this.db.all('SELECT file_path, name, kind, line FROM kg_entities WHERE workspace = ? AND file_path = ? ORDER BY rowid', [this.workspace, path]));
    return rows.map((row) => ({ name: text(row.name), kind: text(row.kind), file: text(row.file_path), line: num(row.line) }));
  }

  /** In the order they were given, file by file. */
  relations(path?: string): Relation[] {
    const rows =
      path === undefined
        ? this.db.all('SELECT file_path, from_name, kind, to_name, line FROM kg_relations WHERE workspace = ? ORDER BY file_path, rowid', [this.workspace])
        : (checkPathType(path), this.db.all('SELECT file_path, from_name, kind, to_name, line FROM kg_relations WHERE workspace = ? AND file_path = ? ORDER BY rowid', [this.workspace, path]));
    return rows.map((row) => {
      const relation: Relation = { from: text(row.from_name), kind: text(row.kind) as RelationKind, to: text(row.to_name), file: text(row.file_path) };
      if (row.line !== null && row.line !== undefined) relation.line = num(row.line);
      return relation;
    });
  }

  /** Never hands out an id twice, even after the newest chunks were deleted (AUTOINCREMENT's sequence). */
  private nextChunkId(): number {
    const row = this.db.get(
      "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'kg_chunks'), 0), COALESCE((SELECT MAX(id) FROM kg_chunks), 0)) + 1 AS next",
    );
    return Number(row?.next ?? 1);
  }
}

/** The chunk holding the line (the first, when chunks overlap), or null. */
function chunkAt(records: readonly ChunkRecord[], line: number): number | null {
  for (const r of records) if (r.startLine <= line && line <= r.endLine) return r.id;
  return null;
}

function rowToFile(row: Row): IndexedFile {
  const file: IndexedFile = {
    path: text(row.path),
    hash: text(row.hash),
    mode: text(row.mode) as IndexMode,
    state: text(row.state) as IndexState,
    language: text(row.language),
    lines: num(row.lines),
    bytes: num(row.bytes),
    chunkCount: num(row.chunk_count),
    embedModel: text(row.embed_model),
    indexedAt: num(row.indexed_at),
  };
  if (row.range_start !== null && row.range_end !== null) file.range = { startLine: num(row.range_start), endLine: num(row.range_end) };
  if (row.summary !== null) file.summary = text(row.summary);
  if (row.note !== null) file.note = text(row.note);
  return file;
}

function rowToChunk(row: Row): ChunkRecord {
  const chunk: ChunkRecord = {
    id: num(row.id),
    file: text(row.file_path),
    startLine: num(row.start_line),
    endLine: num(row.end_line),
    kind: text(row.kind) as ChunkKind,
    text: text(row.text),
    hash: text(row.hash),
  };
  if (row.name !== null) chunk.name = text(row.name);
  if (row.summary !== null) chunk.summary = text(row.summary);
  return chunk;
}

function text(value: Row[string]): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

function num(value: Row[string]): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

// ---- Checks: bad input fails with a clear message before anything is written. ----

function fail(message: string): never {
  throw new PersistenceError('invalid-input', message);
}

function checkPathType(path: unknown): void {
  if (typeof path !== 'string') fail('A knowledge file path must be a string.');
}

/**
 * The key of a workspace's rows: its absolute root folder, resolved ('.' and '..' gone) and without a trailing
 * separator, so "/w/a/" and "/w/a" are one workspace. A relative or empty path would key rows by the process's
 * current folder by accident, so it is refused.
 */
export function workspaceKey(root: unknown): string {
  if (typeof root !== 'string' || root.trim() === '') fail('A knowledge store needs the workspace root folder (a non-empty absolute path).');
  if (root.includes('\0')) fail('A workspace root cannot contain NUL characters.');
  if (!isAbsolute(root)) fail(`The workspace root "${root}" must be an absolute path.`);
  // path.resolve drops trailing separators except on a filesystem root ("/", "C:\"), which must keep it.
  return resolve(root);
}

/** Workspace-relative, '/' separated, no '.' or '..' segments. */
export function checkKnowledgePath(path: unknown): string {
  if (typeof path !== 'string' || path === '') fail('A knowledge file path must be a non-empty string.');
  if (path.length > MAX_PATH) fail(`A knowledge file path can be at most ${MAX_PATH} characters (got ${path.length}).`);
  if (path.includes('\\')) fail(`The path "${path}" must use '/' separators.`);
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) fail(`The path "${path}" must be relative to the workspace, not absolute.`);
  if (path.includes('\0')) fail('A knowledge file path cannot contain NUL characters.');
  for (const segment of path.split('/')) {
    if (segment === '..') fail(`The path "${path}" must stay inside the workspace (no '..').`);
    if (segment === '' || segment === '.') fail(`The path "${path}" has an empty or '.' segment; pass it normalised (like "src/a.ts").`);
  }
  return path;
}

function checkLine(value: unknown, what: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) fail(`${what} must be a whole number ≥ 1 (got ${String(value)}).`);
  return value as number;
}

function checkCount(value: unknown, what: string): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0) fail(`${what} must be a whole number ≥ 0 (got ${String(value)}).`);
}

function checkString(value: unknown, what: string, options: { optional?: boolean; nonEmpty?: boolean } = {}): void {
  if (value === undefined && options.optional) return;
  if (typeof value !== 'string') fail(`${what} must be a string${options.optional ? ' when given' : ''} (got ${typeof value}).`);
  if (options.nonEmpty && value === '') fail(`${what} cannot be empty.`);
}

function checkOneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): void {
  if (!allowed.includes(value as T)) fail(`${what} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`);
}

function checkSpan(startLine: unknown, endLine: unknown, what: string): void {
  const start = checkLine(startLine, `${what} startLine`);
  const end = checkLine(endLine, `${what} endLine`);
  if (end < start) fail(`${what} ends before it starts (lines ${start}–${end}).`);
}

function checkWrite(write: KnowledgeWrite): KnowledgeWrite {
  if (typeof write !== 'object' || write === null) fail('putFile needs { file, chunks, entities, relations }.');
  const { file, chunks, entities, relations } = write;
  if (typeof file !== 'object' || file === null) fail('putFile needs a "file" object.');
  const path = checkKnowledgePath(file.path);
  const where = `File ${path}:`;
  checkString(file.hash, `${where} hash`, { nonEmpty: true });
  checkOneOf(file.mode, MODES, `${where} mode`);
  checkOneOf(file.state, STATES, `${where} state`);
  if (file.range !== undefined) {
    if (typeof file.range !== 'object' || file.range === null) fail(`${where} range must be { startLine, endLine }.`);
    checkSpan(file.range.startLine, file.range.endLine, `${where} range`);
  }
  checkString(file.language, `${where} language`);
  checkCount(file.lines, `${where} lines`);
  checkCount(file.bytes, `${where} bytes`);
  checkString(file.summary, `${where} summary`, { optional: true });
  checkString(file.embedModel, `${where} embedModel`);
  checkString(file.note, `${where} note`, { optional: true });
  for (const [name, list] of [['chunks', chunks], ['entities', entities], ['relations', relations]] as const) {
    if (!Array.isArray(list)) fail(`${where} "${name}" must be a list.`);
  }
  chunks.forEach((chunk, i) => {
    const at = `${where} chunk ${i + 1}`;
    if (typeof chunk !== 'object' || chunk === null) fail(`${at} must be an object.`);
    checkSpan(chunk.startLine, chunk.endLine, at);
    checkOneOf(chunk.kind, CHUNK_KINDS, `${at} kind`);
    checkString(chunk.name, `${at} name`, { optional: true });
    checkString(chunk.text, `${at} text`);
    checkString(chunk.hash, `${at} hash`, { nonEmpty: true });
    checkString(chunk.summary, `${at} summary`, { optional: true });
  });
  entities.forEach((entity, i) => {
    const at = `${where} entity ${i + 1}`;
    if (typeof entity !== 'object' || entity === null) fail(`${at} must be an object.`);
    checkString(entity.name, `${at} name`, { nonEmpty: true });
    checkString(entity.kind, `${at} kind`);
    checkLine(entity.line, `${at} line`);
    if (entity.file !== path) fail(`${at} belongs to "${String(entity.file)}", not to the file being stored.`);
  });
  relations.forEach((relation, i) => {
    const at = `${where} relation ${i + 1}`;
    if (typeof relation !== 'object' || relation === null) fail(`${at} must be an object.`);
    checkString(relation.from, `${at} from`, { nonEmpty: true });
    checkString(relation.to, `${at} to`, { nonEmpty: true });
    checkOneOf(relation.kind, RELATION_KINDS, `${at} kind`);
    if (relation.line !== undefined) checkLine(relation.line, `${at} line`);
    if (relation.file !== path) fail(`${at} belongs to "${String(relation.file)}", not to the file being stored.`);
  });
  return write;
}
