// The bubblewrap command line and the Seatbelt profile for a policy: what is writable, what stays read-only,
// what stands in for a missing sensitive path, and what no network means.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bwrapArgs } from '../../../src/node/sandbox/bwrapArgs';
import { seatbeltProfile } from '../../../src/node/sandbox/seatbeltProfile';
import { shellQuote } from '../../../src/node/sandbox/sandboxLauncher';
import { unixSocketFilter } from '../../../src/node/sandbox/seccompFilter';
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
  const arity: Record<string, number> = { '--ro-bind': 2, '--bind': 2, '--tmpfs': 1, '--dev': 1, '--proc': 1, '--setenv': 2, '--chdir': 1, '--seccomp': 1 };
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

test('with network: no network namespace and the sockets stay where they are', () => {
  const args = bwrapArgs({ ...POLICY, network: true }, { ...PATHS, seccompFd: 3 }, '/w/app');
  assert.ok(!args.includes('--unshare-net'));
  assert.ok(!args.includes('--tmpfs'));
  assert.ok(!args.includes('--seccomp'));
});

test('the Seatbelt profile: writes denied, then allowed in the workspace and temp folder, then denied on protected paths; no network', () => {
  const profile = seatbeltProfile({ ...POLICY, writable: ['/w/my "app"'] }, '/t/sbx/tmp');
  const lines = profile.trim().split('\n');
  assert.deepEqual(lines.slice(0, 3), ['(version 1)', '(allow default)', '(deny file-write*)']);
  assert.match(lines[3]!, /^\(allow file-write\* \(subpath "\/w\/my \\"app\\""\) \(subpath "\/t\/sbx\/tmp"\) \(literal "\/dev\/null"\)/);
  // The last matching rule wins: the denials come after the allowance.
  assert.equal(lines[4], '(deny file-write* (subpath "/w/app/.vscode") (subpath "/w/app/.git") (subpath "/w/app/AGENTS.md"))');
  assert.equal(lines[5], '(deny network*)');
  assert.doesNotMatch(seatbeltProfile({ ...POLICY, network: true }, '/t'), /network/);
});

test('shell quoting for the terminal line survives quotes, spaces and $', () => {
  assert.equal(shellQuote('/usr/bin/bwrap'), '/usr/bin/bwrap');
  assert.equal(shellQuote(`echo 'a b' $HOME`), `'echo '\\''a b'\\'' $HOME'`);
});

test('the seccomp filter: native architecture only, socket(AF_UNIX) refused with EPERM, everything else allowed', () => {
  const decode = (b: Buffer) => Array.from({ length: b.length / 8 }, (_, i) => [b.readUInt16LE(i * 8), b[i * 8 + 2], b[i * 8 + 3], b.readUInt32LE(i * 8 + 4)]);
  const x64 = decode(unixSocketFilter('x64')!);
  assert.deepEqual(x64[0], [0x20, 0, 0, 4]); // load the architecture
  assert.deepEqual(x64[1], [0x15, 1, 0, 0xc000003e]); // x86_64, else…
  assert.deepEqual(x64[2], [0x06, 0, 0, 0x00050001]); // …refuse (EPERM)
  assert.deepEqual(x64[4], [0x45, 4, 0, 0x40000000]); // x32 calls refused
  assert.deepEqual(x64[5], [0x15, 0, 2, 41]); // socket(2)…
  assert.deepEqual(x64[7], [0x15, 1, 0, 1]); // …with AF_UNIX
  assert.deepEqual(x64[8], [0x06, 0, 0, 0x7fff0000]); // allow
  assert.deepEqual(x64[9], [0x06, 0, 0, 0x00050001]); // refuse
  assert.deepEqual(decode(unixSocketFilter('arm64')!)[5], [0x15, 0, 2, 198]);
  assert.equal(unixSocketFilter('ia32'), undefined);
});
