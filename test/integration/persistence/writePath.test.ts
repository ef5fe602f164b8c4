// The write path: a saved message is a durable journal line, not a rewrite of the database file;
// folding moves the journal into the file without ever losing or duplicating a change.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { PersistenceError } from '../../../src/persistence/errors';
import { journalPathFor } from '../../../src/persistence/journaledDatabase';
import { parseJournal } from '../../../src/persistence/journalFormat';
import { RealJournalFs } from '../../helpers/persistence/realJournalFs';
import { SessionStore, type SessionStoreOptions } from '../../../src/persistence/sessionStore';
import { loadSqlJs } from '../../../src/persistence/sqlJsLoader';
import { counterIds, tempDir } from './helpers';

const quiet: SessionStoreOptions = { newId: counterIds(), foldIdleMs: 0 };

/** Message contents in the database file itself (ignoring the journal). */
async function contentsInFile(file: string): Promise<string[]> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    return (db.exec('SELECT content FROM messages ORDER BY id')[0]?.values ?? []).map((row) => String(row[0]));
  } finally {
    db.close();
  }
}

async function contentsAfterReopen(file: string): Promise<string[]> {
  const store = await SessionStore.open(file, quiet);
  try {
    assert.deepEqual(store.notices, []);
    const out: string[] = [];
    for (const s of await store.listSessions()) for (const m of await store.loadOriginalMessages(s.id)) out.push(m.content);
    return out;
  } finally {
    await store.close();
  }
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await sleep(10);
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('saving a message appends one durable journal line and leaves the database file alone', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await SessionStore.open(file, quiet);
  try {
    const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
    const fileBefore = readFileSync(file);
    const mtimeBefore = statSync(file).mtimeMs;

    for (let i = 1; i <= 5; i++) {
      const id = await store.appendMessage(s.id, { role: 'user', content: `m${i}` });
      // Durable when the promise resolves: the line is in the journal file now.
      const journal = parseJournal(readFileSync(journalPathFor(file)));
      assert.equal(journal.problem, undefined);
      assert.equal(journal.entries.length, 1 + i);
      assert.equal(journal.entries.at(-1)?.ops[0]?.[1][0], id);
    }
    assert.deepEqual(readFileSync(file), fileBefore, 'the database file was not rewritten');
    assert.equal(statSync(file).mtimeMs, mtimeBefore);

    await store.flush();
    assert.equal(statSync(journalPathFor(file)).size, 0, 'flush empties the journal');
    assert.deepEqual(await contentsInFile(file), ['m1', 'm2', 'm3', 'm4', 'm5']);
  } finally {
    await store.close();
  }
});

test('changes made while a fold is writing the file stay in the journal and survive', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'sessions.db');
  const store = await SessionStore.open(file, quiet);
  const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
  await store.appendMessage(s.id, { role: 'user', content: 'before fold' });
  const folding = store.flush(); // takes its snapshot now, writes the file asynchronously
  await store.appendMessage(s.id, { role: 'user', content: 'during fold' });
  await folding;

  assert.deepEqual(await contentsInFile(file), ['before fold'], 'the fold wrote its snapshot');
  const journal = parseJournal(readFileSync(journalPathFor(file)));
  assert.equal(journal.entries.length, 1, 'only the change made during the fold is left');
  // Crash now: the copy on disk must still hold both.
  const crashDir = path.join(dir, 'crash');
  mkdirSync(crashDir);
  copyFileSync(file, path.join(crashDir, 'sessions.db'));
  copyFileSync(journalPathFor(file), journalPathFor(path.join(crashDir, 'sessions.db')));
  await store.close();
  assert.deepEqual(await contentsAfterReopen(path.join(crashDir, 'sessions.db')), ['before fold', 'during fold']);
  assert.deepEqual(await contentsAfterReopen(file), ['before fold', 'during fold']);
});

