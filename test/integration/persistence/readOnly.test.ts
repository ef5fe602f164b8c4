// Read-only opening: look at a database another process is writing, without the lock and without
// changing a byte on disk.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PersistenceError } from '../../../src/persistence/errors';
import { journalPathFor } from '../../../src/persistence/journaledDatabase';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { counterIds, tempDir } from './helpers';

const isCode = (code: PersistenceError['code']) => (err: unknown) => err instanceof PersistenceError && err.code === code;

function filesIn(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(path.join(dir, name), 'latin1')]));
}

test('a read-only store sees what a live writer has journaled, and changes nothing on disk', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'sessions.db');
  const writer = await SessionStore.open(file, { newId: counterIds(), foldIdleMs: 0 });
  const s = await writer.createSession({ title: 'Live', model: 'm', provider: 'p' });
  await writer.beginTurn(s.id);
  await writer.appendMessage(s.id, { role: 'user', content: 'in the journal only' });
  // A write in progress: the reader must neither apply nor cut it.
  appendFileSync(journalPathFor(file), '{"n":99,"v":3,"ops":[["INSERT');
  const before = filesIn(dir);

  const reader = await SessionStore.open(file, { readOnly: true });
  try {
    const [session] = await reader.listSessions();
    assert.equal(session?.turnOpen, true, 'a running turn is not marked interrupted by a reader');
    assert.equal(session?.status, 'active');
    assert.deepEqual(reader.interruptedOnOpen, []);
    assert.deepEqual((await reader.loadMessages(s.id)).map((m) => m.content), ['in the journal only']);
    assert.deepEqual(reader.notices, []);
    await assert.rejects(reader.appendMessage(s.id, { role: 'user', content: 'no' }), isCode('read-only'));
    await assert.rejects(reader.renameSession(s.id, 'no'), isCode('read-only'));
    await reader.flush();
  } finally {
    await reader.close();
  }
  assert.deepEqual(filesIn(dir), before, 'not a byte changed, and the writer still holds its lock');
  assert.ok(existsSync(`${file}.lock`));
  await writer.close();
});

test('read-only opening reports a missing or damaged file instead of repairing it', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'sessions.db');
  await assert.rejects(SessionStore.open(file, { readOnly: true }), isCode('not-found'));
  assert.deepEqual(readdirSync(dir), []);
  writeFileSync(file, 'garbage '.repeat(100));
  await assert.rejects(
    SessionStore.open(file, { readOnly: true }),
    (err: unknown) => isCode('io')(err) && /could not be read \(file is not a database\)/.test((err as Error).message),
  );
  assert.deepEqual(readdirSync(dir), ['sessions.db']);
});
