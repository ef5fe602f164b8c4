// The editor's session service on real sql.js files in real temp dirs: lazy open, recording a chat (messages,
// tool audit, checkpoints, calibration), listing, opening (interrupted sessions), rename/delete/export, undo
// through the node file system, a corrupt database, and a second window finding the database locked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { EditorSessionService, READ_ONLY_NOTE, type SessionServiceOptions } from '../../../src/editor/history/sessionService';

const open = new WeakMap<TestContext, EditorSessionService[]>();

/** A temp dir removed after the test, once the services opened in it are closed. */
function tempDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-vss-'));
  const services: EditorSessionService[] = [];
  open.set(t, services);
  t.after(async () => {
    for (const s of services) await s.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

class Warnings {
  readonly messages: string[] = [];
  readonly warn = (m: string) => void this.messages.push(m);
}

function service(t: TestContext, dbPath: string, warnings: Warnings, extra: Partial<SessionServiceOptions> = {}): EditorSessionService {
  const s = new EditorSessionService({ dbPath, warn: warnings.warn, lockRetryDelaysMs: [], storeOptions: { foldIdleMs: 0 }, ...extra });
  open.get(t)!.push(s);
  return s;
}

const META = { model: 'qwen3:8b', provider: 'ollama' };

test('nothing is opened until needed; the first turn creates a session titled after the message and records it', async (t) => {
  const dir = tempDir(t);
  const dbPath = path.join(dir, 'storage', 'sessions.db');
  const warnings = new Warnings();
  const sessions = service(t, dbPath, warnings);
  assert.equal(existsSync(dbPath), false, 'constructing the service touches no file');

  const recording = (await sessions.forTurn('Rename foo to bar\nin every file', META))!;
  assert.ok(recording, 'a writable store gives a recording');
  assert.equal(sessions.currentId, recording.id);
  const rec = recording.recorder;
  await rec.beginTurn();
  await rec.onMessage({ role: 'user', content: 'Rename foo to bar\nin every file' });
  await rec.onMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'write_file', arguments: { path: 'a.txt' } }] });
  sessions.onEvent({ type: 'tool_call', id: 'c1', name: 'write_file', arguments: { path: 'a.txt' } });
  sessions.onEvent({ type: 'approval_result', id: 'c1', name: 'write_file', approved: true, scope: 'session' });
  sessions.onEvent({ type: 'tool_result', id: 'c1', name: 'write_file', ok: true, content: 'Wrote a.txt', durationMs: 12 });
  await rec.onMessage({ role: 'tool', content: 'Wrote a.txt', toolCallId: 'c1', toolName: 'write_file' });
  await rec.kv.set('calibration:ollama:qwen3:8b', '1.07');
  await rec.endTurn();
  // The same chat keeps its session.
  assert.equal((await sessions.forTurn('second message', META))!.id, recording.id);
  await sessions.dispose();

  const store = await SessionStore.open(dbPath);
  try {
    const [info] = await store.listSessions();
    assert.equal(info?.title, 'Rename foo to bar');
    assert.equal(info?.model, 'qwen3:8b');
    assert.equal(info?.status, 'active');
    assert.deepEqual((await store.loadMessages(recording.id)).map((m) => m.role), ['user', 'assistant', 'tool']);
    const audit = await store.listToolAudit(recording.id);
    assert.deepEqual(audit.map((a) => [a.name, a.approval, a.outcome, a.durationMs]), [['write_file', 'session', 'ok', 12]]);
    assert.equal(await store.getKv('calibration:ollama:qwen3:8b'), '1.07');
  } finally {
    await store.close();
  }
  assert.deepEqual(warnings.messages, []);
});

