// The write path. sql.js keeps the database in memory and can only save it by exporting the whole
// file, which costs more the bigger the database. So a change is applied in memory and appended to a
// journal (one fsync'd line); the journal is folded into the file in the background (export → temp
// file → fsync → atomic rename → drop the folded entries). Saving one change costs the same at any
// size, and a kill -9 loses at most the change being written. Opening loads the file and replays the
// journal.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Database, SqlValue, Statement } from 'sql.js';
import { systemClock, type Clock } from '../core/ports';
import { moveAside, writeFileAtomic } from './atomicFile';
import { classifyDatabaseFile, realDatabasePath } from './databasePath';
import { PersistenceError, describeError } from './errors';
import { acquireLock, type FileLock } from './fileLock';
import { readJournalFile, type JournalEntry, type JournalOp } from './journalFormat';
import { nodeJournalFs, type JournalFs } from './journalFs';
import { JournalWriter } from './journalWriter';
import { migrate, readUserVersion, type Migration } from './migrations';
import { corruptJournalNotice, orphanJournalNotice, tornTailNotice } from './notices';
import { loadDatabaseFile, startFresh } from './recovery';
import { replayJournal, writeFoldedSeq } from './replay';
import { loadSqlJs } from './sqlJsLoader';
import type { StoreNotice } from './types';

export type Row = Record<string, SqlValue>;

export interface JournaledDatabaseOptions {
  migrations: readonly Migration[];
  /** Path to sql-wasm.wasm; by default next to the bundle, then in node_modules/sql.js. */
  wasmPath?: string;
  clock?: Clock;
  journalFs?: JournalFs;
  /** Take `<file>.lock` so a second process cannot open the same database (default true). */
  lock?: boolean;
  /** Fold once the journal is this big… (default 1 MiB) */
  foldMinBytes?: number;
  /** …or this fraction of the database file, whichever is larger (default 0.25), so folding stays cheap per change. */
  foldRatio?: number;
  /** Fold after this long without writes (default 10 s; 0 = only by size, flush() and close()). */
  foldIdleMs?: number;
  onNotice?: (notice: StoreNotice) => void;
  signal?: AbortSignal;
  /**
   * The path is ours by construction (the editor's own storage folder), so whatever file is there is a damaged
   * database of ours and may be moved aside. Unset (a path the user typed), someone else's file is refused.
   */
  ownedPath?: boolean;
  /**
   * Look without touching: no lock (a running agent may hold it), no journal writes, no folds, nothing
   * moved aside. Shows the file plus the journal as it is at open time. Writes fail with "read-only".
   */
  readOnly?: boolean;
}

export class JournaledDatabase {
  readonly journalFile: string;
  /** Everything the user should be told about (recoveries at open, failed background folds). */
  readonly notices: StoreNotice[] = [];
  private seq: number;
  private foldedSeq: number;
  private mustFold = false;
  private dbBytes = 0;
  private folding: Promise<void> | undefined;
  private foldTimer: ReturnType<typeof setTimeout> | undefined;
  private foldFailing = false;
  private closed = false;
  /** Prepared statements by SQL text: the store runs the same few statements over and over. */
  private readonly statements = new Map<string, Statement>();

  private constructor(
    readonly file: string,
    private readonly db: Database,
    /** Undefined when read-only. */
    private readonly journal: JournalWriter | undefined,
    private readonly lock: FileLock | undefined,
    private readonly options: JournaledDatabaseOptions,
    private readonly version: number,
    seq: number,
  ) {
    this.journalFile = journalPathFor(file);
    this.seq = seq;
    this.foldedSeq = seq;
  }

