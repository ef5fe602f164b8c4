// The editor's review of a turn and its Restore to here, on real sql.js files and real workspace files (no VS Code:
// the vscode layer only adds the modal, the diff editor and the buttons): the review lists the turn's files in the
// chat state (so a reloaded panel gets it in the snapshot), Keep and Undo change what they say, a file changed
// since the turn is a conflict, the user item gets its stored id, and a restore cuts files and conversation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheckpointingFileSystem } from '../../../src/core/checkpoints/checkpointingFileSystem';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { ChatStateStore } from '../../../src/editor/chat/chatStateStore';
import { EditorSessionService } from '../../../src/editor/history/sessionService';
import { TurnReviewService } from '../../../src/editor/checkpoints/turnReview';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';

async function setup(t: import('node:test').TestContext) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-review-'));
  const ws = path.join(dir, 'ws');
  mkdirSync(ws);
  const sessions = new EditorSessionService({ dbPath: path.join(dir, 'sessions.db'), warn: () => undefined, lockRetryDelaysMs: [], storeOptions: { foldIdleMs: 0 } });
  t.after(async () => {
    await sessions.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  const store = new ChatStateStore();
  const node = new NodeFileSystem();
  const review = new TurnReviewService({ sessions, store, fs: node, roots: () => new WorkspaceRoots([{ name: 'ws', path: ws }], node), label: (p) => path.relative(ws, p) });
  const at = (p: string) => path.join(ws, p);
  /** One turn as the turn host runs it: the store's events, the recorded messages, the edits through the wrapper. */
  const turn = async (text: string, edits: (fs: CheckpointingFileSystem) => Promise<void>) => {
    const recording = (await sessions.forTurn(text, { model: 'm', provider: 'ollama' }))!;
    const fs = recording.wrapFileSystem(node) as CheckpointingFileSystem;
    store.dispatch({ type: 'turn_start', text });
    await recording.recorder.beginTurn();
    await recording.recorder.onMessage({ role: 'user', content: text });
    await edits(fs);
    await recording.recorder.onMessage({ role: 'assistant', content: 'done' });
    store.dispatch({ type: 'turn_end', reason: 'completed' });
    await recording.recorder.endTurn();
    await review.afterTurn();
  };
  return { sessions, store, review, at, turn };
}

test('a turn that edits files puts them up for review; Keep and Undo; a file changed since asks first', async (t) => {
  const { store, review, at, turn } = await setup(t);
  writeFileSync(at('a.txt'), 'a0\n');
  writeFileSync(at('b.txt'), 'b0\n');
  await turn('nothing to change', async () => undefined);
  assert.equal(store.state.review, undefined, 'a turn without edits has nothing to review');
  await turn('edit things', async (fs) => {
    await fs.writeFile(at('a.txt'), 'a1\n');
    await fs.writeFile(at('b.txt'), 'b1\n');
    await fs.writeFile(at('c.txt'), 'c1\n');
  });
  const shown = store.snapshot().state.review!;
  assert.deepEqual(shown.files.map((f) => [f.label, f.change, f.state]), [['a.txt', 'modified', 'pending'], ['b.txt', 'modified', 'pending'], ['c.txt', 'created', 'pending']]);
  const users = store.state.items.filter((i) => i.kind === 'user');
  assert.ok(users.every((u) => u.kind === 'user' && typeof u.messageId === 'number'), 'every user item has its stored id');
  assert.equal(users[1]!.kind === 'user' && users[1]!.messageId, shown.messageId);

  await review.keep(at('a.txt'));
  assert.equal(store.state.review!.files[0]!.state, 'kept');
  const beforeB = await review.beforeOf(at('b.txt'));
  assert.equal(Buffer.from(beforeB as Uint8Array).toString(), 'b0\n', 'the diff\'s left side');

  writeFileSync(at('b.txt'), 'the user edited b\n');
  const plan = await review.planUndo();
  assert.deepEqual(plan.files.map((f) => [path.basename(f.path), f.conflict]), [['b.txt', true], ['c.txt', false]], 'kept files are not undone');
  assert.deepEqual((await review.applyUndo(plan, false)).map((p) => path.basename(p)), ['c.txt']);
  assert.equal(existsSync(at('c.txt')), false);
  assert.equal(readFileSync(at('b.txt'), 'utf8'), 'the user edited b\n', 'not overwritten without asking');
  assert.deepEqual(store.state.review!.files.map((f) => f.state), ['kept', 'pending', 'undone']);
  await review.applyUndo(await review.planUndo(at('b.txt')), true);
  assert.equal(readFileSync(at('b.txt'), 'utf8'), 'b0\n');
  assert.deepEqual(store.state.review!.files.map((f) => f.state), ['kept', 'undone', 'undone']);
});

test('Restore to here: files back, conversation cut in the database; Undo Restore brings both back', async (t) => {
  const { sessions, store, review, at, turn } = await setup(t);
  writeFileSync(at('a.txt'), 'a0\n');
  await turn('first', (fs) => fs.writeFile(at('a.txt'), 'a1\n'));
  await turn('second', (fs) => fs.writeFile(at('a.txt'), 'a2\n'));
  const second = store.state.items.filter((i) => i.kind === 'user')[1]!;
  assert.ok(second.kind === 'user' && second.messageId);
  const plan = (await review.planRestore(second.messageId!))!;
  assert.deepEqual(plan.files.map((f) => [path.basename(f.path), f.action, f.conflict]), [['a.txt', 'write', false]]);
  const outcome = await review.applyRestore(plan, false);
  assert.deepEqual(outcome.restored, [at('a.txt')]);
  assert.equal(readFileSync(at('a.txt'), 'utf8'), 'a1\n');
  const opened = await sessions.open(review.sessionId!);
  assert.deepEqual(opened.history.filter((m) => m.role === 'user').map((m) => m.content), ['first']);

  const undo = await review.planUndoRestore();
  assert.ok(typeof undo !== 'string', String(undo));
  await review.applyUndoRestore(undo, false);
  assert.equal(readFileSync(at('a.txt'), 'utf8'), 'a2\n');
  const reopened = await sessions.open(review.sessionId!);
  assert.deepEqual(reopened.history.filter((m) => m.role === 'user').map((m) => m.content), ['first', 'second']);
});
