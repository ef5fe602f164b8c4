// The sandbox flags of `localharness run`: the default is the sandbox, required; mistakes are usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { parseCli, UsageError, type RunOptions } from '../../../src/cli/args';

const run = (...argv: string[]) => parseCli(['run', ...argv, 'do it'], {}, '/ws') as RunOptions;

test('default: sandbox required, no network; the flags set mode, network and prefixes', () => {
  assert.deepEqual(run().sandbox, { mode: 'required', network: false, networkCommands: [], writablePaths: [] });
  assert.deepEqual(run('--sandbox', 'auto', '--allow-network-for', 'npm install', '--allow-network-for', 'pip  install').sandbox, {
    mode: 'auto',
    network: false,
    networkCommands: ['npm install', 'pip install'],
    writablePaths: [],
  });
  assert.deepEqual(run('--allow-network').sandbox, { mode: 'required', network: true, networkCommands: [], writablePaths: [] });
  // Folders relative to where the CLI runs; "~/" is the home folder.
  assert.deepEqual(run('--sandbox-write', 'cache', '--sandbox-write', '~/.cargo').sandbox.writablePaths, ['/ws/cache', path.join(os.homedir(), '.cargo')]);
  assert.equal(run('--sandbox', 'off').sandbox.mode, 'off');
});

test('an unknown mode, an empty prefix, network flags with --sandbox off, or sandbox flags on other commands are usage errors', () => {
  assert.throws(() => run('--sandbox', 'maybe'), /--sandbox must be required, auto or off, got "maybe"/);
  assert.throws(() => run('--allow-network-for', ' '), /--allow-network-for needs a command prefix/);
  assert.throws(() => run('--sandbox', 'off', '--allow-network'), /with --sandbox off every command can do all of it already/);
  assert.throws(() => run('--sandbox', 'off', '--sandbox-write', '/tmp/x'), /apply to sandboxed commands/);
  assert.throws(() => run('--sandbox-write', ''), /--sandbox-write needs a folder/);
  assert.throws(() => parseCli(['query', '--sandbox', 'off', 'text'], {}, '/ws'), UsageError);
});

test('a bad --sandbox-write folder is named as such, not as a missing network prefix', () => {
  assert.throws(() => run('--sandbox-write', '~bob/cache'), (err: Error) => {
    assert.ok(err instanceof UsageError);
    assert.equal(err.message, '--sandbox-write needs a folder, absolute or ~/…, got "~bob/cache"');
    return true;
  });
});

test('limit flags: --max-processes, --max-file-size-mb, --max-memory-mb (0: none); bad values are usage errors', () => {
  assert.deepEqual(run('--max-file-size-mb', '10', '--max-processes', '0').sandbox.limits, { maxProcesses: 0, maxFileSizeMB: 10, maxMemoryMB: 4096 });
  assert.equal(run().sandbox.limits, undefined);
  assert.throws(() => run('--max-memory-mb', 'lots'), /--max-memory-mb must be a whole number from 64 \(0: no limit\), got "lots"/);
  assert.throws(() => run('--max-processes', '3'), /--max-processes must be a whole number from 8/);
});