test('agent writes are checkpointed and Undo Last Agent Edit restores them, newest first', async (t) => {
  const dir = tempDir(t);
  const ws = path.join(dir, 'ws');
  const nodeFs = new NodeFileSystem();
  await nodeFs.mkdir(ws);
  const file = path.join(ws, 'a.txt');
  writeFileSync(file, 'original\n');
  const sessions = service(t, path.join(dir, 'sessions.db'), new Warnings());
  const roots = new WorkspaceRoots([{ name: 'ws', path: ws }], nodeFs);
  const undo = async () => (await sessions.undoLastEdit(nodeFs, roots)).restored[0];
  assert.equal(await undo(), undefined, 'nothing to undo before any turn');

  const recording = (await sessions.forTurn('edit a.txt', META))!;
  const agentFs = recording.wrapFileSystem(nodeFs);
  await agentFs.writeFile(file, 'first edit\n');
  await agentFs.writeFile(file, 'second edit\n');
  const created = path.join(ws, 'new.txt');
  await agentFs.writeFile(created, 'made by the agent\n');
  assert.equal(await sessions.undoableEdits(), 3);

  assert.equal(await undo(), created);
  assert.equal(existsSync(created), false, 'a file the agent created is removed');
  assert.equal(await undo(), file);
  assert.equal(readFileSync(file, 'utf8'), 'first edit\n');
  assert.equal(await undo(), file);
  assert.equal(readFileSync(file, 'utf8'), 'original\n');
  assert.equal(await undo(), undefined);
  assert.equal(await sessions.undoableEdits(), 0);
});

test('an agent move is one undo step: the source comes back and the destination goes, together', async (t) => {
  const dir = tempDir(t);
  const ws = path.join(dir, 'ws');
  const nodeFs = new NodeFileSystem();
  await nodeFs.mkdir(ws);
  const from = path.join(ws, 'from.txt');
  const to = path.join(ws, 'to.txt');
  const other = path.join(ws, 'other.txt');
  writeFileSync(from, 'precious\n');
  writeFileSync(other, 'before\n');
  const sessions = service(t, path.join(dir, 'sessions.db'), new Warnings());
  const roots = new WorkspaceRoots([{ name: 'ws', path: ws }], nodeFs);
  const undo = async () => (await sessions.undoLastEdit(nodeFs, roots)).restored[0];
  const recording = (await sessions.forTurn('move it', META))!;
  const agentFs = recording.wrapFileSystem(nodeFs);
  await agentFs.writeFile(other, 'after\n');
  await agentFs.rename(from, to);
  assert.equal(await sessions.undoableEdits(), 2, 'the edit and the move');

  assert.equal(await undo(), from);
  assert.equal(readFileSync(from, 'utf8'), 'precious\n');
  assert.equal(existsSync(to), false, 'one undo also removed the destination');
  assert.equal(readFileSync(other, 'utf8'), 'after\n', 'the earlier edit is its own step');
  assert.equal(await sessions.undoableEdits(), 1);
  assert.equal(await undo(), other);
  assert.equal(readFileSync(other, 'utf8'), 'before\n');
  assert.equal(await sessions.undoableEdits(), 0);
});

test('a session whose turn never ended opens as interrupted, with its history, and is continued by the next turn', async (t) => {
  const dir = tempDir(t);
  const dbPath = path.join(dir, 'sessions.db');
  const first = service(t, dbPath, new Warnings());
  const rec = (await first.forTurn('long task', META))!.recorder;
  await rec.beginTurn();
  await rec.onMessage({ role: 'user', content: 'long task' });
  await rec.onMessage({ role: 'assistant', content: 'Working on it' });
  await first.dispose(); // the window closed mid-turn: endTurn never ran

  const warnings = new Warnings();
  const second = service(t, dbPath, warnings);
  const [listed] = await second.list();
  assert.equal(listed?.status, 'interrupted');
  assert.equal(second.currentId, undefined, 'listing does not pick a session');
  const opened = await second.open(listed!.id);
  assert.equal(opened.interrupted, true);
  assert.deepEqual(opened.history.map((m) => m.content), ['long task', 'Working on it']);
  assert.deepEqual(opened.originals.map((m) => m.content), ['long task', 'Working on it']);
  assert.equal(second.currentId, listed!.id);
  // Resuming: the next turn writes into the same session.
  const resumed = (await second.forTurn('Continue the interrupted task.', META))!;
  assert.equal(resumed.id, listed!.id);
  await resumed.recorder.onMessage({ role: 'user', content: 'Continue the interrupted task.' });
  assert.equal((await second.info(listed!.id))?.status, 'active');
  assert.equal((await second.info(listed!.id))?.messageCount, 3);
  assert.ok(warnings.messages.some((m) => /stopped in the middle of a turn/.test(m)), warnings.messages.join('\n'));

  // New chat: the next turn starts another session; the old one stays.
  await second.detach();
  const fresh = (await second.forTurn('something else', META))!;
  assert.notEqual(fresh.id, listed!.id);
  assert.equal((await second.list()).length, 2);
});

