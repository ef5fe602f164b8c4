// The sandboxed runner with real bubblewrap: timeouts and Stop still end every process the command started
// (its own PID namespace), stand-ins for missing sensitive paths are gone afterwards, and the one-line form a
// terminal runs (bwrap --args 3 … 3<policy) confines the same way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { SandboxLauncher } from '../../../src/node/sandbox/sandboxLauncher';
import type { RunOptions, SandboxPolicy } from '../../../src/core/ports';

let root: string;
let ws: string;
let launcher: SandboxLauncher;
let runner: NodeProcessRunner;

before(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'lh-sandbox-runner-')));
  ws = path.join(root, 'ws');
  spawnSync('mkdir', ['-p', path.join(ws, '.git')]);
  launcher = new SandboxLauncher({ tempRoot: root });
  runner = new NodeProcessRunner({ sandbox: launcher, killGraceMs: 300 });
  assert.equal(launcher.support().available, true, `bubblewrap must work here (scripts/setup-sandbox.sh installs it): ${launcher.support().reason}`);
});
after(() => {
  launcher.dispose();
  rmSync(root, { recursive: true, force: true });
});

const policy = (): SandboxPolicy => ({
  writable: [ws],
  readOnly: [
    { path: path.join(ws, '.git'), exists: true, kind: 'directory' },
    { path: path.join(ws, '.vscode'), exists: false, kind: 'directory' },
  ],
  network: false,
});
const options = (extra: Partial<RunOptions> = {}): RunOptions => ({ cwd: ws, timeoutMs: 20_000, signal: new AbortController().signal, maxOutputChars: 10_000, sandbox: policy(), ...extra });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a timeout ends the command and what it left in the background: nothing writes afterwards', async () => {
  const started = Date.now();
  const result = await runner.run('(sleep 1; echo late > late.txt) & sleep 30', options({ timeoutMs: 400 }));
  assert.equal(result.timedOut, true);
  assert.ok(Date.now() - started < 5_000);
  await sleep(1_500);
  assert.equal(existsSync(path.join(ws, 'late.txt')), false, 'a background process outlived the timeout');
});

test('Stop (the turn aborted) ends it the same way', async () => {
  const controller = new AbortController();
  const pending = runner.run('(sleep 1; echo late > stopped.txt) & sleep 30', options({ signal: controller.signal }));
  await sleep(300);
  controller.abort();
  const result = await pending;
  assert.equal(result.cancelled, true);
  await sleep(1_500);
  assert.equal(existsSync(path.join(ws, 'stopped.txt')), false);
});

test('a command that finishes takes its background processes with it (they cannot outlive the sandbox)', async () => {
  const result = await runner.run('(sleep 1; echo late > orphan.txt) & echo started', options());
  assert.equal(result.exitCode, 0);
  assert.match(result.output, /started/);
  await sleep(1_500);
  assert.equal(existsSync(path.join(ws, 'orphan.txt')), false);
});

test('stand-ins for missing protected paths are there while the command runs and gone afterwards', async () => {
  const result = await runner.run('ls -d .vscode && mkdir .vscode/x', options());
  assert.match(result.output, /^\.vscode$/m);
  assert.match(result.output, /Read-only file system/);
  assert.equal(existsSync(path.join(ws, '.vscode')), false);
});

test('the terminal form: the line a shell runs confines the same way, and its policy file is removed after', () => {
  const launch = launcher.shellLine(`echo in > inside.txt; echo out > ../outside.txt; echo hook > .git/hook; echo "$TMPDIR"`, policy(), ws);
  // The policy on descriptor 3, and without network the unix-socket filter on 4.
  assert.match(launch.line, /^\/\S*bwrap --args 3 \/bin\/sh -c '.*' 3<\S+policy-\d+ 4<\S+unix-sockets\.bpf$/);
  const shell = spawnSync('bash', ['-c', `cd '${ws}' && ${launch.line}`], { encoding: 'utf8' });
  launch.release();
  assert.equal(readFileSync(path.join(ws, 'inside.txt'), 'utf8'), 'in\n');
  assert.equal(existsSync(path.join(root, 'outside.txt')), false);
  assert.equal(existsSync(path.join(ws, '.git/hook')), false);
  assert.match(shell.stderr, /\.\.\/outside\.txt: Read-only file system/);
  assert.match(shell.stdout, new RegExp(`^${root}/localharness-sandbox-\\w+/tmp$`, 'm'));
  const state = readdirSync(root).find((n) => n.startsWith('localharness-sandbox-'))!;
  assert.deepEqual(readdirSync(path.join(root, state)).filter((n) => n.startsWith('policy-')), []);
});

test('the terminal form keeps the limits: file size, and the process limit (as root through a pids cgroup)', () => {
  const limits = { maxProcesses: 32, maxFileSizeMB: 1, maxMemoryMB: 512 };
  const forks = `for i in $(seq 1 80); do sleep 2 & done 2>&1 | tail -1`;
  const launch = launcher.shellLine(`head -c 3000000 /dev/zero > big.bin; ${forks}; echo done`, { ...policy(), limits }, ws);
  const processLimit = launcher.limitSupport().processes || launcher.limitSupport().cgroupRoot !== undefined;
  if (launcher.limitSupport().cgroupRoot) assert.match(launch.line, /^\S*bwrap --args 3 \/bin\/sh -c 'echo \$\$ > "\$0"[^']*' \S+localharness-\d+-\d+\/cgroup\.procs \S*prlimit /);
  const shell = spawnSync('bash', ['-c', `cd '${ws}' && ${launch.line}`], { encoding: 'utf8' });
  launch.release();
  assert.match(shell.stdout + shell.stderr, /File size limit exceeded/);
  assert.ok(readFileSync(path.join(ws, 'big.bin')).length <= 1024 * 1024);
  if (processLimit) assert.match(shell.stdout + shell.stderr, /Cannot fork|Resource temporarily unavailable/);
  assert.match(shell.stdout, /^done$/m);
});

test('a policy without a launcher is refused, never run unconfined', async () => {
  const plain = new NodeProcessRunner();
  writeFileSync(path.join(ws, 'marker.txt'), 'x');
  await assert.rejects(plain.run('rm marker.txt', options()), /cannot sandbox commands/);
  assert.equal(existsSync(path.join(ws, 'marker.txt')), true);
});
