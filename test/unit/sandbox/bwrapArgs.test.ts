// The bubblewrap command line and the Seatbelt profile for a policy: what is writable, what stays read-only,
// what stands in for a missing sensitive path, and what no network means.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bwrapArgs } from '../../../src/node/sandbox/bwrapArgs';
import { seatbeltProfile } from '../../../src/node/sandbox/seatbeltProfile';
import { shellQuote } from '../../../src/node/sandbox/sandboxLauncher';
import { commandFilter } from '../../../src/node/sandbox/seccompFilter';
import type { SandboxPolicy } from '../../../src/core/ports';

const PATHS = { tmp: '/t/sbx/tmp', emptyFile: '/t/sbx/empty', emptyDir: '/t/sbx/empty.d', socketDirs: ['/run', '/tmp/.X11-unix'] };

const POLICY: SandboxPolicy = {
  writable: ['/w/app/packages/ui', '/w/app'],
  readOnly: [
    { path: '/w/app/.vscode', exists: false, kind: 'directory' },
    { path: '/w/app/.git', exists: true, kind: 'directory' },
    { path: '/w/app/AGENTS.md', exists: false, kind: 'file' },
  ],
  network: false,
};

/** Each option with its operands, in order: ["--bind /a /a", …]. */
function mounts(args: string[]): string[] {
  const arity: Record<string, number> = { '--ro-bind': 2, '--bind': 2, '--tmpfs': 1, '--dev': 1, '--proc': 1, '--setenv': 2, '--chdir': 1, '--seccomp': 1, '--cap-drop': 1 };
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const n = arity[args[i]!] ?? 0;
    out.push(args.slice(i, i + n + 1).join(' '));
    i += n;
  }
  return out;
}

test('without network: the whole disk read-only, new /dev and /proc, own PID, IPC and network namespaces, sockets hidden', () => {
  const m = mounts(bwrapArgs(POLICY, PATHS, '/w/app/src'));
  assert.deepEqual(m.slice(0, 7), ['--ro-bind / /', '--dev /dev', '--proc /proc', '--unshare-pid', '--unshare-ipc', '--new-session', '--die-with-parent']);
  assert.ok(m.includes('--unshare-net'));
  // Daemon sockets are hidden before the writable binds, so a workspace under /run is bound again on top.
  assert.ok(m.indexOf('--tmpfs /run') < m.indexOf('--bind /w/app /w/app'));
  assert.ok(m.includes('--tmpfs /tmp/.X11-unix'));
  assert.ok(mounts(bwrapArgs(POLICY, { ...PATHS, seccompFd: 3 }, '/w/app')).includes('--seccomp 3'));
  assert.deepEqual(m.slice(-2), ['--setenv TMPDIR /t/sbx/tmp', '--chdir /w/app/src']);
  const withEnv = mounts(bwrapArgs(POLICY, { ...PATHS, env: { npm_config_cache: '/t/sbx/tmp/npm-cache' } }, '/w/app'));
  assert.deepEqual(withEnv.slice(-3), ['--setenv npm_config_cache /t/sbx/tmp/npm-cache', '--setenv TMPDIR /t/sbx/tmp', '--chdir /w/app']);
});

test('writable folders outer first, the private temp folder too; protected paths after them, missing ones held by empty stand-ins', () => {
  const m = mounts(bwrapArgs(POLICY, PATHS, '/w/app'));
  const binds = m.filter((x) => x.startsWith('--bind') || x.startsWith('--ro-bind /w') || x.startsWith('--ro-bind /t'));
  assert.deepEqual(binds, [
    '--bind /w/app /w/app',
    '--bind /t/sbx/tmp /t/sbx/tmp',
    '--bind /w/app/packages/ui /w/app/packages/ui',
    '--ro-bind /w/app/.git /w/app/.git',
    '--ro-bind /t/sbx/empty.d /w/app/.vscode',
    '--ro-bind /t/sbx/empty /w/app/AGENTS.md',
  ]);
});

test('with network: no network namespace and the daemon sockets under /run stay (resolv.conf may live there)', () => {
  const args = bwrapArgs({ ...POLICY, network: true }, PATHS, '/w/app');
  assert.ok(!args.includes('--unshare-net'));
  assert.ok(!args.includes('--tmpfs'));
});

