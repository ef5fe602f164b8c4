// The order that keeps a line from being lost: a file's previous bytes are recorded before the file changes, also
// when the recording overlaps the write (NodeFileSystem.writeAfter); a failed recording leaves the file as it was;
// and what the edit left is hashed from the exact bytes written. Real files in a temp dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync, chmodSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheckpointingFileSystem, type CheckpointSink, type FileCheckpoint } from '../../../src/core/checkpoints/checkpointingFileSystem';
import { stateHash } from '../../../src/core/checkpoints/history';
import type { FileSystemPort } from '../../../src/core/ports';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

/** Reads the disk at the moment a checkpoint arrives, so a test can tell whether the edit had already landed. */
class WatchingSink implements CheckpointSink {
  readonly seenOnDisk: Array<string | null> = [];
  readonly pushed: FileCheckpoint[] = [];
  readonly results = new Map<string, string>();
  failWith: Error | undefined;
  async pushCheckpoint(p: string, before: Uint8Array | string | null): Promise<void> {
    this.seenOnDisk.push(existsSync(p) ? readFileSync(p, 'utf8') : null);
    if (this.failWith) throw this.failWith;
    this.pushed.push({ path: p, before });
  }
  async pushCheckpoints(entries: readonly FileCheckpoint[]): Promise<void> {
    this.pushed.push(...entries);
  }
  async recordResult(p: string, after: Uint8Array | null): Promise<void> {
    this.results.set(p, stateHash(after));
  }
}

function folder() {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-ckpt-order-'));
  return { dir, at: (n: string) => path.join(dir, n) };
}

/** The same file system without the two-step write: the checkpoint, then the write, then a read-back. */
function withoutWriteAfter(inner: NodeFileSystem): FileSystemPort {
  return {
    readFile: (p) => inner.readFile(p),
    writeFile: (p, c) => inner.writeFile(p, c),
    readBytes: (p) => inner.readBytes(p),
    writeBytes: (p, d) => inner.writeBytes(p, d),
    lstat: (p) => inner.lstat(p),
    realpath: (p) => inner.realpath(p),
    readDirectory: (p) => inner.readDirectory(p),
    rename: (a, b) => inner.rename(a, b),
    mkdir: (p) => inner.mkdir(p),
    remove: (p) => inner.remove(p),
  };
}

for (const [name, port] of [
  ['the two-step write (writeAfter)', (node: NodeFileSystem): FileSystemPort => node],
  ['a port without writeAfter', withoutWriteAfter],
] as const) {
  test(`${name}: the previous bytes are recorded while the file still holds them, and the result is what was written`, async () => {
    const { at } = folder();
    writeFileSync(at('a.txt'), 'old line\n');
    const sink = new WatchingSink();
    const fs = new CheckpointingFileSystem(port(new NodeFileSystem()), sink);
    await fs.writeFile(at('a.txt'), 'new line ½\n');
    await fs.writeBytes(at('b.bin'), new Uint8Array([0, 255, 10]));
    assert.deepEqual(sink.seenOnDisk, ['old line\n', null]);
    assert.deepEqual(
      sink.pushed.map((c) => [c.path, c.before === null ? null : Buffer.from(c.before).toString('utf8')]),
      [[at('a.txt'), 'old line\n'], [at('b.bin'), null]],
    );
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'new line ½\n');
    assert.equal(sink.results.get(at('a.txt')), stateHash(readFileSync(at('a.txt'))));
    assert.equal(sink.results.get(at('b.bin')), stateHash(readFileSync(at('b.bin'))));
  });

  test(`${name}: when the checkpoint cannot be stored, the edit is refused and the file is untouched`, async () => {
    const { dir, at } = folder();
    writeFileSync(at('a.txt'), 'keep me\n');
    const sink = new WatchingSink();
    sink.failWith = new Error('disk full');
    const fs = new CheckpointingFileSystem(port(new NodeFileSystem()), sink);
    await assert.rejects(fs.writeFile(at('a.txt'), 'lost?\n'), /disk full/);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'keep me\n');
    assert.deepEqual(readdirSync(dir), ['a.txt'], 'no temp file is left behind');
    assert.equal(sink.results.size, 0);
  });
}

test('writeAfter: the file is replaced only after ready resolves, keeps its mode, and returns the bytes written', async () => {
  const { dir, at } = folder();
  writeFileSync(at('run.sh'), 'echo old\n');
  chmodSync(at('run.sh'), 0o755);
  const node = new NodeFileSystem();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  const writing = node.writeAfter(at('run.sh'), 'echo new\n', () => {
    started = true;
    return gate;
  });
  // Give the write every chance to finish early: the temp file is written and synced, the rename must still wait.
  for (let i = 0; i < 50 && !started; i++) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(started, true);
  assert.equal(readFileSync(at('run.sh'), 'utf8'), 'echo old\n', 'not replaced while ready is pending');
  release();
  const written = await writing;
  assert.equal(Buffer.from(written).toString('utf8'), 'echo new\n');
  assert.equal(readFileSync(at('run.sh'), 'utf8'), 'echo new\n');
  assert.equal(statSync(at('run.sh')).mode & 0o777, 0o755);
  assert.deepEqual(readdirSync(dir), ['run.sh']);
});

test('writeAfter: a ready that throws before returning a promise also leaves the file and no temp file', async () => {
  const { dir, at } = folder();
  writeFileSync(at('a.txt'), 'as it was\n');
  const node = new NodeFileSystem();
  await assert.rejects(
    node.writeAfter(at('a.txt'), new Uint8Array([1, 2, 3]), () => {
      throw new Error('refused at once');
    }),
    /refused at once/,
  );
  assert.equal(readFileSync(at('a.txt'), 'utf8'), 'as it was\n');
  assert.deepEqual(readdirSync(dir), ['a.txt']);
});
