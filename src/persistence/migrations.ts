// Numbered schema migrations. The database's PRAGMA user_version is the number of the last one applied;
// opening runs the rest, in order, in one transaction (all or nothing).
import type { Database } from 'sql.js';
import { PersistenceError, describeError } from './errors';

export interface Migration {
  /** 1, 2, 3, … with no gaps: migration N takes the schema from version N-1 to N. */
  version: number;
  description: string;
  up(db: Database): void;
}

export function readUserVersion(db: Database): number {
  const result = db.exec('PRAGMA user_version');
  return Number(result[0]?.values[0]?.[0] ?? 0);
}

export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
}

/**
 * Brings `db` up to `target` (default: the latest). Returns the versions before and after.
 * Refuses a database newer than the code: an older Local Harness must not mangle it.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[],
  target = latestVersion(migrations),
): { from: number; to: number } {
  checkOrdered(migrations);
  const from = readUserVersion(db);
  if (from > latestVersion(migrations)) {
    throw new PersistenceError(
      'newer-schema',
      `This database has schema version ${from}, but this Local Harness only knows up to ${latestVersion(migrations)}. ` +
        'Update Local Harness, or point it at a different database file.',
    );
  }
  const pending = migrations.filter((m) => m.version > from && m.version <= target);
  if (pending.length === 0) return { from, to: from };
  db.run('BEGIN');
  let current: Migration | undefined;
  try {
    for (current of pending) current.up(db);
    db.run(`PRAGMA user_version = ${target}`);
    db.run('COMMIT');
  } catch (err) {
    db.run('ROLLBACK');
    throw new Error(`Migration ${current?.version} (${current?.description}) failed: ${describeError(err)}`, { cause: err });
  }
  return { from, to: target };
}

function checkOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migrations must be numbered 1..n without gaps; found ${m.version} at position ${i + 1}`);
  });
}
