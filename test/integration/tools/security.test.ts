// Confinement: every way out of the workspace (.., absolute paths, symlinked files and folders, dangling links)
// is refused with a clear message, and nothing in the folder next to the workspace is read, created or changed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { TempWorkspace, ToolHarness } from '../../helpers/tools/toolHarness';

let ws: TempWorkspace;
let h: ToolHarness;
let snapshotBefore: string;

const SECRET = 'TOP SECRET outside content\n';

before(async () => {
  ws = await TempWorkspace.create();
  await ws.write('../outside/secret.txt', SECRET);
  await ws.write('../outside/dir/inner.txt', SECRET);
  await ws.write('inside.txt', 'inside\n');
  await symlink(path.join(ws.outside, 'secret.txt'), ws.abs('link-file.txt'));
  await symlink(ws.outside, ws.abs('link-dir'));
  await symlink(path.join(ws.outside, 'created-through-link.txt'), ws.abs('dangling.txt'));
  await symlink(path.join(ws.outside, 'new-dir'), ws.abs('dangling-dir'));
  h = new ToolHarness(ws);
  // Let the setup's mtimes settle so any later write would show up as a different mtime.
  await new Promise((r) => setTimeout(r, 20));
  snapshotBefore = await ws.outsideSnapshot();
});

after(async () => {
  await ws.dispose();
});

async function assertRefused(name: string, args: Record<string, unknown>, expected: RegExp): Promise<void> {
  const r = await h.call(name, args);
  assert.equal(r.ok, false, `${name} ${JSON.stringify(args)} should be refused, got: ${r.content}`);
  assert.match(r.content, expected, `${name} ${JSON.stringify(args)}`);
  assert.doesNotMatch(r.content, /TOP SECRET/, 'outside content must never reach the model');
}

const DOTDOT = /uses "\.\."/;
const OUTSIDE = /outside the workspace/;
const THROUGH_LINK = /outside the workspace through a symbolic link/;
const BROKEN_LINK = /broken symbolic link/;

