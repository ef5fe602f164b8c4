// Databases written by older schema versions open, upgrade in place and keep their data.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { test } from 'node:test';
import type { Database } from 'sql.js';
import { PersistenceError } from '../../../src/persistence/errors';
import { journalPathFor } from '../../../src/persistence/journaledDatabase';
import { latestVersion, migrate, readUserVersion, type Migration } from '../../../src/persistence/migrations';
import { SESSION_MIGRATIONS } from '../../../src/persistence/schema';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { loadSqlJs } from '../../../src/persistence/sqlJsLoader';
import { ManualClock, tempDir } from './helpers';

async function newDatabase(): Promise<Database> {
  const SQL = await loadSqlJs();
  return new SQL.Database();
}

/** A database file exactly as a Local Harness at `version` would have left it. */
async function writeOldDatabase(file: string, version: number, fill: (db: Database) => void): Promise<void> {
  const db = await newDatabase();
  migrate(db, SESSION_MIGRATIONS, version);
  assert.equal(readUserVersion(db), version);
  fill(db);
  writeFileSync(file, db.export());
  db.close();
}

async function fileVersion(file: string): Promise<number> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    return readUserVersion(db);
  } finally {
    db.close();
  }
}

test('a version-1 database upgrades to the latest schema and keeps its sessions and messages', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  await writeOldDatabase(file, 1, (db) => {
    db.run("INSERT INTO sessions VALUES ('old', 'From v1', 'llama3', 'ollama', 100, 200, 'active')");
    db.run("INSERT INTO messages VALUES (1, 'old', 1, 'user', 'hello from v1', NULL, NULL, NULL, NULL, 150)");
    db.run(`INSERT INTO messages VALUES (2, 'old', 2, 'assistant', '', 'hmm', '[{"id":"c1","name":"ls","arguments":{}}]', NULL, NULL, 160)`);
    db.run("INSERT INTO kv VALUES ('calibration:llama3', '1.2', 100)");
  });

  const store = await SessionStore.open(file, { clock: new ManualClock(), foldIdleMs: 0 });
  try {
    assert.deepEqual(store.notices, []);
    const [session] = await store.listSessions();
    assert.equal(session?.title, 'From v1');
    assert.equal(session?.messageCount, 2);
    assert.equal(session?.turnOpen, false);
    const messages = await store.loadMessages('old');
    assert.deepEqual(messages.map((m) => [m.id, m.role, m.content, m.displayOnly]), [
      [1, 'user', 'hello from v1', false],
      [2, 'assistant', '', false],
    ]);
    assert.deepEqual(messages[1]?.toolCalls, [{ id: 'c1', name: 'ls', arguments: {} }]);
    assert.equal(await store.getKv('calibration:llama3'), 1.2);
    // Tables from later versions work.
    await store.pushCheckpoint('old', '/w/a.ts', 'before');
    await store.recordToolAudit({ sessionId: 'old', toolCallId: 'c1', name: 'ls', arguments: {}, approval: 'auto', durationMs: 3, outcome: 'ok' });
    assert.equal(await store.appendMessage('old', { role: 'user', content: 'after upgrade' }), 3);
  } finally {
    await store.close();
  }
  // The upgrade reached the file itself.
  assert.equal(await fileVersion(file), latestVersion(SESSION_MIGRATIONS));
});

test('a version-2 database with unfolded journal entries replays them, then upgrades', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  await writeOldDatabase(file, 2, (db) => {
    db.run("INSERT INTO sessions (id, title, model, provider, created_at, updated_at) VALUES ('s', 'From v2', 'm', 'p', 1, 1)");
  });
  // What a version-2 Local Harness would have journaled before it was killed.
  const entry = {
    n: 1,
    v: 2,
    ops: [
      [
        'INSERT INTO messages (id, session_id, seq, role, content, display_only, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [1, 's', 1, 'user', 'journaled under v2', 0, 5],
      ],
    ],
  };
  writeFileSync(journalPathFor(file), `${JSON.stringify(entry)}\n`);

  const store = await SessionStore.open(file, { foldIdleMs: 0 });
  try {
    assert.deepEqual((await store.loadMessages('s')).map((m) => m.content), ['journaled under v2']);
  } finally {
    await store.close();
  }
  assert.equal(await fileVersion(file), latestVersion(SESSION_MIGRATIONS));
  assert.equal(readFileSync(journalPathFor(file), 'utf8'), '', 'the old-schema journal was folded before any new-schema entry');
});

