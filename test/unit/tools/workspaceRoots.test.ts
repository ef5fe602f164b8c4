// WorkspaceRoots against real temp folders: lexical rules, multi-root naming, symlink checks.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, symlink, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { isInside, PathError, WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { TempWorkspace } from '../../helpers/tools/toolHarness';

let ws: TempWorkspace;
let second: string;
let roots: WorkspaceRoots;
let multi: WorkspaceRoots;
const fs = new NodeFileSystem();

before(async () => {
  ws = await TempWorkspace.create();
  second = path.join(ws.base, 'second');
  await mkdir(second);
  roots = new WorkspaceRoots([{ name: 'ws', path: ws.root }], fs);
  multi = new WorkspaceRoots(
    [
      { name: 'ws', path: ws.root },
      { name: 'second', path: second },
    ],
    fs,
  );
});
after(async () => {
  await ws.dispose();
});

describe('WorkspaceRoots', () => {
  it('resolves relative paths, "." and "" against the first folder', async () => {
    assert.equal(await roots.resolve('src/a.ts'), path.join(ws.root, 'src', 'a.ts'));
    assert.equal(await roots.resolve('./src\\a.ts'), path.join(ws.root, 'src', 'a.ts'));
    assert.equal(await roots.resolve('.'), ws.root);
    assert.equal(await roots.resolve(''), ws.root);
    assert.equal(roots.relative(path.join(ws.root, 'src', 'a.ts')), 'src/a.ts');
    assert.equal(roots.relative(ws.root), '.');
  });

  it('accepts names that only start with ".." or "~", refuses ".." segments and "~/"', async () => {
    assert.equal(await roots.resolve('..config'), path.join(ws.root, '..config'));
    assert.equal(await roots.resolve('dir/..hidden/x'), path.join(ws.root, 'dir', '..hidden', 'x'));
    assert.equal(await roots.resolve('~backup'), path.join(ws.root, '~backup'));
    await assert.rejects(roots.resolve('a/../b'), (e) => e instanceof PathError && /"\.\."/.test(e.message));
    await assert.rejects(roots.resolve('~/notes.txt'), (e) => e instanceof PathError && /home directory/.test(e.message));
    await assert.rejects(roots.resolve('~'), PathError);
  });

  it('accepts absolute paths inside and refuses those outside, including prefix look-alikes', async () => {
    assert.equal(await roots.resolve(path.join(ws.root, 'x')), path.join(ws.root, 'x'));
    await assert.rejects(roots.resolve(ws.root + '2/x'), /outside the workspace/);
    await assert.rejects(roots.resolve(path.join(ws.root, '..', 'outside')), /outside the workspace/);
  });

  it('routes "name/..." to the named folder in a multi-root workspace', async () => {
    assert.equal(await multi.resolve('second/lib/x.py'), path.join(second, 'lib', 'x.py'));
    assert.equal(await multi.resolve('lib/x.py'), path.join(ws.root, 'lib', 'x.py'));
    assert.equal(multi.relative(path.join(second, 'lib', 'x.py')), 'second/lib/x.py');
    assert.equal(await multi.resolve(path.join(second, 'y')), path.join(second, 'y'));
  });

  it('refuses symlink loops and links between folders of a multi-root workspace', async () => {
    await symlink(ws.abs('loop'), ws.abs('loop'));
    await assert.rejects(roots.resolve('loop/x'), (e) => e instanceof PathError && /cannot be checked|symbolic link/.test(e.message));
    await symlink(second, ws.abs('to-second'));
    await assert.rejects(multi.resolve('to-second/file'), /symbolic link/);
  });

  it('looks a linked folder up on every check: re-pointed mid-session, it confines paths to where it now leads', async () => {
    const a = path.join(ws.base, 'linked-a');
    const b = path.join(ws.base, 'linked-b');
    await mkdir(a);
    await mkdir(b);
    await writeFile(path.join(a, 'secret.txt'), 'old folder');
    await symlink(a, path.join(b, 'back-to-a'));
    const link = path.join(ws.base, 'folder-link');
    await symlink(a, link);
    const linked = new WorkspaceRoots([{ name: 'linked', path: link }], fs);
    assert.equal(await linked.resolve('secret.txt'), path.join(link, 'secret.txt'));
    await unlink(link);
    await symlink(b, link);
    // back-to-a/secret.txt now leads out of the folder (into the one it used to be).
    await assert.rejects(linked.resolve('back-to-a/secret.txt'), (e) => e instanceof PathError && /symbolic link/.test(e.message));
    assert.equal(await linked.resolve('new.txt'), path.join(link, 'new.txt'));
    await unlink(link);
    await assert.rejects(linked.resolve('new.txt'), /Workspace folder .* does not exist/);
  });

  it('isInside compares whole path segments', () => {
    const root = path.join(path.sep, 'w', 'ws');
    assert.equal(isInside(root, root), true);
    assert.equal(isInside(root, path.join(root, '..x')), true);
    assert.equal(isInside(root, path.join(root, 'a', '..', 'b')), true);
    assert.equal(isInside(root, path.join(path.sep, 'w', 'ws2')), false);
    assert.equal(isInside(root, path.join(path.sep, 'w')), false);
    assert.equal(isInside(root, path.join(path.sep, 'w', 'other', 'x')), false);
  });
});