test('rename, export (Markdown and JSON) and delete', async (t) => {
  const dir = tempDir(t);
  const sessions = service(t, path.join(dir, 'sessions.db'), new Warnings());
  const rec = (await sessions.forTurn('explain b.ts', META))!.recorder;
  await rec.onMessage({ role: 'user', content: 'explain b.ts' });
  await rec.onMessage({ role: 'assistant', content: 'It exports **one** function.' });

  await sessions.rename(rec.id, '  B explained  ');
  assert.equal((await sessions.info(rec.id))?.title, 'B explained');
  await assert.rejects(sessions.rename(rec.id, '   '), /cannot be empty/);

  const md = await sessions.export(rec.id, 'markdown');
  assert.match(md, /^# B explained/);
  assert.match(md, /## User\n\nexplain b\.ts/);
  assert.match(md, /It exports \*\*one\*\* function\./);
  const json = JSON.parse(await sessions.export(rec.id, 'json')) as { format: string; session: { title: string }; messages: unknown[] };
  assert.equal(json.format, 'localharness-session');
  assert.equal(json.session.title, 'B explained');
  assert.equal(json.messages.length, 2);

  await sessions.delete(rec.id);
  assert.equal(sessions.currentId, undefined, 'deleting the current session detaches it');
  assert.deepEqual(await sessions.list(), []);
  await assert.rejects(sessions.open(rec.id), /No session with id/);
});

test('a corrupt database is moved aside, the user is told where, and saving goes on in a new one', async (t) => {
  const dir = tempDir(t);
  const dbPath = path.join(dir, 'sessions.db');
  writeFileSync(dbPath, Buffer.from('definitely not sqlite '.repeat(300)));
  const warnings = new Warnings();
  const sessions = service(t, dbPath, warnings);
  const recording = await sessions.forTurn('hello', META);
  assert.ok(recording, 'the chat is saved in the fresh database');
  await recording.recorder.onMessage({ role: 'user', content: 'hello' });
  assert.equal(warnings.messages.length, 1, warnings.messages.join('\n'));
  const moved = /(\S+sessions\.db\.corrupt-\S+?)[,.;\s]/.exec(warnings.messages[0]!)?.[1];
  assert.ok(moved && existsSync(moved), `the warning names the moved file: ${warnings.messages[0]}`);
  assert.equal(readFileSync(moved, 'utf8').slice(0, 22), 'definitely not sqlite ');
  assert.equal((await sessions.list()).length, 1);
});

test('a second window finds the database locked: it opens read-only, says so, lists sessions and saves nothing', async (t) => {
  const dir = tempDir(t);
  const dbPath = path.join(dir, 'sessions.db');
  const first = service(t, dbPath, new Warnings());
  const rec = (await first.forTurn('first window', META))!.recorder;
  await rec.onMessage({ role: 'user', content: 'first window' });
  await first.store().then((s) => s!.flush());

  const warnings = new Warnings();
  let waited = 0;
  const second = service(t, dbPath, warnings, { lockRetryDelaysMs: [5, 5], sleep: async () => void waited++ });
  assert.deepEqual((await second.list()).map((s) => s.title), ['first window']);
  assert.equal(waited, 2, 'the lock is retried before giving up (a reloading window releases it shortly)');
  assert.equal(second.readOnly, true);
  assert.deepEqual(warnings.messages, [READ_ONLY_NOTE]);
  assert.equal(await second.forTurn('second window', META), undefined, 'nothing is recorded');
  const opened = await second.open(rec.id);
  assert.deepEqual(opened.history.map((m) => m.content), ['first window']);
  assert.equal(second.currentId, undefined, 'a read-only window does not continue the stored session');
  await assert.rejects(second.rename(rec.id, 'x'), /another VS Code window/);
  await assert.rejects(second.delete(rec.id), /another VS Code window/);

  // The first window still writes normally.
  await rec.onMessage({ role: 'assistant', content: 'still saving' });
  assert.equal((await first.info(rec.id))?.messageCount, 2);
});

test('a database that cannot be opened at all leaves the chat working and says why', async (t) => {
  const dir = tempDir(t);
  const blocker = path.join(dir, 'not-a-dir');
  writeFileSync(blocker, 'a file where the storage folder should be');
  const warnings = new Warnings();
  const sessions = service(t, path.join(blocker, 'sessions.db'), warnings);
  assert.equal(await sessions.forTurn('hello', META), undefined);
  assert.deepEqual(await sessions.list(), []);
  assert.ok(sessions.unavailableReason);
  assert.match(warnings.messages[0] ?? '', /Could not open the session history .*not-a-dir/);
  await assert.rejects(sessions.open('x'), /session history is not available/);
});

test('opening reads the conversation once: originals for the panel, compressed copies for the model, display-only kept out of its history', async (t) => {
  const dir = tempDir(t);
  const dbPath = path.join(dir, 'sessions.db');
  const seed = await SessionStore.open(dbPath, { foldIdleMs: 0 });
  const info = await seed.createSession({ title: 'compressed chat', model: 'm', provider: 'ollama' });
  await seed.appendMessage(info.id, { role: 'user', content: 'Read a.ts' });
  await seed.appendMessage(info.id, { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.ts' } }] });
  const toolRow = await seed.appendMessage(info.id, { role: 'tool', content: 'x'.repeat(500), toolCallId: 'c1', toolName: 'read_file' });
  await seed.appendMessage(info.id, { role: 'assistant', content: 'Shown to the user only', displayOnly: true });
  const answerRow = await seed.appendMessage(info.id, { role: 'assistant', content: 'a.ts exports foo.' });
  const copy = await seed.updateMessage(toolRow, { content: '[Compressed] read_file a.ts' });
  await seed.updateMessage(copy, { content: '[Compressed] a.ts' }); // compressed twice: the newest copy counts
  await seed.updateMessage(answerRow, { content: 'foo' });
  const expectedOriginals = await seed.loadOriginalMessages(info.id);
  const expectedCurrent = await seed.loadMessages(info.id);
  await seed.close();

  const sessions = service(t, dbPath, new Warnings());
  await sessions.list(); // the store is open
  const store = (await sessions.store())!;
  const reads: string[] = [];
  for (const name of ['loadMessages', 'loadOriginalMessages', 'loadConversation'] as const) {
    const original = store[name].bind(store) as (...args: never[]) => unknown;
    (store as unknown as Record<string, unknown>)[name] = (...args: never[]) => (reads.push(name), original(...args));
  }
  const opened = await sessions.open(info.id);
  assert.deepEqual(reads, ['loadConversation'], 'one read of the messages');
  assert.deepEqual(opened.originals, expectedOriginals);
  assert.deepEqual(opened.current, expectedCurrent);
  assert.deepEqual(
    opened.history.map((m) => m.content),
    ['Read a.ts', '', '[Compressed] a.ts', 'foo'],
    'the model continues from the newest copies, without the display-only message',
  );
  assert.equal(opened.originals.find((m) => m.displayOnly)?.content, 'Shown to the user only', 'the panel still shows it');
});
