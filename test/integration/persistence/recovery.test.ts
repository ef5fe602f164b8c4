// Damaged files on disk: the store moves them aside, starts fresh, says where the old data is,
// and opens cleanly the next time (no crash loop).
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { journalPathFor } from '../../../src/persistence/journaledDatabase';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { loadSqlJs } from '../../../src/persistence/sqlJsLoader';
import type { StoreNotice } from '../../../src/persistence/types';
import { ManualClock, counterIds, tempDir } from './helpers';

const clockTime = Date.UTC(2025, 4, 6, 7, 8, 9, 10);

function open(file: string, heard: StoreNotice[] = []) {
  return SessionStore.open(file, { clock: new ManualClock(clockTime), newId: counterIds(), foldIdleMs: 0, onNotice: (n) => heard.push(n) });
}

/** Copies the database and journal as they are on disk right now: what a kill -9 would leave behind. */
function snapshotFiles(file: string, into: string): string {
  const copy = path.join(into, path.basename(file));
  copyFileSync(file, copy);
  if (existsSync(journalPathFor(file))) copyFileSync(journalPathFor(file), journalPathFor(copy));
  return copy;
}

/** A store holding one session with `count` user messages, left with its journal unfolded on disk. */
async function crashedStore(t: TestContext, count: number): Promise<string> {
  const live = path.join(tempDir(t), 'sessions.db');
  const store = await open(live);
  const s = await store.createSession({ title: 'Crashed', model: 'm', provider: 'p' });
  for (let i = 1; i <= count; i++) await store.appendMessage(s.id, { role: 'user', content: `message ${i}` });
  const copy = snapshotFiles(live, tempDir(t));
  await store.close();
  return copy;
}

async function contents(file: string): Promise<string[]> {
  const store = await open(file);
  try {
    const sessions = await store.listSessions();
    const out: string[] = [];
    for (const s of sessions) for (const m of await store.loadMessages(s.id)) out.push(m.content);
    return out;
  } finally {
    await store.close();
  }
}

test('a database file full of garbage is moved aside and a fresh one works; the notice says where', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'sessions.db');
  const garbage = Buffer.from('this is not a sqlite database, just some bytes '.repeat(200));
  writeFileSync(file, garbage);
  writeFileSync(journalPathFor(file), '{"n":1,"v":3,"ops":[]}\n');

  const heard: StoreNotice[] = [];
  const store = await open(file, heard);
  const notice = store.notices[0];
  assert.equal(store.notices.length, 1);
  assert.equal(notice?.kind, 'database-moved-aside');
  assert.deepEqual(heard, [notice]);
  const aside = `${file}.corrupt-2025-05-06T07-08-09-010Z`;
  assert.deepEqual(notice?.movedTo, [aside, `${journalPathFor(file)}.corrupt-2025-05-06T07-08-09-010Z`]);
  assert.ok(notice?.message.includes(aside), notice?.message);
  assert.match(notice?.message ?? '', /could not be read \(file is not a database\)/);
  assert.deepEqual(readFileSync(aside), garbage, 'the old bytes are kept, untouched');

  const s = await store.createSession({ title: 'After', model: 'm', provider: 'p' });
  await store.appendMessage(s.id, { role: 'user', content: 'works' });
  await store.close();

  // Next open: healthy, quiet, and the moved-aside file is still there.
  const heardAgain: StoreNotice[] = [];
  const again = await open(file, heardAgain);
  assert.deepEqual(again.notices, []);
  assert.deepEqual(heardAgain, []);
  assert.equal((await again.listSessions())[0]?.title, 'After');
  await again.close();
  assert.ok(existsSync(aside));
});

test('a truncated database file is detected and moved aside', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'sessions.db');
  const store = await open(file);
  const s = await store.createSession({ title: 'Big', model: 'm', provider: 'p' });
  for (let i = 0; i < 300; i++) await store.appendMessage(s.id, { role: 'user', content: `line ${i} `.repeat(40) });
  await store.close();
  const full = readFileSync(file).length;
  truncateSync(file, Math.floor(full / 2));

  const reopened = await open(file);
  try {
    assert.equal(reopened.notices[0]?.kind, 'database-moved-aside');
    assert.match(reopened.notices[0]?.message ?? '', /malformed/);
    assert.equal(readFileSync(reopened.notices[0]!.movedTo![0]!).length, Math.floor(full / 2));
    assert.deepEqual(await reopened.listSessions(), []);
  } finally {
    await reopened.close();
  }
});