test('a crash after the fold renamed the file but before it emptied the journal replays nothing twice', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await SessionStore.open(file, quiet);
  const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
  await store.appendMessage(s.id, { role: 'user', content: 'one' });
  await store.appendMessage(s.id, { role: 'user', content: 'two' });
  const journalBeforeFold = readFileSync(journalPathFor(file));
  await store.flush();
  await store.appendMessage(s.id, { role: 'user', content: 'three' });
  const journalAfter = readFileSync(journalPathFor(file));
  await store.close();
  // Put the folded entries back in front, as if the journal had never been cut.
  writeFileSync(journalPathFor(file), Buffer.concat([journalBeforeFold, journalAfter]));
  assert.deepEqual(await contentsAfterReopen(file), ['one', 'two', 'three']);
});

test('the journal is folded in the background once it is big enough', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await SessionStore.open(file, { ...quiet, foldMinBytes: 2000, foldRatio: 0 });
  try {
    const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
    await store.appendMessage(s.id, { role: 'user', content: 'small' });
    await sleep(50);
    assert.ok(statSync(journalPathFor(file)).size > 0, 'below the threshold nothing is folded');
    await store.appendMessage(s.id, { role: 'user', content: 'x'.repeat(3000) });
    await waitFor(() => statSync(journalPathFor(file)).size === 0, 'the background fold');
    assert.deepEqual(await contentsInFile(file), ['small', 'x'.repeat(3000)]);
  } finally {
    await store.close();
  }
});

test('the journal is folded after a quiet spell', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await SessionStore.open(file, { ...quiet, foldIdleMs: 30 });
  try {
    const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
    await store.appendMessage(s.id, { role: 'user', content: 'idle' });
    await waitFor(() => statSync(journalPathFor(file)).size === 0, 'the idle fold');
    assert.deepEqual(await contentsInFile(file), ['idle']);
  } finally {
    await store.close();
  }
});

test('a fold that cannot write the file loses nothing and says so once', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const heard: string[] = [];
  const store = await SessionStore.open(file, { ...quiet, foldMinBytes: 1, foldRatio: 0, onNotice: (n) => heard.push(n.kind) });
  // A directory where the fold wants its temp file: opening it for writing fails (EISDIR).
  const obstacle = `${file}.tmp-${process.pid}`;
  mkdirSync(obstacle);
  const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
  await store.appendMessage(s.id, { role: 'user', content: 'kept in the journal' });
  await waitFor(() => heard.length > 0, 'the fold-failed notice');
  await store.appendMessage(s.id, { role: 'user', content: 'still saved' });
  await sleep(30);
  assert.deepEqual(heard, ['fold-failed']);
  assert.match(store.notices[0]!.message, /Nothing is lost/);
  await assert.rejects(store.flush(), /EISDIR/);
  await assert.rejects(store.close(), /EISDIR/);
  rmdirSync(obstacle);
  assert.equal(existsSync(`${file}.lock`), false, 'a failed close still releases the lock');
  assert.deepEqual(await contentsAfterReopen(file), ['kept in the journal', 'still saved']);
});

/** Real disk underneath; `failNextWrite` makes the next journal write stop halfway with ENOSPC. */
class DiskFullJournalFs extends RealJournalFs {
  failNextWrite = false;

  override write(fd: number, data: Uint8Array): number {
    if (!this.failNextWrite) return super.write(fd, data);
    this.failNextWrite = false;
    super.write(fd, data.subarray(0, Math.floor(data.length / 2)));
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  }
}

test('a journal write that fails is rolled back in memory and on disk; later saves work', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const disk = new DiskFullJournalFs();
  const store = await SessionStore.open(file, { ...quiet, journalFs: disk });
  const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
  await store.appendMessage(s.id, { role: 'user', content: 'first' });
  const journalSize = statSync(journalPathFor(file)).size;

  disk.failNextWrite = true;
  await assert.rejects(
    store.appendMessage(s.id, { role: 'user', content: 'lost to a full disk' }),
    (err: unknown) => err instanceof PersistenceError && err.code === 'io' && /no space left/.test(err.message),
  );
  assert.equal(statSync(journalPathFor(file)).size, journalSize, 'the half-written line was cut off');
  assert.deepEqual((await store.loadMessages(s.id)).map((m) => m.content), ['first'], 'memory matches the disk');

  await store.appendMessage(s.id, { role: 'user', content: 'second' });
  assert.deepEqual(parseJournal(readFileSync(journalPathFor(file))).problem, undefined);
  await store.close();
  assert.deepEqual(await contentsAfterReopen(file), ['first', 'second']);
});

