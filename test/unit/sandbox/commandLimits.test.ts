// How the limits reach the command: prlimit's arguments, where the process limit applies (per user namespace since
// Linux 5.14, never for root as an rlimit), and root's pids cgroup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { limitArgs, limitSupport } from '../../../src/node/sandbox/commandLimits';
import { findPidsCgroupRoot, makePidsCgroup } from '../../../src/node/sandbox/pidsCgroup';

const LIMITS = { maxProcesses: 64, maxFileSizeMB: 10, maxMemoryMB: 256 };

test('prlimit sets every limit given, in bytes; 0 leaves one out; no limits or no prlimit: nothing', () => {
  const support = { prlimit: '/usr/bin/prlimit', processes: true };
  assert.deepEqual(limitArgs(LIMITS, support), ['/usr/bin/prlimit', '--nproc=64', `--fsize=${10 * 1024 * 1024}`, `--data=${256 * 1024 * 1024}`, '--']);
  assert.deepEqual(limitArgs({ ...LIMITS, maxFileSizeMB: 0 }, support), ['/usr/bin/prlimit', '--nproc=64', `--data=${256 * 1024 * 1024}`, '--']);
  assert.deepEqual(limitArgs({ maxProcesses: 0, maxFileSizeMB: 0, maxMemoryMB: 0 }, support), []);
  assert.deepEqual(limitArgs(undefined, support), []);
  assert.deepEqual(limitArgs(LIMITS, { processes: true }), []);
  // Where the process limit does not apply as an rlimit, it is not set (root, old kernels).
  assert.deepEqual(limitArgs(LIMITS, { prlimit: '/usr/bin/prlimit', processes: false }), ['/usr/bin/prlimit', `--fsize=${10 * 1024 * 1024}`, `--data=${256 * 1024 * 1024}`, '--']);
});

test('the process limit as an rlimit: from Linux 5.14 for users; older kernels count all the user\u2019s processes', () => {
  const env = { PATH: '/usr/bin:/bin' };
  const hasPrlimit = existsSync('/usr/bin/prlimit') || existsSync('/bin/prlimit');
  if (!hasPrlimit) {
    assert.match(limitSupport(env, 1000, '6.1.0').reason!, /prlimit \(util-linux\) was not found/);
    return;
  }
  assert.equal(limitSupport(env, 1000, '6.1.0-18-amd64').processes, true);
  assert.equal(limitSupport(env, 1000, '5.14.0').processes, true);
  const old = limitSupport(env, 1000, '5.10.0-28-amd64');
  assert.equal(old.processes, false);
  assert.match(old.reason!, /Linux 5\.10 counts every process of the user/);
  const root = limitSupport(env, 0, '6.1.0');
  assert.equal(root.processes, false);
  // Root: a pids cgroup where one can be made, else said why not.
  assert.ok(root.cgroupRoot !== undefined || /does not apply the process limit to root, and /.test(root.reason ?? ''), JSON.stringify(root));
});

test('root\u2019s pids cgroup: found from /proc/self/cgroup (v1 pids line or v2), made with pids.max, removed; none where it cannot be made', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-cgroup-'));
  try {
    // A stand-in for the cgroup file system: an ordinary folder accepts the probe and pids.max.
    const mount = path.join(dir, 'sys');
    mkdirSync(path.join(mount, 'pids/user.slice'), { recursive: true });
    const v1 = path.join(dir, 'cgroup-v1');
    writeFileSync(v1, '12:memory:/x\n8:pids:/user.slice\n0::/user.slice\n');
    assert.deepEqual(findPidsCgroupRoot(v1, mount), { dir: path.join(mount, 'pids/user.slice') });
    const cgroup = makePidsCgroup(path.join(mount, 'pids/user.slice'), 64)!;
    assert.equal(readFileSync(path.join(cgroup.dir, 'pids.max'), 'utf8'), '64');
    rmSync(path.join(cgroup.dir, 'pids.max'));
    cgroup.remove();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(existsSync(cgroup.dir), false);
    const v2 = path.join(dir, 'cgroup-v2');
    writeFileSync(v2, '0::/\n');
    assert.deepEqual(findPidsCgroupRoot(v2, path.join(dir, 'nowhere')).dir, undefined);
    assert.match(findPidsCgroupRoot(path.join(dir, 'missing'), mount).reason!, /no cgroups/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