test('a SQLite file that is not ours is moved aside instead of being half-migrated', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const SQL = await loadSqlJs();
  const foreign = new SQL.Database();
  foreign.run('CREATE TABLE sessions (something_else TEXT)');
  writeFileSync(file, foreign.export());
  foreign.close();

  const store = await open(file);
  try {
    assert.equal(store.notices[0]?.kind, 'database-moved-aside');
    assert.match(store.notices[0]?.message ?? '', /Migration 1/);
    const s = await store.createSession({ title: 'Fresh', model: 'm', provider: 'p' });
    assert.equal((await store.getSession(s.id))?.title, 'Fresh');
  } finally {
    await store.close();
  }
});

test('a torn last journal line is skipped, not fatal; everything before it is kept', async (t) => {
  const file = await crashedStore(t, 3);
  appendFileSync(journalPathFor(file), '{"n":5,"v":3,"ops":[["INSERT INTO messages (id, session_id');
  const heard: StoreNotice[] = [];
  const store = await open(file, heard);
  try {
    assert.deepEqual(heard.map((n) => n.kind), ['journal-torn-tail']);
    assert.match(heard[0]?.message ?? '', /incomplete last entry/);
    const [session] = await store.listSessions();
    assert.deepEqual((await store.loadMessages(session!.id)).map((m) => m.content), ['message 1', 'message 2', 'message 3']);
    await store.appendMessage(session!.id, { role: 'user', content: 'message 4' });
  } finally {
    await store.close();
  }
  assert.deepEqual(await contents(file), ['message 1', 'message 2', 'message 3', 'message 4']);
  assert.deepEqual(readdirSync(path.dirname(file)).filter((f) => f.includes('corrupt')), []);
});

test('a torn tail that is only NUL bytes (the file grew but the data never landed) is skipped too', async (t) => {
  const file = await crashedStore(t, 2);
  appendFileSync(journalPathFor(file), Buffer.alloc(512));
  const store = await open(file);
  try {
    assert.deepEqual(store.notices.map((n) => n.kind), ['journal-torn-tail']);
  } finally {
    await store.close();
  }
  assert.deepEqual(await contents(file), ['message 1', 'message 2']);
});

test('garbage in the middle of the journal: the part before it is recovered, the journal is kept aside', async (t) => {
  const file = await crashedStore(t, 4);
  const journal = journalPathFor(file);
  const lines = readFileSync(journal, 'utf8').split('\n');
  // Lines: 1 = session, 2..5 = messages. Damage message 3.
  lines[3] = '{"n": this is not json';
  writeFileSync(journal, lines.join('\n'));
  const original = readFileSync(journal);

  const heard: StoreNotice[] = [];
  const store = await open(file, heard);
  try {
    assert.deepEqual(heard.map((n) => n.kind), ['journal-moved-aside']);
    const moved = heard[0]!.movedTo![0]!;
    assert.match(heard[0]!.message, /damaged at line 4 \(not valid JSON\)/);
    assert.match(heard[0]!.message, /3 change\(s\) before it were recovered/);
    assert.ok(heard[0]!.message.includes(moved));
    assert.deepEqual(readFileSync(moved), original, 'the damaged journal is kept byte for byte');
    const [session] = await store.listSessions();
    assert.deepEqual((await store.loadMessages(session!.id)).map((m) => m.content), ['message 1', 'message 2']);
  } finally {
    await store.close();
  }
  // The recovered part was folded into the file, so it no longer depends on the set-aside journal.
  assert.deepEqual(await contents(file), ['message 1', 'message 2']);
});

test('a journal whose database file vanished is kept aside, not replayed onto an empty database', async (t) => {
  const file = await crashedStore(t, 1);
  rmSync(file);
  const store = await open(file);
  try {
    assert.deepEqual(store.notices.map((n) => n.kind), ['journal-moved-aside']);
    assert.match(store.notices[0]!.message, /was missing but its journal \(2 change\(s\)\) was not/);
    assert.ok(existsSync(store.notices[0]!.movedTo![0]!));
    assert.deepEqual(await store.listSessions(), []);
  } finally {
    await store.close();
  }
});