test('network or not: its own user namespace without capabilities, the agents\' sockets hidden, the seccomp filter on', () => {
  for (const network of [false, true]) {
    const m = mounts(bwrapArgs({ ...POLICY, network }, { ...PATHS, agentDirs: ['/tmp/tmux-1000', '/run/user/1000'], seccompFd: 3, disableUserns: true }, '/w/app'));
    assert.ok(m.includes('--unshare-user'), String(network));
    assert.ok(m.includes('--disable-userns'));
    assert.ok(m.includes('--cap-drop ALL'));
    assert.ok(m.includes('--seccomp 3'));
    assert.ok(m.includes('--tmpfs /tmp/tmux-1000'));
    assert.ok(m.indexOf('--tmpfs /run/user/1000') < m.indexOf('--bind /w/app /w/app'));
    assert.equal(m.includes('--tmpfs /run'), !network);
  }
  // bubblewrap before 0.8 has no --disable-userns: the filter refuses clone3 instead (below).
  assert.ok(!bwrapArgs(POLICY, PATHS, '/w/app').includes('--disable-userns'));
  // Root's pids cgroup: only its cgroup.procs is writable inside, so the command can join it and nothing else.
  const procs = '/sys/fs/cgroup/pids/localharness-1-1/cgroup.procs';
  const withCgroup = mounts(bwrapArgs(POLICY, { ...PATHS, cgroupProcs: procs }, '/w/app'));
  assert.ok(withCgroup.includes(`--bind ${procs} ${procs}`));
  assert.ok(!mounts(bwrapArgs(POLICY, PATHS, '/w/app')).some((m) => m.includes('cgroup')));
});

