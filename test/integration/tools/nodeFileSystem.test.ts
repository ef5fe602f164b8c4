// NodeFileSystem on a real temp dir: lstat does not follow links, writes are atomic and never go through links.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, link, readdir, readFile, stat, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { TempWorkspace } from '../../helpers/tools/toolHarness';

let ws: TempWorkspace;
const fs = new NodeFileSystem();

before(async () => {
  ws = await TempWorkspace.create();
});
after(async () => {
  await ws.dispose();
});

describe('NodeFileSystem', () => {
  it('lstat reports kinds without following a final symlink, and undefined for nothing', async () => {
    await ws.write('f.txt', 'hello');
    await symlink(ws.abs('f.txt'), ws.abs('f-link'));
    await symlink(ws.abs('missing'), ws.abs('dangling'));
    assert.deepEqual(
      { kind: (await fs.lstat(ws.abs('f.txt')))?.kind, size: (await fs.lstat(ws.abs('f.txt')))?.size },
      { kind: 'file', size: 5 },
    );
    assert.equal((await fs.lstat(ws.abs('f-link')))?.kind, 'symlink');
    assert.equal((await fs.lstat(ws.abs('dangling')))?.kind, 'symlink');
    assert.equal((await fs.lstat(ws.root))?.kind, 'directory');
    assert.equal(await fs.lstat(ws.abs('nothing-here')), undefined);
    assert.equal(await fs.lstat(ws.abs('f.txt/below-a-file')), undefined);
    assert.equal(await fs.realpath(ws.abs('f-link')), ws.abs('f.txt'));
    await assert.rejects(fs.realpath(ws.abs('dangling')));
  });

  it('readDirectory reports entry kinds', async () => {
    await ws.write('dir/a.txt', 'a');
    await ws.write('dir/sub/b.txt', 'b');
    await symlink(ws.abs('dir/a.txt'), ws.abs('dir/l'));
    const entries = (await fs.readDirectory(ws.abs('dir'))).sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(entries, [
      { name: 'a.txt', kind: 'file' },
      { name: 'l', kind: 'symlink' },
      { name: 'sub', kind: 'directory' },
    ]);
  });

  it('writeFile replaces content atomically, leaves no temp file and keeps the file mode', async () => {
    const file = await ws.write('script.sh', '#!/bin/sh\necho old\n');
    await chmod(file, 0o755);
    await fs.writeFile(file, '#!/bin/sh\necho new\n');
    assert.equal(await readFile(file, 'utf8'), '#!/bin/sh\necho new\n');
    if (process.platform !== 'win32') assert.equal((await stat(file)).mode & 0o777, 0o755);
    assert.deepEqual((await readdir(ws.root)).filter((n) => n.includes('.tmp')), []);
  });

  it('writeFile replaces a symlink or hard link instead of writing through it', async () => {
    const outsideFile = path.join(ws.outside, 'target.txt');
    await ws.write('../outside/target.txt', 'outside\n');
    await symlink(outsideFile, ws.abs('sym.txt'));
    await fs.writeFile(ws.abs('sym.txt'), 'replaced\n');
    assert.equal(await readFile(outsideFile, 'utf8'), 'outside\n');
    assert.equal((await fs.lstat(ws.abs('sym.txt')))?.kind, 'file');

    await link(outsideFile, ws.abs('hard.txt'));
    await fs.writeFile(ws.abs('hard.txt'), 'replaced\n');
    assert.equal(await readFile(outsideFile, 'utf8'), 'outside\n');
    assert.equal(await ws.read('hard.txt'), 'replaced\n');
  });

  it('writeFile fails cleanly when the directory is missing, leaving nothing behind', async () => {
    await assert.rejects(fs.writeFile(ws.abs('no/such/dir/x.txt'), 'x'), /ENOENT/);
    assert.equal(await ws.exists('no'), false);
  });

  it('mkdir creates parents and accepts an existing directory; rename moves', async () => {
    await fs.mkdir(ws.abs('m/a/b'));
    await fs.mkdir(ws.abs('m/a/b'));
    assert.equal((await fs.lstat(ws.abs('m/a/b')))?.kind, 'directory');
    await ws.write('m/from.txt', 'x');
    await fs.rename(ws.abs('m/from.txt'), ws.abs('m/a/b/to.txt'));
    assert.equal(await ws.read('m/a/b/to.txt'), 'x');
    assert.equal(await ws.exists('m/from.txt'), false);
  });
});