  static async open(file: string, options: JournaledDatabaseOptions): Promise<JournaledDatabase> {
    options.signal?.throwIfAborted();
    if (options.readOnly) return JournaledDatabase.openReadOnly(file, options);
    // Writes and the lock go to the real file, so a symlinked path stays a link and its target is shared safely.
    const absolute = realDatabasePath(file);
    const journalFile = journalPathFor(absolute);
    const now = () => (options.clock ?? systemClock).now();
    // Refuse a folder or someone else's file before anything (lock, temp files, folders) touches the disk.
    classifyDatabaseFile(await loadSqlJs(options.wasmPath), absolute, journalFile, options.migrations, path.resolve(file), options.ownedPath === true);
    options.signal?.throwIfAborted();
    mkdirSync(path.dirname(absolute), { recursive: true });
    const lock = options.lock === false ? undefined : acquireLock(`${absolute}.lock`, `The session database ${absolute}`);
    let db: Database | undefined;
    try {
      removeStaleTempFiles(absolute, journalFile);
      const SQL = await loadSqlJs(options.wasmPath);
      options.signal?.throwIfAborted();
      const loaded = loadDatabaseFile(SQL, absolute, journalFile, options.migrations, now());
      db = loaded.db;
      const notices = [...loaded.notices];
      let mustFold = loaded.fresh;

      let journalRead = readJournalFile(journalFile);
      if (loaded.fresh && loaded.notices.length === 0 && journalRead.entries.length > 0) {
        // The file is gone but its journal is not: the journal alone cannot rebuild it.
        const movedTo = moveAside(journalFile, now());
        notices.push(orphanJournalNotice(absolute, journalRead.entries.length, movedTo));
        journalRead = { entries: [], lines: [], goodBytes: 0, totalBytes: 0 };
      }
      const replay = replayJournal(db, journalRead, readUserVersion(db));
      let keepBytes: number | undefined;
      if (replay.problem?.kind === 'torn-tail') {
        keepBytes = journalRead.goodBytes;
        notices.push(tornTailNotice(journalFile, replay.problem, journalRead.totalBytes - journalRead.goodBytes));
      } else if (replay.problem) {
        const movedTo = moveAside(journalFile, now());
        notices.push(corruptJournalNotice(journalFile, replay.problem, replay.applied, movedTo));
        mustFold = true; // the replayed part now lives only in memory
      }

      try {
        const { from, to } = migrate(db, options.migrations);
        if (from !== to) mustFold = true; // journal entries from now on are for the new schema
      } catch (err) {
        if (err instanceof PersistenceError && err.code === 'newer-schema') throw err;
        // A SQLite file that is not ours (or half-upgraded by something else): set it aside.
        db.close();
        const fresh = startFresh(SQL, absolute, journalFile, describeError(err), now());
        db = fresh.db;
        notices.push(...fresh.notices);
        migrate(db, options.migrations);
        mustFold = true;
        keepBytes = undefined;
      }

      const journal = JournalWriter.open(journalFile, options.journalFs ?? nodeJournalFs, keepBytes);
      const store = new JournaledDatabase(absolute, db, journal, lock, options, readUserVersion(db), replay.seq);
      store.mustFold = mustFold;
      store.dbBytes = loaded.bytes;
      for (const notice of notices) store.notify(notice);
      if (mustFold) {
        try {
          await store.fold();
        } catch (err) {
          journal.close();
          throw err;
        }
      }
      return store;
    } catch (err) {
      db?.close();
      lock?.release();
      throw err;
    }
  }