test('a version-10 database whose journal carries checkpoint bytes as hex (unhex) replays them exactly, then upgrades', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const deflated = deflateRawSync(Buffer.from('const a = 1;\n'.repeat(100)));
  await writeOldDatabase(file, 10, (db) => {
    db.run("INSERT INTO sessions (id, title, model, provider, created_at, updated_at) VALUES ('s', 'From v10', 'm', 'p', 1, 1)");
    db.run("INSERT INTO file_checkpoints (id, session_id, path, before, encoding, created_at, undone) VALUES (1, 's', '/w/folded.bin', X'00FF10', NULL, 1, 0)");
  });
  // What a version-10 Local Harness journaled before it was killed: BLOBs as hex text turned back by unhex().
  const insert = (id: number, hex: string, encoding: string | null) => [
    `INSERT INTO file_checkpoints (id, session_id, path, before, encoding, created_at, undone, op_id, message_id) VALUES (?, ?, ?, unhex(?), ?, ?, 0, ?, ?)`,
    [id, 's', `/w/${id}.ts`, hex, encoding, 5, null, null],
  ];
  const entry = { n: 1, v: 10, ops: [insert(2, deflated.toString('hex'), 'deflate'), insert(3, '', null)] };
  writeFileSync(journalPathFor(file), `${JSON.stringify(entry)}\n`);

  const store = await SessionStore.open(file, { foldIdleMs: 0 });
  try {
    const byPath = new Map((await store.listCheckpoints('s')).map((c) => [c.path, c.before]));
    assert.deepEqual(byPath.get('/w/2.ts'), new Uint8Array(Buffer.from('const a = 1;\n'.repeat(100))));
    assert.deepEqual(byPath.get('/w/3.ts'), new Uint8Array(0), 'an empty file stays an empty file, not "no file"');
    assert.deepEqual(byPath.get('/w/folded.bin'), new Uint8Array([0, 255, 16]));
    // The upgrade counted what the old rows hold, so the size bound sees them.
    assert.equal(store.checkpointHistory.storedBytes(), deflated.length + 3);
  } finally {
    await store.close();
  }
  assert.equal(await fileVersion(file), latestVersion(SESSION_MIGRATIONS));
});

test('a version-11 database gains the size index: the size bound sums the sizes without reading the stored files', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  await writeOldDatabase(file, 11, (db) => {
    db.run("INSERT INTO sessions (id, title, model, provider, created_at, updated_at) VALUES ('s', 'From v11', 'm', 'p', 1, 1)");
    for (let id = 1; id <= 3; id++) {
      db.run('INSERT INTO file_checkpoints (id, session_id, path, before, encoding, stored_bytes, created_at, undone) VALUES (?, ?, ?, ?, NULL, ?, 1, 0)', [
        id,
        's',
        `/w/${id}.bin`,
        new Uint8Array(10_000 * id),
        10_000 * id,
      ]);
    }
  });
  const store = await SessionStore.open(file, { foldIdleMs: 0 });
  try {
    assert.equal(store.checkpointHistory.storedBytes(), 60_000);
  } finally {
    await store.close();
  }
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    // The same statement as SqlCheckpointHistory.storedBytes: answered from the index alone, never the table's rows.
    const plan = db.exec('EXPLAIN QUERY PLAN SELECT COALESCE(SUM(stored_bytes), 0) AS n FROM file_checkpoints')[0]!.values.map((row) => String(row[3]));
    assert.deepEqual(plan, ['SCAN file_checkpoints USING COVERING INDEX file_checkpoints_by_size']);
  } finally {
    db.close();
  }
});

test('a database from a newer Local Harness is refused and left exactly as it was', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'sessions.db');
  await writeOldDatabase(file, latestVersion(SESSION_MIGRATIONS), (db) => db.run('PRAGMA user_version = 99'));
  const bytes = readFileSync(file);
  await assert.rejects(
    SessionStore.open(file),
    (err: unknown) => err instanceof PersistenceError && err.code === 'newer-schema' && /schema version 99/.test(err.message),
  );
  assert.deepEqual(readFileSync(file), bytes);
  assert.deepEqual(readdirSync(dir).sort(), ['sessions.db'], 'nothing moved aside, no lock left behind');
});

test('migrate rejects numbering gaps and rolls a failed migration back completely', async () => {
  const db = await newDatabase();
  try {
    const gap: Migration[] = [
      { version: 1, description: 'one', up: (d) => d.run('CREATE TABLE a (x)') },
      { version: 3, description: 'three', up: (d) => d.run('CREATE TABLE c (x)') },
    ];
    assert.throws(() => migrate(db, gap), /without gaps/);

    const failing: Migration[] = [
      { version: 1, description: 'one', up: (d) => d.run('CREATE TABLE a (x)') },
      { version: 2, description: 'broken', up: (d) => d.run('CREATE TABLE a (y)') },
    ];
    assert.throws(() => migrate(db, failing), /Migration 2 \(broken\) failed/);
    assert.equal(readUserVersion(db), 0);
    assert.deepEqual(db.exec("SELECT name FROM sqlite_master WHERE name = 'a'"), [], 'migration 1 was rolled back too');

    assert.deepEqual(migrate(db, failing.slice(0, 1)), { from: 0, to: 1 });
    assert.deepEqual(migrate(db, failing.slice(0, 1)), { from: 1, to: 1 }, 'running again is a no-op');
  } finally {
    db.close();
  }
});
