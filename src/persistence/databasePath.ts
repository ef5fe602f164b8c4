// Which file a database path really names, and whether it is ours to open. A mistyped `--db .` or
// `--db src/main.c` must be refused before anything on disk changes: only a file we recognise as one of
// our databases (or nothing at all) is opened, and only a recognisably damaged one of ours is moved aside.
// Symlinks are followed so the link's target gets the writes and the lock (a process on the link and one
// on the target must exclude each other).
import { closeSync, existsSync, lstatSync, openSync, readFileSync, readSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { PersistenceError } from './errors';
import type { Migration } from './migrations';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const MAX_LINKS = 40;
/** The names our database files have (sessions.db, index.db). */
const DATABASE_NAME = /\.db$/i;

/** The absolute path that writes must go to: symlinks resolved, even one whose target does not exist yet. */
export function realDatabasePath(file: string): string {
  let current = path.resolve(file);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      // Nothing there: resolve the folder it would be created in (it may itself be reached through links).
      return path.join(realFolder(path.dirname(current)), path.basename(current));
    }
    if (!isLink) return realpathSync(current);
    current = path.resolve(path.dirname(current), readlinkSync(current));
  }
  throw new PersistenceError('not-a-database', `${file} is a chain of more than ${MAX_LINKS} symbolic links; pass the database file itself.`);
}

function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder; // not created yet: open() makes it
  }
}

export type DatabaseFileState =
  /** Nothing at the path (or an empty file): a new database is made there. */
  | 'new'
  /** One of ours, healthy or damaged: loading decides, and moves it aside if it cannot be read. */
  | 'ours';

/**
 * Refuses (PersistenceError "not-a-database") a folder, a device, a file that is not SQLite, and a SQLite
 * file holding someone else's tables, unless our journal lies beside it (then it is ours, damaged).
 * Reads only; never writes.
 */
export function classifyDatabaseFile(
  SQL: SqlJsStatic,
  real: string,
  journalFile: string,
  migrations: readonly Migration[],
  shownAs: string = real,
  /** Only our databases can be at this path: any file there is ours, perhaps damaged. */
  owned = false,
): DatabaseFileState {
  let stat;
  try {
    stat = statSync(real);
  } catch {
    return 'new';
  }
  if (stat.isDirectory()) {
    throw new PersistenceError(
      'not-a-database',
      `${shownAs} is a folder, not a session database file; pass a file path such as ${path.join(shownAs, 'sessions.db')}`,
    );
  }
  if (!stat.isFile()) throw new PersistenceError('not-a-database', `${shownAs} is not a regular file; pass a session database file.`);
  if (stat.size === 0) return 'new';
  const ourJournal = owned || existsSync(journalFile);
  // Unreadable bytes under a database file name (sessions.db) are taken for a damaged database of ours: moved
  // aside, kept, never deleted. Any other name (main.c, notes.txt) is someone's file and is refused.
  const damagedOurs = ourJournal || DATABASE_NAME.test(real);
  if (!hasSqliteHeader(real)) {
    if (damagedOurs) return 'ours'; // our file, overwritten or damaged: loading moves it aside
    throw new PersistenceError(
      'not-a-database',
      `${shownAs} is not a Local Harness session database (not a SQLite file); it was left untouched. Pass another --db path.`,
    );
  }
  const tables = tableNames(SQL, real);
  if (tables === undefined) {
    if (damagedOurs) return 'ours';
    throw new PersistenceError(
      'not-a-database',
      `${shownAs} is a damaged SQLite file that is not recognisably a Local Harness database; it was left untouched. Pass another --db path.`,
    );
  }
  if (tables.length === 0) return 'new';
  const own = ourTableNames(SQL, migrations);
  if (ourJournal || tables.some((name) => own.has(name))) return 'ours';
  throw new PersistenceError(
    'not-a-database',
    `${shownAs} is a SQLite database of another program (tables: ${tables.slice(0, 5).join(', ')}); it was left untouched. Pass another --db path.`,
  );
}

function hasSqliteHeader(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/** The tables in a SQLite file, or undefined when even its schema cannot be read. */
function tableNames(SQL: SqlJsStatic, file: string): string[] | undefined {
  let db: Database | undefined;
  try {
    db = new SQL.Database(readFileSync(file));
    const rows = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    return (rows[0]?.values ?? []).map((row) => String(row[0]));
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

const ownNamesCache = new WeakMap<readonly Migration[], Set<string>>();

/** The tables our migrations create (plus the journal's own), found by running them on an empty database. */
function ourTableNames(SQL: SqlJsStatic, migrations: readonly Migration[]): Set<string> {
  const cached = ownNamesCache.get(migrations);
  if (cached) return cached;
  const names = new Set<string>(['journal_state']);
  const db = new SQL.Database();
  try {
    for (const migration of migrations) {
      try {
        migration.up(db);
      } catch {
        break;
      }
    }
    for (const row of db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0]?.values ?? []) names.add(String(row[0]));
  } finally {
    db.close();
  }
  ownNamesCache.set(migrations, names);
  return names;
}
