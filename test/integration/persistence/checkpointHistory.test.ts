// The turn checkpoint store against real sql.js files and real workspace files: bytes survive the journal exactly,
// each turn's edits are filed under its user message (harness nudges are not turns), a restore takes every file back
// to before the turn that first changed it, a file changed since is a conflict, a rewind can be undone until the
// conversation goes on, and the size bound prunes whole turns, oldest first.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { test } from 'node:test';
import { CheckpointingFileSystem, undoLastEdit } from '../../../src/core/checkpoints/checkpointingFileSystem';
import { applyRestore, applyUndoRewind, planRestore, planUndoRewind } from '../../../src/core/checkpoints/rewind';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { PersistenceError } from '../../../src/persistence/errors';
import { startRecording, type SessionRecorder } from '../../../src/persistence/sessionRecorder';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { ManualClock, counterIds } from './helpers';

const LATIN1 = Buffer.from('größe: ½ café\r\n', 'latin1');

async function setup(t: import('node:test').TestContext, limit?: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-ckpt-store-'));
  const ws = path.join(dir, 'ws');
  mkdirSync(path.join(ws, '.git'), { recursive: true });
  mkdirSync(path.join(ws, 'new'));
  const store = await SessionStore.open(path.join(dir, 'sessions.db'), { clock: new ManualClock(), newId: counterIds(), foldIdleMs: 0 });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const recorder = await startRecording(store, { meta: { title: 't', model: 'm', provider: 'ollama' }, warn: () => undefined, ...(limit !== undefined && { checkpointLimitBytes: limit }) });
  const node = new NodeFileSystem();
  const fs = new CheckpointingFileSystem(node, recorder.checkpoints);
  const roots = new WorkspaceRoots([{ name: 'ws', path: ws }], node);
  const at = (p: string) => path.join(ws, p);
  /** One turn: the user's message (plus a harness nudge, also a user message), then the edits. */
  const turn = async (text: string, edits: () => Promise<void>) => {
    await recorder.beginTurn();
    await recorder.onMessage({ role: 'user', content: text });
    await recorder.onMessage({ role: 'assistant', content: 'working' });
    await recorder.onMessage({ role: 'user', content: 'If the task is finished, call the task_completion tool.' });
    await edits();
    await recorder.onMessage({ role: 'assistant', content: `${text} done` });
    await recorder.endTurn();
  };
  return { dir, ws, store, recorder, fs, node, roots, at, turn, history: store.checkpointHistory };
}

async function messageId(recorder: SessionRecorder, store: SessionStore, n: number): Promise<number> {
  return (await store.checkpointHistory.userMessages(recorder.id))[n - 1]!.id;
}

test('bytes before an edit survive the journal exactly, and Undo Last Agent Edit writes them back', async (t) => {
  const { dir, store, recorder, fs, node, roots, at, turn } = await setup(t);
  writeFileSync(at('latin1.txt'), LATIN1);
  await turn('rewrite', () => fs.writeFile(at('latin1.txt'), 'ascii now\n'));
  // A second, read-only opener replays the journal (the writer has not folded it into the file yet).
  const reader = await SessionStore.open(path.join(dir, 'sessions.db'), { readOnly: true });
  try {
    const [checkpoint] = await reader.listCheckpoints(recorder.id);
    assert.ok(checkpoint!.before instanceof Uint8Array);
    assert.equal(Buffer.from(checkpoint!.before).equals(LATIN1), true);
  } finally {
    await reader.close();
  }
  assert.deepEqual(await undoLastEdit({ popUndoStep: () => store.popUndoStep(recorder.id) }, node, roots), { restored: [at('latin1.txt')], refused: [] });
  assert.equal(readFileSync(at('latin1.txt')).equals(LATIN1), true);
});