test('the Seatbelt profile: writes denied, then allowed in the workspace and temp folder, then denied on protected paths; no network', () => {
  const profile = seatbeltProfile({ ...POLICY, writable: ['/w/my "app"'] }, '/t/sbx/tmp');
  const lines = profile.trim().split('\n');
  assert.deepEqual(lines.slice(0, 3), ['(version 1)', '(allow default)', '(deny file-write*)']);
  assert.match(lines[3]!, /^\(allow file-write\* \(subpath "\/w\/my \\"app\\""\) \(subpath "\/t\/sbx\/tmp"\) \(literal "\/dev\/null"\)/);
  // The last matching rule wins: the denials come after the allowance.
  assert.equal(lines[4], '(deny file-write* (subpath "/w/app/.vscode") (subpath "/w/app/.git") (subpath "/w/app/AGENTS.md"))');
  assert.equal(lines[5], '(deny network*)');
  // With the network only unix sockets stay denied (issue 28; the test below).
  assert.doesNotMatch(seatbeltProfile({ ...POLICY, network: true }, '/t'), /\(deny network\*\)/);
});

test('the Seatbelt profile (issue 28): glob-named protected files cannot be made; with the network, no host unix socket but the resolver', () => {
  const profile = seatbeltProfile({ ...POLICY, writable: ['/w/my.app'], network: true }, '/t/sbx/tmp');
  const lines = profile.trim().split('\n');
  // A new *.code-workspace at the top of the folder is refused (a pattern, so no stand-in is needed); the dot is literal.
  assert.ok(lines.includes('(deny file-write* (regex #"^/w/my\\.app/[^/]*\\.code-workspace$"))'), profile);
  // Missing protected paths are denied by name, whether or not they exist.
  assert.ok(lines.includes('(deny file-write* (subpath "/w/app/.vscode") (subpath "/w/app/.git") (subpath "/w/app/AGENTS.md"))'));
  // Unix sockets: all refused, then the resolver's allowed again (the last matching rule wins).
  const deny = lines.indexOf('(deny network-outbound (remote unix-socket))');
  const resolver = lines.indexOf('(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))');
  assert.ok(deny > 0 && resolver > deny, profile);
  assert.doesNotMatch(profile, /\(deny network\*\)/);
  // Without network: everything network is denied, unix sockets and the resolver included.
  const offline = seatbeltProfile(POLICY, '/t/sbx/tmp');
  assert.match(offline, /^\(deny network\*\)$/m);
  assert.doesNotMatch(offline, /mDNSResponder/);
  // A folder name with a quote cannot end the regex literal early.
  assert.match(seatbeltProfile({ ...POLICY, writable: ['/w/a"b'] }, '/t'), /\(regex #"\^\/w\/a\\"b\/\[\^\/\]\*\\\.code-workspace\$"\)/);
});

test('shell quoting for the terminal line survives quotes, spaces and $', () => {
  assert.equal(shellQuote('/usr/bin/bwrap'), '/usr/bin/bwrap');
  assert.equal(shellQuote(`echo 'a b' $HOME`), `'echo '\\''a b'\\'' $HOME'`);
});

// A classic BPF interpreter (the instructions the filter uses), run over seccomp_data as the kernel would.
function runFilter(filter: Buffer, data: { arch: number; nr: number; args?: number[] }): number {
  const word = (off: number) => {
    if (off === 0) return data.nr >>> 0;
    if (off === 4) return data.arch >>> 0;
    const n = (off - 16) / 8;
    return (data.args?.[n] ?? 0) >>> 0;
  };
  let acc = 0;
  for (let pc = 0; pc < filter.length / 8; pc++) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter[pc * 8 + 2]!;
    const jf = filter[pc * 8 + 3]!;
    const k = filter.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) acc = word(k);
    else if (code === 0x54) acc = (acc & k) >>> 0;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x45) pc += (acc & k) !== 0 ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unknown instruction ${code.toString(16)}`);
  }
  throw new Error('fell off the end of the filter');
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const X64 = 0xc000003e;
const ARM64 = 0xc00000b7;

test('the seccomp filter: unix sockets and datagram pairs refused, stream pairs kept, io_uring and new user namespaces refused', () => {
  const x64 = commandFilter('x64')!;
  const run = (nr: number, ...args: number[]) => runFilter(x64, { arch: X64, nr, args });
  assert.equal(run(41, 1, 1), EPERM); // socket(AF_UNIX, SOCK_STREAM)
  assert.equal(run(41, 1, 2 | 0x80000), EPERM); // socket(AF_UNIX, SOCK_DGRAM|SOCK_CLOEXEC)
  assert.equal(run(41, 2, 1), ALLOW); // socket(AF_INET, …): the network namespace decides
  assert.equal(run(41, 10, 2), ALLOW); // AF_INET6
  assert.equal(run(53, 1, 1 | 0x80000), ALLOW); // socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC): node, python, make
  assert.equal(run(53, 1, 5), ALLOW); // SOCK_SEQPACKET: the kernel ignores an address sent on it
  assert.equal(run(53, 1, 2), EPERM); // SOCK_DGRAM: sendto(<path>) would reach any datagram socket
  assert.equal(run(53, 1, 2 | 0x800), EPERM); // …with SOCK_NONBLOCK too
  for (const nr of [425, 426, 427]) assert.equal(run(nr), ENOSYS); // io_uring_setup/enter/register
  assert.equal(run(272, 0x10000000), EPERM); // unshare(CLONE_NEWUSER)
  assert.equal(run(272, 0x20000), ALLOW); // unshare(CLONE_NEWNS): no capability to use it anyway
  assert.equal(run(56, 0x10000000 | 0x11), EPERM); // clone(CLONE_NEWUSER|SIGCHLD)
  assert.equal(run(56, 0x01200011), ALLOW); // fork() through clone
  assert.equal(run(435), ALLOW); // clone3: bubblewrap's --disable-userns covers it…
  assert.equal(runFilter(commandFilter('x64', { refuseClone3: true })!, { arch: X64, nr: 435 }), ENOSYS); // …or the filter does
  for (const nr of [0, 1, 2, 42, 44, 46, 57, 59, 257]) assert.equal(run(nr, 1, 2), ALLOW, String(nr)); // read, write, open, connect, sendto, sendmsg, fork, execve, openat
  assert.equal(run(0x40000000 | 41, 2, 1), EPERM); // an x32 call
  assert.equal(runFilter(x64, { arch: 0x40000003, nr: 102 }), EPERM); // a 32-bit x86 process (socketcall)

  const arm = commandFilter('arm64')!;
  const a = (nr: number, ...args: number[]) => runFilter(arm, { arch: ARM64, nr, args });
  assert.equal(a(198, 1, 1), EPERM);
  assert.equal(a(199, 1, 2), EPERM);
  assert.equal(a(199, 1, 1), ALLOW);
  assert.equal(a(97, 0x10000000), EPERM);
  assert.equal(a(220, 0x10000000), EPERM);
  assert.equal(a(425), ENOSYS);
  assert.equal(a(0x40000000 | 63), ALLOW); // no x32 on arm64: the bit is just a (missing) number
  assert.equal(runFilter(arm, { arch: X64, nr: 41, args: [2] }), EPERM);
  assert.equal(commandFilter('ia32'), undefined);
});
