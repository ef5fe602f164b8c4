// Opening a database file that may be damaged: garbage bytes, a truncated file, or a SQLite file that
// is not ours. The bad file is moved aside (never deleted), a fresh database takes its place, and a
// notice tells the user where the old one went. No crash loop, no silent loss.
import { existsSync, readFileSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { moveAside } from './atomicFile';
import { PersistenceError, describeError } from './errors';
import { latestVersion, readUserVersion, type Migration } from './migrations';
import { ensureJournalState } from './replay';
import type { StoreNotice } from './types';

export interface LoadedFile {
  db: Database;
  /** True when there was no usable file and `db` is empty. */
  fresh: boolean;
  /** Size of the file we loaded (0 when fresh). */
  bytes: number;
  notices: StoreNotice[];
}

export function loadDatabaseFile(
  SQL: SqlJsStatic,
  file: string,
  journalFile: string,
  migrations: readonly Migration[],
  now: number,
  /** Read-only openers must not move files: they report the damage instead. */
  onDamage: 'move-aside' | 'throw' = 'move-aside',
): LoadedFile {
  if (!existsSync(file)) return { db: emptyDatabase(SQL), fresh: true, bytes: 0, notices: [] };
  let db: Database | undefined;
  try {
    const bytes = readFileSync(file);
    db = new SQL.Database(bytes);
    tuneForMemory(db);
    checkIntegrity(db);
    ensureJournalState(db); // fails on a foreign file that happens to use the name
    const version = readUserVersion(db);
    if (version > latestVersion(migrations)) {
      throw new PersistenceError(
        'newer-schema',
        `${file} has schema version ${version}, newer than this Local Harness understands (${latestVersion(migrations)}). ` +
          'Update Local Harness, or point it at a different database file.',
      );
    }
    return { db, fresh: false, bytes: bytes.length, notices: [] };
  } catch (err) {
    db?.close();
    // A newer database is healthy: leave it alone and let the caller say so.
    if (err instanceof PersistenceError && err.code === 'newer-schema') throw err;
    if (onDamage === 'throw') {
      throw new PersistenceError('io', `The session database ${file} could not be read (${describeError(err)}).`, { cause: err });
    }
    return startFresh(SQL, file, journalFile, describeError(err), now);
  }
}

/** Moves the database and its journal aside and hands back an empty database. */
export function startFresh(SQL: SqlJsStatic, file: string, journalFile: string, reason: string, now: number): LoadedFile {
  const movedTo: string[] = [];
  if (existsSync(file)) movedTo.push(moveAside(file, now));
  // The journal describes changes to the old file; replaying it onto an empty one would half-apply it.
  if (existsSync(journalFile)) movedTo.push(moveAside(journalFile, now));
  const where = movedTo.length > 0 ? ` The old files were kept as ${movedTo.join(' and ')}.` : '';
  return {
    db: emptyDatabase(SQL),
    fresh: true,
    bytes: 0,
    notices: [
      {
        kind: 'database-moved-aside',
        message: `The session database ${file} could not be read (${reason}). A new, empty database was created.${where}`,
        movedTo,
      },
    ],
  };
}

function emptyDatabase(SQL: SqlJsStatic): Database {
  const db = new SQL.Database();
  tuneForMemory(db);
  ensureJournalState(db);
  return db;
}

/**
 * sql.js keeps the database in an in-memory file that dies with the process; durability is our journal's job. So
 * SQLite's own rollback journal can live in memory and nothing needs syncing: a transaction then costs half as much
 * (every agent edit is one), and ROLLBACK still works. Connection settings, not stored in the exported file.
 */
function tuneForMemory(db: Database): void {
  db.run('PRAGMA journal_mode = MEMORY');
  db.run('PRAGMA synchronous = OFF');
}

function checkIntegrity(db: Database): void {
  const rows = db.exec('PRAGMA quick_check');
  const first = rows[0]?.values[0]?.[0];
  if (first !== 'ok') throw new Error(`integrity check failed: ${String(first)}`);
}