test('an empty file and incompressible bytes travel the journal as base64 and come back exact after a replay', async (t) => {
  const { dir, store, recorder, fs, at, turn } = await setup(t);
  const noise = randomBytes(40_000);
  writeFileSync(at('empty.txt'), '');
  writeFileSync(at('noise.bin'), noise);
  await turn('rewrite both', async () => {
    await fs.writeFile(at('empty.txt'), 'now text\n');
    await fs.writeFile(at('noise.bin'), 'now text\n');
  });
  const journal = readFileSync(`${path.join(dir, 'sessions.db')}.journal.jsonl`, 'utf8');
  assert.match(journal, /"b64":"/);
  assert.doesNotMatch(journal, /unhex/);
  const reader = await SessionStore.open(path.join(dir, 'sessions.db'), { readOnly: true });
  try {
    const byPath = new Map((await reader.listCheckpoints(recorder.id)).map((c) => [c.path, c.before]));
    assert.deepEqual(byPath.get(at('empty.txt')), new Uint8Array(0), 'an empty file is not "no file"');
    assert.equal(Buffer.from(byPath.get(at('noise.bin')) as Uint8Array).equals(noise), true);
  } finally {
    await reader.close();
  }
  assert.ok(store.checkpointHistory.storedBytes() >= noise.length, 'incompressible bytes are kept raw and counted');
});

test('turns are the user messages that started them; each lists the files it changed', async (t) => {
  const { store, recorder, fs, at, turn, history } = await setup(t);
  writeFileSync(at('a.txt'), 'a0\n');
  await turn('one', async () => {
    await fs.writeFile(at('a.txt'), 'a1\n');
    await fs.writeFile(at('a.txt'), 'a2\n');
    await fs.writeFile(at('.git/config'), 'x'); // repository internals: never a checkpoint of the turn
  });
  await turn('two', () => fs.writeFile(at('b.txt'), 'b1\n'));
  const messages = await history.userMessages(recorder.id);
  assert.deepEqual(messages.map((m) => [m.number, m.text, m.changedFiles]), [[1, 'one', 1], [2, 'two', 1]]);
  const changes = await history.turnChanges(recorder.id, messages[0]!.id);
  assert.deepEqual(changes.map((c) => [c.path, Buffer.from(c.before as Uint8Array).toString()]), [[at('a.txt'), 'a0\n']], 'the first before of the turn');
  assert.equal(recorder.turnMessageId, await messageId(recorder, store, 2));
});

test('restore: earliest before per file, created files deleted, conflicts left alone unless overwritten, undo brings it all back', async (t) => {
  const { store, recorder, fs, node, roots, at, turn, history } = await setup(t);
  writeFileSync(at('a.txt'), 'a0\n');
  writeFileSync(at('gone.txt'), LATIN1);
  await turn('one', () => fs.writeFile(at('a.txt'), 'a1\n'));
  await turn('two', async () => {
    await fs.writeFile(at('a.txt'), 'a2\n');
    await fs.writeFile(at('new/b.txt'), 'b\n');
    await fs.rename(at('gone.txt'), at('new/moved.txt'));
  });
  const one = await messageId(recorder, store, 1);
  writeFileSync(at('new/b.txt'), 'the user changed this\n');

  const plan = await planRestore(history, node, roots, recorder.id, one);
  const byPath = Object.fromEntries(plan.files.map((f) => [path.relative(path.dirname(at('x')), f.path), [f.action, f.conflict]]));
  assert.deepEqual(byPath, { 'a.txt': ['write', false], 'new/b.txt': ['delete', true], 'new/moved.txt': ['delete', false], 'gone.txt': ['write', false] });

  const outcome = await applyRestore(history, node, plan, { overwriteConflicts: false });
  assert.deepEqual(outcome.skipped, [at('new/b.txt')]);
  assert.equal(readFileSync(at('a.txt'), 'utf8'), 'a0\n');
  assert.equal(readFileSync(at('gone.txt')).equals(LATIN1), true);
  assert.equal(existsSync(at('new/moved.txt')), false);
  assert.equal(readFileSync(at('new/b.txt'), 'utf8'), 'the user changed this\n', 'a conflict is not overwritten');
  assert.deepEqual((await store.loadMessages(recorder.id)).length, 0, 'the conversation is cut before message 1');
  assert.equal(await store.countUndoSteps(recorder.id), 0, 'Undo Last Agent Edit has nothing of the removed turns');

  const undo = await planUndoRewind(history, node, roots, recorder.id);
  assert.ok(typeof undo !== 'string');
  await applyUndoRewind(history, node, recorder.id, undo, { overwriteConflicts: false });
  assert.equal(readFileSync(at('a.txt'), 'utf8'), 'a2\n');
  assert.equal(readFileSync(at('new/moved.txt')).equals(LATIN1), true);
  assert.equal(existsSync(at('gone.txt')), false);
  assert.deepEqual((await store.loadMessages(recorder.id)).filter((m) => m.role === 'user').map((m) => m.content.slice(0, 3)), ['one', 'If ', 'two', 'If ']);
  assert.equal(await store.countUndoSteps(recorder.id), 4);
  assert.equal(await planUndoRewind(history, node, roots, recorder.id), 'there is no restore to undo in this session');

  // A restore followed by a new message cannot be undone any more.
  await applyRestore(history, node, await planRestore(history, node, roots, recorder.id, await messageId(recorder, store, 2)), { overwriteConflicts: true });
  await recorder.onMessage({ role: 'user', content: 'three' });
  assert.match(String(await planUndoRewind(history, node, roots, recorder.id)), /the conversation went on after the restore/);
});

test('checkpoints of source text are stored compressed and come back exact', async (t) => {
  const { store, recorder, fs, at, turn, history } = await setup(t);
  const source = Array.from({ length: 2000 }, (_, i) => `export const value${i} = compute(${i}, 'name${i % 17}');\r\n`).join('');
  writeFileSync(at('big.ts'), source, 'latin1');
  await turn('shrink', () => fs.writeFile(at('big.ts'), 'small\n'));
  assert.ok(history.storedBytes() < source.length / 3, `${history.storedBytes()} bytes stored for ${source.length}`);
  const [checkpoint] = await store.listCheckpoints(recorder.id);
  assert.equal(Buffer.from(checkpoint!.before as Uint8Array).equals(Buffer.from(source, 'latin1')), true);
});

test('the size bound prunes the oldest turns; restoring to one of them is refused with a reason', async (t) => {
  const big = randomBytes(40_000); // incompressible: stored as it is
  const { store, recorder, fs, node, roots, at, turn, history } = await setup(t, 100_000);
  for (const name of ['a', 'b', 'c', 'd']) writeFileSync(at(`${name}.txt`), big);
  for (const name of ['a', 'b', 'c', 'd']) await turn(`edit ${name}`, () => fs.writeFile(at(`${name}.txt`), 'short\n'));
  assert.ok(history.storedBytes() <= 100_000, String(history.storedBytes()));
  const first = await messageId(recorder, store, 1);
  await assert.rejects(planRestore(history, node, roots, recorder.id, first), (e: unknown) => e instanceof PersistenceError && /pruned/.test(e.message));
  const last = await messageId(recorder, store, 4);
  const plan = await planRestore(history, node, roots, recorder.id, last);
  assert.deepEqual(plan.files.map((f) => f.path), [at('d.txt')]);
});

test('bad ids are refused: an unknown message, a message that is not the user\'s', async (t) => {
  const { store, recorder, history } = await setup(t);
  await recorder.onMessage({ role: 'user', content: 'hi' });
  await recorder.onMessage({ role: 'assistant', content: 'hello' });
  const rows = await store.loadMessages(recorder.id);
  await assert.rejects(history.restoreTargets(recorder.id, 999), (e: unknown) => e instanceof PersistenceError && e.code === 'not-found');
  await assert.rejects(history.restoreTargets(recorder.id, rows[1]!.id), (e: unknown) => e instanceof PersistenceError && e.code === 'invalid-input');
  await store.deleteSession(recorder.id);
  assert.equal(history.storedBytes(), 0);
});