test('when the first write of a new database fails, open says why and leaves no lock behind', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const obstacle = `${file}.tmp-${process.pid}`;
  mkdirSync(obstacle);
  await assert.rejects(SessionStore.open(file, quiet), /EISDIR/);
  assert.equal(existsSync(`${file}.lock`), false);
  rmdirSync(obstacle);
  const store = await SessionStore.open(file, quiet);
  await store.close();
  assert.ok(existsSync(file));
});

/** Real disk; an fsync in the pool (a checkpoint's) waits until `release()`, or fails with EIO when `failSync` is set. */
class GatedSyncJournalFs extends RealJournalFs {
  failSync = false;
  inFlight = 0;
  private open_!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open_ = resolve));

  override async syncInPool(fd: number): Promise<void> {
    this.inFlight++;
    try {
      await this.gate;
      if (this.failSync) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      await super.syncInPool(fd);
    } finally {
      this.inFlight--;
    }
  }

  release(): void {
    this.open_();
  }
}

test('a checkpoint syncs in the pool: its line is in the journal at once, it resolves only once synced, and a fold waits for the sync', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const disk = new GatedSyncJournalFs();
  const store = await SessionStore.open(file, { ...quiet, journalFs: disk });
  const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
  let pushed = false;
  const pushing = store.pushCheckpoint(s.id, '/ws/a.txt', Buffer.from('the bytes before the edit\n'.repeat(20))).then(() => (pushed = true));
  await waitFor(() => disk.inFlight === 1, 'the fsync in the pool');
  const lines = parseJournal(readFileSync(journalPathFor(file))).entries.flatMap((e) => e.ops.map(([sql]) => sql));
  assert.ok(lines.some((sql) => sql.startsWith('INSERT INTO file_checkpoints')), 'the line is written before its fsync');
  // A message saved meanwhile takes the next place in the journal (its own fsync is synchronous).
  await store.appendMessage(s.id, { role: 'user', content: 'after the checkpoint' });
  let flushed = false;
  const flushing = store.flush().then(() => (flushed = true));
  await sleep(50);
  assert.equal(pushed, false, 'the checkpoint is not reported durable before its fsync');
  assert.equal(flushed, false, 'the fold does not rewrite the journal under a running fsync');
  disk.release();
  await Promise.all([pushing, flushing]);
  await store.close();
  const reopened = await SessionStore.open(file, quiet);
  const [checkpoint] = await reopened.listCheckpoints(s.id);
  assert.equal(Buffer.from(checkpoint!.before as Uint8Array).toString('utf8'), 'the bytes before the edit\n'.repeat(20));
  assert.deepEqual((await reopened.loadMessages(s.id)).map((m) => m.content), ['after the checkpoint']);
  await reopened.close();
});

test('a checkpoint whose fsync fails is refused, and the journal closes: later saves say so instead of pretending', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const disk = new GatedSyncJournalFs();
  disk.failSync = true;
  disk.release();
  const store = await SessionStore.open(file, { ...quiet, journalFs: disk });
  const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
  await assert.rejects(
    store.pushCheckpoint(s.id, '/ws/a.txt', Buffer.from('old\n')),
    (err: unknown) => err instanceof PersistenceError && err.code === 'io' && /EIO/.test(err.message),
  );
  await assert.rejects(
    store.appendMessage(s.id, { role: 'user', content: 'after a failed sync' }),
    (err: unknown) => err instanceof PersistenceError && err.code === 'closed',
  );
  await store.close().catch(() => undefined);
  assert.equal(existsSync(`${file}.lock`), false, 'the lock is released');
});
