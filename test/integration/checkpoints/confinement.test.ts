// `sessions rewind` writes only inside the workspace, through the real CLI (dist/cli.js, npm run build first), a
// wire-faithful fake server and a real sql.js database: a stored path tampered with to point outside the workspace,
// and a folder the agent wrote in that the user later replaced with a symbolic link to somewhere else. Neither outside
// file is read, written or deleted; without --force nothing changes, with --force the rest is restored.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle, ScriptedReply } from '../../helpers/fakeLlm';
import { loadSqlJs } from '../../../src/persistence/sqlJsLoader';
import { SessionStore } from '../../../src/persistence/sessionStore';

const wire = WIRE_FORMATS[0]!;
const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const STEPS: ScriptedReply[] = [
  { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'agent a\n' } }] },
  { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'agent b\n' } }] },
  { toolCalls: [{ name: 'write_file', arguments: { path: 'made/new.txt', content: 'agent made this\n' } }] },
  { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
];

async function oneTurn() {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-confine-cli-'));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(path.join(ws, 'a.txt'), 'original a\n');
  writeFileSync(path.join(ws, 'b.txt'), 'original b\n');
  writeFileSync(path.join(outside, 'victim.txt'), 'not the agent\'s\n');
  const db = path.join(root, 'sessions.db');
  const server = await wire.start((request) => {
    const step = (request.messages ?? []).filter((m) => m.role === 'assistant').length;
    return STEPS[Math.min(step, STEPS.length - 1)]!;
  }, 'confinement');
  servers.push(server);
  const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--approve', 'all', 'edit a and b, make new'], { cwd: ws });
  assert.equal(run.code, 0, run.stderr);
  const sid = /session ([0-9a-f-]{36})/.exec(run.stderr)![1]!;
  assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'agent a\n');
  const rewind = (...args: string[]) => runCli(['sessions', '--db', db, 'rewind', '--session', sid, '--to', '1', ...args], { cwd: ws });
  return { ws, outside, db, sid, rewind };
}

/** Changes the stored path of a.txt's checkpoint in the database file itself (the CLI folded it on exit). */
async function tamper(db: string, from: string, to: string): Promise<void> {
  const SQL = await loadSqlJs();
  const file = new SQL.Database(readFileSync(db));
  file.run('UPDATE file_checkpoints SET path = ? WHERE path = ?', [to, from]);
  file.run('UPDATE checkpoint_results SET path = ? WHERE path = ?', [to, from]);
  assert.equal(file.getRowsModified() > 0, true, 'the tampered row exists');
  writeFileSync(db, file.export());
  file.close();
}

async function userMessages(db: string, sid: string): Promise<number> {
  const store = await SessionStore.open(db, { readOnly: true });
  try {
    return (await store.loadMessages(sid)).filter((m) => m.role === 'user').length;
  } finally {
    await store.close();
  }
}

test('a stored path tampered with to point outside the workspace is never written; --force restores the rest', async () => {
  const { ws, outside, db, sid, rewind } = await oneTurn();
  const victim = path.join(outside, 'victim.txt');
  await tamper(db, path.join(ws, 'a.txt'), victim);

  const refused = await rewind();
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, new RegExp(`1 file\\(s\\) not restored, never written: ${victim.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(outside the workspace \\(.*\\)\\)\\. Nothing was changed\\.`));
  assert.equal(readFileSync(victim, 'utf8'), 'not the agent\'s\n');
  assert.equal(readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'agent b\n', 'nothing was changed');
  assert.ok((await userMessages(db, sid)) >= 1, 'the conversation is kept');

  const forced = await rewind('--force', '--json');
  assert.equal(forced.code, 0, forced.stderr);
  const [report] = forced.events as unknown as Array<{ restored: Array<{ path: string }>; refused: Array<{ path: string; reason: string }> }>;
  assert.deepEqual(report!.refused.map((r) => r.path), [victim]);
  assert.deepEqual(report!.restored.map((r) => path.basename(r.path)).sort(), ['b.txt', 'new.txt']);
  assert.equal(readFileSync(victim, 'utf8'), 'not the agent\'s\n', 'still untouched with --force');
  assert.equal(readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'original b\n');
  assert.equal(existsSync(path.join(ws, 'made', 'new.txt')), false);
  assert.equal(await userMessages(db, sid), 0);
});

test('a folder replaced by a symbolic link to elsewhere is not followed: the file there is not deleted', async () => {
  const { ws, outside, rewind } = await oneTurn();
  // The user moves the agent's folder away and links its name to another folder holding a file of the same name.
  renameSync(path.join(ws, 'made'), path.join(ws, 'made-moved'));
  writeFileSync(path.join(outside, 'new.txt'), 'precious, elsewhere\n');
  symlinkSync(outside, path.join(ws, 'made'));

  const refused = await rewind();
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /made\/new\.txt \(leads outside the workspace through a symbolic link\)\. Nothing was changed\./);
  const forced = await rewind('--force');
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /refused\s+\S*made\/new\.txt\s+\(leads outside the workspace through a symbolic link; not written\)/);
  assert.equal(readFileSync(path.join(outside, 'new.txt'), 'utf8'), 'precious, elsewhere\n', 'not deleted through the link');
  assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'original a\n');
  assert.equal(readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'original b\n');
});

test('run from another folder, every stored path is outside: nothing is changed and the message says where to run it', async () => {
  const { ws, outside, db, sid } = await oneTurn();
  const elsewhere = await runCli(['sessions', '--db', db, 'rewind', '--session', sid, '--to', '1'], { cwd: outside });
  assert.equal(elsewhere.code, 1);
  assert.match(elsewhere.stderr, /3 file\(s\) not restored.*Nothing was changed\. Run it in the session's workspace \(or pass --workspace DIR\)/);
  assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'agent a\n');
  const there = await runCli(['sessions', '--db', db, 'rewind', '--session', sid, '--to', '1', '--workspace', ws], { cwd: outside });
  assert.equal(there.code, 0, there.stderr);
  assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'original a\n');
});