  private static async openReadOnly(file: string, options: JournaledDatabaseOptions): Promise<JournaledDatabase> {
    const absolute = realDatabasePath(file);
    if (!existsSync(absolute)) throw new PersistenceError('not-found', `No session database at ${absolute}.`);
    const SQL = await loadSqlJs(options.wasmPath);
    options.signal?.throwIfAborted();
    const now = (options.clock ?? systemClock).now();
    const { db } = loadDatabaseFile(SQL, absolute, journalPathFor(absolute), options.migrations, now, 'throw');
    try {
      // A writer may be appending right now: a torn last line is just its write in progress.
      const replay = replayJournal(db, readJournalFile(journalPathFor(absolute)), readUserVersion(db));
      const store = new JournaledDatabase(absolute, db, undefined, undefined, options, readUserVersion(db), replay.seq);
      if (replay.problem?.kind === 'corrupt') {
        store.notify({
          kind: 'journal-damaged',
          message: `The session journal ${journalPathFor(absolute)} is damaged at line ${replay.problem.line} (${replay.problem.reason}); showing the changes before it. Open the database normally to recover.`,
        });
      }
      migrate(db, options.migrations); // in memory only, so this code can read an older file
      return store;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  get readOnly(): boolean {
    return this.journal === undefined;
  }

  get schemaVersion(): number {
    return this.version;
  }

  /** Bytes in the journal that the database file does not contain yet. */
  get journalBytes(): number {
    return this.journal?.size ?? 0;
  }

  all(sql: string, params: SqlValue[] = []): Row[] {
    const statement = this.prepare(sql);
    try {
      statement.bind(params);
      const rows: Row[] = [];
      // getAsObject() asks SQLite for every column name again on every row: 5–10× the cost of the values
      // themselves (opening a 10,000-message session). The names are the same for every row of a statement.
      let names: string[] | undefined;
      while (statement.step()) {
        names ??= statement.getColumnNames();
        const values = statement.get();
        const row: Row = {};
        for (let i = 0; i < names.length; i++) row[names[i]!] = values[i]!;
        rows.push(row);
      }
      return rows;
    } finally {
      statement.reset();
    }
  }

  get(sql: string, params: SqlValue[] = []): Row | undefined {
    return this.all(sql, params)[0];
  }

  /**
   * Applies the statements as one transaction and journals them. Durable when it returns. If a
   * statement fails or the journal cannot be written, nothing changes, in memory or on disk.
   */
  write(ops: JournalOp[]): void {
    this.commit(ops, (entry, journal) => journal.append(entry));
  }

  /**
   * write(), except that the journal's fsync runs in the thread pool: the change is applied and its bytes are in
   * the journal when this returns (so it keeps its place among later writes), durable when the promise resolves.
   * For a caller with its own I/O to overlap (a checkpoint and the edit's temp file wait for the disk together).
   * A failed fsync closes the journal (see JournalWriter.appendThenSync): later writes fail with code "closed".
   */
  writeThenSync(ops: JournalOp[]): Promise<void> {
    return this.commit(ops, (entry, journal) => journal.appendThenSync(entry)) ?? Promise.resolve();
  }

  private commit<T>(ops: JournalOp[], append: (entry: JournalEntry, journal: JournalWriter) => T): T | undefined {
    const db = this.requireOpen();
    const journal = this.journal;
    if (!journal) throw new PersistenceError('read-only', `The session database ${this.file} was opened read-only.`);
    if (ops.length === 0) return undefined;
    this.prepare('BEGIN').run();
    try {
      for (const [sql, params] of ops) this.prepare(sql).run(params);
    } catch (err) {
      db.run('ROLLBACK');
      throw new PersistenceError('invalid-input', `Could not save the change: ${describeError(err)}`, { cause: err });
    }
    let appended: T;
    try {
      appended = append({ n: this.seq + 1, v: this.version, ops }, journal);
    } catch (err) {
      db.run('ROLLBACK');
      throw err;
    }
    this.prepare('COMMIT').run();
    this.seq++;
    this.afterWrite();
    return appended;
  }

  /** Writes everything so far into the database file. Resolves when it is there. */
  async fold(signal?: AbortSignal): Promise<void> {
    while (this.folding) await this.folding.catch(() => undefined);
    signal?.throwIfAborted();
    if (this.closed || !this.journal || (!this.mustFold && this.seq === this.foldedSeq)) return;
    this.folding = this.foldOnce();
    try {
      await this.folding;
    } finally {
      this.folding = undefined;
    }
  }

  /** Folds, then releases the file. Later calls fail with code "closed". */
  async close(): Promise<void> {
    if (this.closed) return;
    this.cancelFoldTimer();
    try {
      await this.fold();
    } finally {
      this.closed = true;
      this.cancelFoldTimer();
      this.journal?.close();
      for (const statement of this.statements.values()) statement.free();
      this.statements.clear();
      this.db.close();
      this.lock?.release();
    }
  }

  private async foldOnce(): Promise<void> {
    const db = this.requireOpen();
    const journal = this.journal!;
    const seq = this.seq;
    writeFoldedSeq(db, seq);
    const bytes = db.export();
    // Entries appended while the file is written stay in the journal: remember where they start.
    const journalOffset = journal.size;
    await writeFileAtomic(this.file, bytes);
    // dropPrefix replaces the journal's file: no fsync of the old one may still be in flight.
    await journal.settle();
    journal.dropPrefix(journalOffset);
    this.foldedSeq = seq;
    this.mustFold = false;
    this.dbBytes = bytes.length;
    this.foldFailing = false;
  }

  private afterWrite(): void {
    const threshold = Math.max(this.options.foldMinBytes ?? 1024 * 1024, this.dbBytes * (this.options.foldRatio ?? 0.25));
    // While a fold runs the journal still looks big; it shrinks to the new entries when the fold ends.
    if (this.journalBytes >= threshold && !this.folding) this.scheduleFold(0);
    else if ((this.options.foldIdleMs ?? 10_000) > 0) this.scheduleFold(this.options.foldIdleMs ?? 10_000);
  }

  private scheduleFold(delayMs: number): void {
    this.cancelFoldTimer();
    this.foldTimer = setTimeout(() => {
      this.foldTimer = undefined;
      this.fold().catch((err) => this.reportFoldFailure(err));
    }, delayMs);
    // A pending fold must not keep the process alive; close() folds anyway.
    this.foldTimer.unref?.();
  }

  private cancelFoldTimer(): void {
    if (this.foldTimer) clearTimeout(this.foldTimer);
    this.foldTimer = undefined;
  }

  private reportFoldFailure(err: unknown): void {
    if (this.foldFailing || this.closed) return;
    this.foldFailing = true; // say it once, not on every retry
    this.notify({
      kind: 'fold-failed',
      message: `Could not write the session database ${this.file} (${describeError(err)}). Nothing is lost: changes stay in ${this.journalFile} and will be retried.`,
    });
  }

  /** Records a notice and tells the listener. */
  notify(notice: StoreNotice): void {
    this.notices.push(notice);
    try {
      this.options.onNotice?.(notice);
    } catch {
      // A broken listener must not break the store.
    }
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.requireOpen().prepare(sql);
      if (this.statements.size >= 200) {
        // Callers build SQL from a fixed set of strings; this is only a backstop.
        const [oldestSql, oldest] = this.statements.entries().next().value as [string, Statement];
        oldest.free();
        this.statements.delete(oldestSql);
      }
      this.statements.set(sql, statement);
    } else {
      this.requireOpen();
    }
    return statement;
  }

  private requireOpen(): Database {
    if (this.closed) throw new PersistenceError('closed', `The session database ${this.file} is closed.`);
    return this.db;
  }
}

export function journalPathFor(file: string): string {
  // Not "<file>-journal": SQLite itself would take that for its own rollback journal.
  return `${file}.journal.jsonl`;
}

/** Temp files a killed fold left behind. Safe to remove: we hold the lock, so no fold is running. */
function removeStaleTempFiles(file: string, journalFile: string): void {
  const dir = path.dirname(file);
  const prefixes = [`${path.basename(file)}.tmp-`, `${path.basename(journalFile)}.tmp`];
  for (const name of readdirSync(dir)) {
    if (!prefixes.some((p) => name.startsWith(p))) continue;
    try {
      rmSync(path.join(dir, name), { force: true });
    } catch {
      // Not ours to fight over (a directory, permissions): a fold will report it if it gets in the way.
    }
  }
}
