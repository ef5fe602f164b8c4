// What the note after a sandboxed command says: which operation was stopped (a write outside, a protected file, the
// network, a unix socket, a limit), how to allow it, and nothing when nothing was stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removedNote, sandboxBlocks, sandboxNote } from '../../../src/core/sandbox/sandboxBlocks';
import { DEFAULT_SANDBOX_LIMITS, parseSandboxLimits, SANDBOX_LIMIT_FLAGS } from '../../../src/core/sandbox/sandboxLimits';
import type { SandboxPolicy } from '../../../src/core/ports';

const HINTS = { network: 'use --allow-network-for', off: 'use --sandbox off', limits: 'use --max-file-size-mb' };
const POLICY: SandboxPolicy = {
  writable: ['/w'],
  readOnly: [
    { path: '/w/.vscode', exists: false, kind: 'directory' },
    { path: '/w/.git', exists: true, kind: 'directory' },
  ],
  network: false,
  limits: { maxProcesses: 64, maxFileSizeMB: 10, maxMemoryMB: 256 },
};

test('a write outside the workspace and one to a protected file are told apart; mkdir under a protected folder is one too', () => {
  const outside = sandboxBlocks('sh: 1: cannot create ../x.txt: Read-only file system', POLICY);
  assert.deepEqual(outside, [{ kind: 'write', evidence: 'sh: 1: cannot create ../x.txt: Read-only file system' }]);
  assert.equal(sandboxBlocks("touch: cannot touch '.git/hooks/pre-commit': Read-only file system", POLICY)[0]?.protected, true);
  // Under a held (missing) folder or a protected one, mkdir of a deeper folder fails with "no such file".
  for (const line of ["mkdir: cannot create directory '.vscode/a/b': No such file or directory", "Error: ENOENT: no such file or directory, mkdir '.git/hooks/x/y'"]) {
    const [block] = sandboxBlocks(line, POLICY);
    assert.equal(block?.kind, 'write', line);
    assert.equal(block?.protected, true, line);
  }
  // Reading a missing file under .git is no block; nor is a missing ordinary folder.
  assert.deepEqual(sandboxBlocks("cat: .git/nothing: No such file or directory", POLICY), []);
  assert.deepEqual(sandboxBlocks("mkdir: cannot create directory 'src/a/b': No such file or directory", POLICY), []);
  const note = sandboxNote(sandboxBlocks("touch: cannot touch '.git/x': Read-only file system", POLICY), HINTS);
  assert.match(note, /a protected file, which only a file tool may change, after asking the user\. .*To change a protected file, use write_file or edit_file/);
  assert.match(sandboxNote([removedNote(['/w/x.code-workspace'])], HINTS), /created \/w\/x\.code-workspace; removed after the command/);
});

test('a unix socket is its own block, network or not; the network only when it was off and the command failed', () => {
  const socket = sandboxBlocks('connect EPERM /var/run/docker.sock', { ...POLICY, network: true });
  assert.deepEqual(socket.map((b) => b.kind), ['socket']);
  assert.match(sandboxNote(socket, HINTS), /It blocked a network connection to a unix socket \(connect EPERM \/var\/run\/docker\.sock\): no socket of the host/);
  const python = 'Traceback (most recent call last):\n  File "/usr/lib/python3.11/socket.py", line 232, in __init__\nPermissionError: [Errno 1] Operation not permitted';
  assert.deepEqual(sandboxBlocks(python, POLICY).map((b) => b.kind), ['socket']);
  // The same error from chmod is no socket.
  assert.deepEqual(sandboxBlocks("PermissionError: [Errno 1] Operation not permitted: 'x'", POLICY), []);
  // A test that retried until its own server listened, then passed: no "blocked connection".
  const retried = 'connect ECONNREFUSED 127.0.0.1:3000 (retrying)\nconnected\n# pass 3';
  assert.deepEqual(sandboxBlocks(retried, POLICY, { exitCode: 0 }), []);
  assert.deepEqual(sandboxBlocks(retried, POLICY, { exitCode: 1 }).map((b) => b.kind), ['network']);
});

test('limits: file size, processes and memory, each said with its value and how to raise it; only when limits were set', () => {
  const cases: Array<[string, RegExp]> = [
    ['File size limit exceeded', /a process over the file size limit \(10 MB per file\)/],
    ["Error: EFBIG: file too large, write", /file size limit \(10 MB per file\)/],
    ['sh: 1: Cannot fork', /a process over the process limit \(64 processes and threads\)/],
    ['BlockingIOError: [Errno 11] Resource temporarily unavailable', /process limit/],
    ['Error: spawn EAGAIN', /process limit/],
    ['MemoryError', /a process over the memory limit \(256 MB per process\)/],
    ['fatal error: runtime: cannot allocate memory', /memory limit/],
  ];
  for (const [line, expected] of cases) {
    const blocks = sandboxBlocks(line, POLICY, { exitCode: 1 });
    assert.equal(blocks[0]?.kind, 'limit', line);
    const note = sandboxNote(blocks, HINTS, POLICY.limits);
    assert.match(note, expected, line);
    assert.match(note, /The user can raise the limits: use --max-file-size-mb\./);
  }
  // The shell reports a write over the limit even when a later command in the line succeeded.
  assert.equal(sandboxBlocks('File size limit exceeded', POLICY, { exitCode: 0 })[0]?.limit, 'maxFileSizeMB');
  assert.deepEqual(sandboxBlocks('MemoryError', POLICY, { exitCode: 0 }), []);
  const { limits: _none, ...unlimited } = POLICY;
  assert.deepEqual(sandboxBlocks('MemoryError', unlimited, { exitCode: 1 }), []);
  assert.deepEqual(sandboxBlocks('MemoryError', { ...POLICY, limits: { ...POLICY.limits!, maxMemoryMB: 0 } }, { exitCode: 1 }), []);
});

test('limit values: whole numbers from a minimum, 0 for none; bad ones fall back (settings) or are named (flags)', () => {
  const problems: string[] = [];
  assert.deepEqual(parseSandboxLimits({ maxProcesses: 256, maxFileSizeMB: '0', maxMemoryMB: undefined }, problems), { ...DEFAULT_SANDBOX_LIMITS, maxProcesses: 256, maxFileSizeMB: 0 });
  assert.deepEqual(problems, []);
  assert.deepEqual(parseSandboxLimits({ maxProcesses: 2, maxFileSizeMB: 1.5, maxMemoryMB: 'lots' }, problems), DEFAULT_SANDBOX_LIMITS);
  assert.equal(problems.length, 3);
  assert.match(problems[0]!, /^localharness\.sandbox\.maxProcesses must be a whole number from 8 \(0: no limit\), got 2; using 1024\.$/);
  const flags: string[] = [];
  parseSandboxLimits({ maxMemoryMB: '-1' }, flags, SANDBOX_LIMIT_FLAGS);
  assert.deepEqual(flags, ['--max-memory-mb must be a whole number from 64 (0: no limit), got "-1"']);
});
