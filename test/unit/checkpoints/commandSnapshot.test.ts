// What a command changed, from two listings of real files around it: modified, created and deleted files with the
// bytes from before; nothing under .git or node_modules; a file over the size bound is named but not restorable; a
// workspace over the file bound is not listed at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SNAPSHOT_LIMITS, WorkspaceSnapshotter } from '../../../src/core/checkpoints/commandSnapshot';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

function workspace() {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-snap-'));
  mkdirSync(path.join(dir, '.git'));
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'a.txt'), 'a\r\n');
  writeFileSync(path.join(dir, 'gone.txt'), Buffer.from([0xe9, 0x0a]));
  writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(SNAPSHOT_LIMITS.fileBytes + 1, 1));
  return { dir, at: (p: string) => path.join(dir, p) };
}

test('modified, created and deleted files come back with their earlier bytes; big ones are only named', async () => {
  const { dir, at } = workspace();
  const snap = new WorkspaceSnapshotter(new NodeFileSystem());
  const { result, changes } = await snap.around([dir], async () => {
    appendFileSync(at('src/a.txt'), 'more\r\n');
    writeFileSync(at('src/new.txt'), 'new');
    rmSync(at('gone.txt'));
    writeFileSync(at('.git/index'), 'x');
    appendFileSync(at('big.bin'), 'y');
    return 42;
  });
  assert.equal(result, 42);
  const changed = Object.fromEntries([...changes!.changed].map(([p, b]) => [path.relative(dir, p), b === null ? null : Buffer.from(b).toString('latin1')]));
  assert.deepEqual(changed, { 'src/a.txt': 'a\r\n', 'gone.txt': '\u00e9\n', 'src/new.txt': null });
  assert.deepEqual(changes!.unrecorded.map((p) => path.relative(dir, p)), ['big.bin']);
  // The next command reuses what is still current and sees only its own changes.
  const second = await snap.around([dir], async () => writeFileSync(at('src/a.txt'), 'third'));
  assert.deepEqual([...second.changes!.changed.keys()].map((p) => path.relative(dir, p)), ['src/a.txt']);
  assert.equal(Buffer.from(second.changes!.changed.get(at('src/a.txt'))!).toString(), 'a\r\nmore\r\n');
});

test('a workspace with more files than the bound is not snapshotted (the command still runs)', async () => {
  const { dir, at } = workspace();
  mkdirSync(at('many'));
  for (let i = 0; i <= SNAPSHOT_LIMITS.files; i++) writeFileSync(at(`many/f${i}`), '');
  const snap = new WorkspaceSnapshotter(new NodeFileSystem());
  let ran = false;
  const { changes } = await snap.around([dir], async () => {
    ran = true;
  });
  assert.equal(ran, true);
  assert.equal(changes, undefined);
});
