// Restores write stored absolute paths; only those inside today's workspace folders may be touched. Real folders and
// real symbolic links in a temp dir: `..`, a path outside, a relative path, a symlinked parent that leads out, a
// dangling link, and an Undo step that mixes an inside file with an outside one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { confineToWorkspace, restoreRefusal } from '../../../src/core/checkpoints/restoreConfinement';
import { undoLastEdit, type FileCheckpoint } from '../../../src/core/checkpoints/checkpointingFileSystem';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

function setup(t: import('node:test').TestContext) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-confine-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ws = path.join(dir, 'ws');
  const outside = path.join(dir, 'outside');
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'victim.txt'), 'not yours\n');
  symlinkSync(outside, path.join(ws, 'escape'));
  symlinkSync(path.join(ws, 'src'), path.join(ws, 'inner'));
  symlinkSync(path.join(dir, 'nowhere'), path.join(ws, 'dangling'));
  const node = new NodeFileSystem();
  return { dir, ws, outside, node, roots: new WorkspaceRoots([{ name: 'ws', path: ws }], node) };
}

test('paths inside the workspace pass, also new ones and ones through a link that stays inside', async (t) => {
  const { ws, roots } = setup(t);
  for (const p of [path.join(ws, 'a.txt'), path.join(ws, 'src', 'deep', 'new.ts'), path.join(ws, 'inner', 'x.ts')]) {
    assert.equal(await restoreRefusal(roots, p), undefined, p);
  }
});

test('outside paths, `..`, relative paths and symlinked parents that lead out are refused with a reason', async (t) => {
  const { ws, outside, roots } = setup(t);
  const cases: Array<[string, RegExp]> = [
    [path.join(outside, 'victim.txt'), /^outside the workspace \(.*ws\)$/],
    [`${ws}/src/../../outside/victim.txt`, /not a plain absolute path/],
    [`${ws}/src/../a.txt`, /not a plain absolute path/],
    ['src/a.txt', /not a plain absolute path/],
    [path.join(ws, 'escape', 'victim.txt'), /leads outside the workspace through a symbolic link/],
    [path.join(ws, 'escape', 'new', 'file.txt'), /leads outside the workspace through a symbolic link/],
    [path.join(ws, 'dangling', 'file.txt'), /broken symbolic link/],
  ];
  for (const [p, reason] of cases) assert.match((await restoreRefusal(roots, p)) ?? 'allowed', reason, p);
  const { inside, refused } = await confineToWorkspace(roots, [{ path: path.join(ws, 'a.txt') }, { path: path.join(ws, 'escape', 'victim.txt') }]);
  assert.deepEqual(inside, [{ path: path.join(ws, 'a.txt') }]);
  assert.deepEqual(refused.map((r) => r.path), [path.join(ws, 'escape', 'victim.txt')]);
});

test('with no folder open nothing is inside: the made-up root does not exist', async (t) => {
  const { dir, node } = setup(t);
  const none = new WorkspaceRoots([{ name: 'no-folder', path: path.join(dir, 'no-folder') }], node);
  assert.match((await restoreRefusal(none, path.join(dir, 'no-folder', 'a.txt'))) ?? 'allowed', /does not exist/);
});

test('Undo Last Agent Edit writes the step\'s files inside the workspace and refuses the rest, untouched', async (t) => {
  const { ws, outside, node, roots } = setup(t);
  writeFileSync(path.join(ws, 'a.txt'), 'agent version\n');
  const step: FileCheckpoint[] = [
    { path: path.join(ws, 'a.txt'), before: new TextEncoder().encode('original\n') },
    { path: path.join(ws, 'escape', 'victim.txt'), before: null },
    { path: path.join(outside, 'victim.txt'), before: 'overwritten\n' },
  ];
  const outcome = await undoLastEdit({ popUndoStep: async () => step }, node, roots);
  assert.deepEqual(outcome.restored, [path.join(ws, 'a.txt')]);
  assert.deepEqual(outcome.refused.map((r) => r.path), [path.join(ws, 'escape', 'victim.txt'), path.join(outside, 'victim.txt')]);
  assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'original\n');
  assert.equal(existsSync(path.join(outside, 'victim.txt')), true, 'not deleted through the link');
  assert.equal(readFileSync(path.join(outside, 'victim.txt'), 'utf8'), 'not yours\n', 'not overwritten');
});
