// Replays the journal onto the database loaded from disk: every entry newer than the last fold, in
// order, each in its own savepoint. Stops at the first entry that is damaged or does not apply.
import type { Database } from 'sql.js';
import { describeError } from './errors';
import type { JournalProblem, JournalRead } from './journalFormat';

export interface ReplayResult {
  /** Sequence number of the last entry now in the database. */
  seq: number;
  applied: number;
  /** Where replay stopped early, if it did: everything after this point was not applied. */
  problem?: JournalProblem;
}

const STATE_TABLE = 'journal_state';

/** The journal bookkeeping table lives beside the schema, not in it: it belongs to the write path. */
export function ensureJournalState(db: Database): void {
  db.run(`CREATE TABLE IF NOT EXISTS ${STATE_TABLE} (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL)`);
  db.run(`INSERT OR IGNORE INTO ${STATE_TABLE} (id, seq) VALUES (1, 0)`);
}

export function readFoldedSeq(db: Database): number {
  return Number(db.exec(`SELECT seq FROM ${STATE_TABLE} WHERE id = 1`)[0]?.values[0]?.[0] ?? 0);
}

/** Records which journal entries the next exported file contains. Not journaled: it describes the file. */
export function writeFoldedSeq(db: Database, seq: number): void {
  db.run(`UPDATE ${STATE_TABLE} SET seq = ? WHERE id = 1`, [seq]);
}

export function replayJournal(db: Database, journal: JournalRead, schemaVersion: number): ReplayResult {
  let seq = readFoldedSeq(db);
  let applied = 0;
  let problem = journal.problem;
  db.run('BEGIN');
  try {
    for (const [index, entry] of journal.entries.entries()) {
      if (entry.n <= seq) continue; // already folded into the file before a crash cut the fold short
      if (entry.v !== schemaVersion) {
        problem = { kind: 'corrupt', line: journal.lines[index] ?? index + 1, reason: `written for schema ${entry.v}, database is at ${schemaVersion}` };
        break;
      }
      db.run('SAVEPOINT replay_entry');
      try {
        for (const [sql, params] of entry.ops) db.run(sql, params);
        db.run('RELEASE replay_entry');
      } catch (err) {
        db.run('ROLLBACK TO replay_entry');
        db.run('RELEASE replay_entry');
        problem = { kind: 'corrupt', line: journal.lines[index] ?? index + 1, reason: `does not apply: ${describeError(err)}` };
        break;
      }
      seq = entry.n;
      applied++;
    }
    db.run('COMMIT');
  } catch (err) {
    db.run('ROLLBACK');
    throw err;
  }
  return problem ? { seq, applied, problem } : { seq, applied };
}