describe('path confinement', () => {
  it('refuses ".." in every tool', async () => {
    await assertRefused('read_file', { path: '../outside/secret.txt' }, DOTDOT);
    await assertRefused('read_file', { path: 'sub/../../outside/secret.txt' }, DOTDOT);
    await assertRefused('read_file', { path: '..\\outside\\secret.txt' }, DOTDOT);
    await assertRefused('list_directory', { path: '..' }, DOTDOT);
    await assertRefused('search_files', { pattern: 'SECRET', path: '../outside' }, DOTDOT);
    await assertRefused('write_file', { path: '../outside/new.txt', content: 'x' }, DOTDOT);
    await assertRefused('edit_file', { path: '../outside/secret.txt', old_text: 'TOP', new_text: 'x' }, DOTDOT);
    await assertRefused('move_file', { source: '../outside/secret.txt', destination: 'stolen.txt' }, DOTDOT);
    await assertRefused('move_file', { source: 'inside.txt', destination: '../outside/planted.txt' }, DOTDOT);
    await assertRefused('run_command', { command: 'echo hi > planted.txt', cwd: '..' }, DOTDOT);
  });

  it('refuses absolute paths outside the workspace', async () => {
    const secret = path.join(ws.outside, 'secret.txt');
    await assertRefused('read_file', { path: secret }, OUTSIDE);
    await assertRefused('list_directory', { path: ws.outside }, OUTSIDE);
    await assertRefused('write_file', { path: path.join(ws.outside, 'abs.txt'), content: 'x' }, OUTSIDE);
    await assertRefused('edit_file', { path: secret, old_text: 'TOP', new_text: 'x' }, OUTSIDE);
    await assertRefused('move_file', { source: 'inside.txt', destination: path.join(ws.outside, 'moved.txt') }, OUTSIDE);
    await assertRefused('run_command', { command: 'touch planted.txt', cwd: ws.outside }, OUTSIDE);
    // A sibling whose name merely starts with the workspace's name is still outside.
    await assertRefused('read_file', { path: ws.root + '-evil/x.txt' }, OUTSIDE);
    await assertRefused('read_file', { path: '/etc/passwd' }, OUTSIDE);
    await assertRefused('write_file', { path: '~/planted.txt', content: 'x' }, /home directory/);
  });

  it('still allows absolute paths inside and names that merely start with ".."', async () => {
    const r = await h.call('read_file', { path: ws.abs('inside.txt') });
    assert.equal(r.ok, true, r.content);
    const w = await h.call('write_file', { path: '..config', content: 'ok\n' });
    assert.equal(w.ok, true, w.content);
    assert.equal(await ws.read('..config'), 'ok\n');
  });

  it('refuses a symlinked file that points outside, for reads and writes', async () => {
    await assertRefused('read_file', { path: 'link-file.txt' }, THROUGH_LINK);
    await assertRefused('write_file', { path: 'link-file.txt', content: 'overwritten' }, THROUGH_LINK);
    await assertRefused('edit_file', { path: 'link-file.txt', old_text: 'TOP', new_text: 'x' }, THROUGH_LINK);
    await assertRefused('move_file', { source: 'link-file.txt', destination: 'moved-link.txt' }, THROUGH_LINK);
    await assertRefused('search_files', { pattern: 'SECRET', path: 'link-file.txt' }, THROUGH_LINK);
  });

  it('refuses a symlinked directory that points outside, at any depth', async () => {
    await assertRefused('list_directory', { path: 'link-dir' }, THROUGH_LINK);
    await assertRefused('read_file', { path: 'link-dir/secret.txt' }, THROUGH_LINK);
    await assertRefused('read_file', { path: 'link-dir/dir/inner.txt' }, THROUGH_LINK);
    await assertRefused('write_file', { path: 'link-dir/new.txt', content: 'x' }, THROUGH_LINK);
    await assertRefused('write_file', { path: 'link-dir/a/b/c/deep.txt', content: 'x' }, THROUGH_LINK);
    await assertRefused('edit_file', { path: 'link-dir/secret.txt', old_text: 'TOP', new_text: 'x' }, THROUGH_LINK);
    await assertRefused('move_file', { source: 'inside.txt', destination: 'link-dir/moved.txt' }, THROUGH_LINK);
    await assertRefused('run_command', { command: 'touch planted.txt', cwd: 'link-dir' }, THROUGH_LINK);
    await assertRefused('search_files', { pattern: 'SECRET', path: 'link-dir/dir' }, THROUGH_LINK);
  });

  it('refuses to create files through dangling symlinks', async () => {
    await assertRefused('write_file', { path: 'dangling.txt', content: 'x' }, BROKEN_LINK);
    await assertRefused('write_file', { path: 'dangling-dir/x.txt', content: 'x' }, BROKEN_LINK);
    await assertRefused('move_file', { source: 'inside.txt', destination: 'dangling-dir/moved.txt' }, BROKEN_LINK);
    await assertRefused('move_file', { source: 'inside.txt', destination: 'dangling.txt' }, BROKEN_LINK);
  });

  it('never walks into a symlinked folder when searching the whole workspace', async () => {
    const r = await h.call('search_files', { pattern: 'TOP SECRET' });
    assert.equal(r.ok, true);
    assert.match(r.content, /^No matches/);
  });

  it('refuses a NUL byte in a path', async () => {
    await assertRefused('read_file', { path: 'inside.txt\0../../etc/passwd' }, /NUL/);
  });

  it('left everything outside the workspace untouched', async () => {
    assert.equal(await ws.outsideSnapshot(), snapshotBefore);
    assert.deepEqual((await readdir(ws.outside)).sort(), ['dir', 'secret.txt']);
    assert.equal(await ws.read('inside.txt'), 'inside\n');
    // No temp files left behind by refused writes either.
    assert.deepEqual((await readdir(ws.root)).filter((n) => n.endsWith('.tmp')), []);
    assert.deepEqual((await readdir(path.dirname(ws.root))).sort(), ['outside', 'ws']);
  });
});
