// The undo stack: every agent write records the previous content first; undo restores it (or deletes a file the
// agent created). Real files in a temp dir, with an in-memory checkpoint stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheckpointingFileSystem, undoLastEdit, type CheckpointSink, type CheckpointSource, type FileCheckpoint } from '../../../src/core/checkpoints/checkpointingFileSystem';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';

class MemoryCheckpoints implements CheckpointSink, CheckpointSource {
  readonly stack: FileCheckpoint[][] = [];
  async pushCheckpoint(p: string, before: string | null): Promise<void> {
    this.stack.push([{ path: p, before }]);
  }
  async pushCheckpoints(entries: readonly FileCheckpoint[]): Promise<void> {
    this.stack.push([...entries]);
  }
  async popUndoStep(): Promise<FileCheckpoint[]> {
    return (this.stack.pop() ?? []).reverse();
  }
}

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-ckpt-'));
  const node = new NodeFileSystem();
  const checkpoints = new MemoryCheckpoints();
  const roots = new WorkspaceRoots([{ name: 'ws', path: dir }], node);
  /** The first path the undo restored (undefined: nothing was left to undo). */
  const undo = async () => (await undoLastEdit(checkpoints, node, roots)).restored[0];
  return { dir, node, checkpoints, roots, undo, fs: new CheckpointingFileSystem(node, checkpoints), at: (n: string) => path.join(dir, n) };
}

test('an overwrite and a new file are undone newest first', async () => {
  const { fs, undo, at } = setup();
  writeFileSync(at('a.txt'), 'original\n');
  await fs.writeFile(at('a.txt'), 'changed\n');
  await fs.writeFile(at('new.txt'), 'created\n');
  assert.equal(await undo(), at('new.txt'));
  assert.equal(existsSync(at('new.txt')), false);
  assert.equal(await undo(), at('a.txt'));
  assert.equal(readFileSync(at('a.txt'), 'utf8'), 'original\n');
  assert.equal(await undo(), undefined);
});

test('one undo takes a move back whole: the source returns, the destination goes', async () => {
  const { fs, undo, at } = setup();
  writeFileSync(at('from.txt'), 'precious\n');
  writeFileSync(at('other.txt'), 'before\n');
  await fs.writeFile(at('other.txt'), 'after\n');
  await fs.rename(at('from.txt'), at('to.txt'));
  assert.equal(await undo(), at('from.txt'));
  assert.equal(readFileSync(at('from.txt'), 'utf8'), 'precious\n');
  assert.equal(existsSync(at('to.txt')), false);
  assert.equal(readFileSync(at('other.txt'), 'utf8'), 'after\n', 'the earlier edit is a step of its own');
  assert.equal(await undo(), at('other.txt'));
  assert.equal(readFileSync(at('other.txt'), 'utf8'), 'before\n');
  assert.equal(await undo(), undefined);
});
