// Starts commands inside the OS sandbox: bubblewrap on Linux, sandbox-exec on macOS, none on Windows.
// Owns a private folder (mode 0700) under the system temp folder: the command's writable temporary folder, the
// empty stand-ins for missing protected paths, and the policy files a terminal reads. Nothing is probed or
// created until the first sandboxed command (most sessions never run one).
import type { SpawnSyncReturns } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, realpathSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ProtectedPath, SandboxPolicy, SandboxSupport } from '../../core/ports';
import { bwrapArgs } from './bwrapArgs';
import { seatbeltProfile } from './seatbeltProfile';
import { commandFilter } from './seccompFilter';
import { limitArgs, limitSupport, type LimitSupport } from './commandLimits';
import { JOIN_CGROUP, makePidsCgroup, type PidsCgroup } from './pidsCgroup';
import { shellQuote } from '../../shared/shellQuote';

export { shellQuote };

export interface SandboxLauncherOptions {
  platform?: NodeJS.Platform;
  /** For finding bwrap on PATH. */
  env?: NodeJS.ProcessEnv;
  /** Where the private folder is made (default: the system temp folder). */
  tempRoot?: string;
}

/** A command ready to start in the sandbox. */
export interface Launch {
  file: string;
  args: string[];
  /** Environment on top of the runner's (bubblewrap sets TMPDIR itself). */
  env?: Record<string, string>;
  /** Descriptors the child gets from 3 on (the seccomp filter); closed by release(). */
  fds?: number[];
  /** Removes the stand-ins this command needed once no other running command needs them. */
  release(): void;
}

/** The same, as one line for a shell in a terminal (the policy is read from a file the line names). */
export interface ShellLaunch {
  line: string;
  release(): void;
}

const INSTALL_HINT = 'install the bubblewrap package (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)';

/** Loaded when a sandbox is first tried: a CLI run that runs no command never pays for it. */
function spawnSync(file: string, args: string[], options: { timeout: number }): SpawnSyncReturns<string> {
  const { spawnSync: run } = require('node:child_process') as typeof import('node:child_process');
  return run(file, args, { ...options, encoding: 'utf8' });
}

/** Stand-ins in use, by path: several commands may run at once, and removing one under a running command unbinds it. */
const standInUsers = new Map<string, number>();

export class SandboxLauncher {
  private readonly platform: NodeJS.Platform;
  private supportCache: (SandboxSupport & { binary?: string; disableUserns?: boolean }) | undefined;
  private limitCache: LimitSupport | undefined;
  private state: { dir: string; tmp: string; emptyFile: string; emptyDir: string; seccomp?: string } | undefined;
  private policyFiles = 0;

  constructor(private readonly options: SandboxLauncherOptions = {}) {
    this.platform = options.platform ?? process.platform;
  }

  /** Found and tried once: a sandbox that cannot start here is reported, not discovered command by command. */
  support(): SandboxSupport {
    this.supportCache ??= this.probe();
    const { binary: _binary, disableUserns: _userns, ...support } = this.supportCache;
    return support;
  }

  /**
   * What can be told without starting anything: "unavailable" (no bwrap on PATH, Windows…) is final; undefined
   * means a sandbox binary is there and support() will try it.
   */
  presence(): SandboxSupport | undefined {
    if (this.supportCache) return this.support();
    if (this.platform === 'linux' && findOnPath('bwrap', this.options.env ?? process.env)) return undefined;
    if (this.platform === 'darwin' && existsSync('/usr/bin/sandbox-exec')) return undefined;
    return this.support();
  }

  /** Where bwrap or sandbox-exec is (after support() said available). */
  private get binary(): string {
    const found = this.supportCache?.binary;
    if (!this.supportCache?.available || !found) throw new Error(`the command sandbox is not available: ${this.support().reason ?? 'unknown reason'}`);
    return found;
  }

  launch(command: string, policy: SandboxPolicy, cwd: string): Launch {
    this.support();
    const binary = this.binary;
    const state = this.ensureState();
    const release = this.hold(policy.readOnly);
    if (this.platform === 'darwin') {
      return { file: binary, args: ['-p', seatbeltProfile(policy, state.tmp), '/bin/sh', '-c', command], env: { ...this.cacheEnv(policy, state.tmp), TMPDIR: state.tmp }, release };
    }
    const fd = state.seccomp ? openSync(state.seccomp, 'r') : undefined;
    const cgroup = this.cgroupFor(policy);
    const paths = { ...this.bwrapPaths(policy, state, fd !== undefined ? 3 : undefined), ...(cgroup && { cgroupProcs: cgroup.procs }) };
    const args = [...bwrapArgs(policy, paths, cwd), ...this.inside(policy, cgroup), '/bin/sh', '-c', command];
    const done = () => {
      if (fd !== undefined) closeSync(fd);
      cgroup?.remove();
      release();
    };
    return { file: binary, args, ...(fd !== undefined && { fds: [fd] }), release: once(done) };
  }

  /** For a terminal: `bwrap --args 3 /bin/sh -c '…' 3<'policy file'`, so the line shows the command, not 40 binds. */
  shellLine(command: string, policy: SandboxPolicy, cwd: string): ShellLaunch {
    this.support();
    const binary = this.binary;
    const state = this.ensureState();
    const file = path.join(state.dir, `policy-${++this.policyFiles}`);
    if (this.platform === 'darwin') {
      writeFileSync(file, seatbeltProfile(policy, state.tmp), { mode: 0o600 });
      const release = this.hold(policy.readOnly, file);
      const env = Object.entries({ ...this.cacheEnv(policy, state.tmp), TMPDIR: state.tmp }).map(([k, v]) => `${k}=${shellQuote(v)} `);
      return { line: `${env.join('')}${shellQuote(binary)} -f ${shellQuote(file)} /bin/sh -c ${shellQuote(command)}`, release };
    }
    const filter = state.seccomp;
    const cgroup = this.cgroupFor(policy);
    const args = bwrapArgs(policy, { ...this.bwrapPaths(policy, state, filter ? 4 : undefined), ...(cgroup && { cgroupProcs: cgroup.procs }) }, cwd);
    writeFileSync(file, args.map((a) => a + '\0').join(''), { mode: 0o600 });
    const held = this.hold(policy.readOnly, file);
    const seccomp = filter ? ` 4<${shellQuote(filter)}` : '';
    const inside = this.inside(policy, cgroup).map((a) => shellQuote(a) + ' ').join('');
    const release = once(() => {
      cgroup?.remove();
      held();
    });
    return { line: `${shellQuote(binary)} --args 3 ${inside}/bin/sh -c ${shellQuote(command)} 3<${shellQuote(file)}${seccomp}`, release };
  }

  /** Whether the limits apply here, and which not (told once as a notice with the first command; see the README). */
  limitSupport(): LimitSupport {
    if (this.platform !== 'linux') return { processes: false, reason: `commands run without process, file size and memory limits on ${this.platform === 'darwin' ? 'macOS' : this.platform}` };
    this.limitCache ??= limitSupport(this.options.env ?? process.env);
    return this.limitCache;
  }

  /** Root's process limit: bubblewrap starts inside a pids cgroup of its own (pidsCgroup.ts). */
  private cgroupFor(policy: SandboxPolicy) {
    const root = this.limitSupport().cgroupRoot;
    return root && policy.limits && policy.limits.maxProcesses > 0 ? makePidsCgroup(root, policy.limits.maxProcesses) : undefined;
  }

  /** What runs inside the sandbox before the command's shell: joining root's cgroup, then prlimit. */
  private inside(policy: SandboxPolicy, cgroup: PidsCgroup | undefined): string[] {
    return [...(cgroup ? ['/bin/sh', '-c', JOIN_CGROUP, cgroup.procs] : []), ...limitArgs(policy.limits, this.limitSupport())];
  }

  private bwrapPaths(policy: SandboxPolicy, state: NonNullable<SandboxLauncher['state']>, seccompFd: number | undefined) {
    return {
      ...state,
      socketDirs: this.socketDirs(),
      agentDirs: this.agentDirs(),
      env: this.cacheEnv(policy, state.tmp),
      disableUserns: this.supportCache?.disableUserns === true,
      ...(seccompFd !== undefined && { seccompFd }),
    };
  }

  /** Removes the private folder (the temporary files of the commands with it). */
  dispose(): void {
    if (!this.state) return;
    rmSync(this.state.dir, { recursive: true, force: true });
    this.state = undefined;
  }

  private probe(): SandboxSupport & { binary?: string; disableUserns?: boolean } {
    if (this.platform === 'win32') return { available: false, kind: 'none', reason: 'there is no command sandbox on Windows' };
    if (this.platform === 'darwin') {
      const binary = '/usr/bin/sandbox-exec';
      if (!existsSync(binary)) return { available: false, kind: 'none', reason: 'sandbox-exec was not found' };
      const tried = spawnSync(binary, ['-p', '(version 1)(allow default)', '/usr/bin/true'], { timeout: 10_000 });
      if (tried.status === 0) return { available: true, kind: 'sandbox-exec', binary };
      return { available: false, kind: 'none', reason: `sandbox-exec does not work here (${firstLine(tried.stderr) || tried.error?.message || `exit code ${tried.status}`})` };
    }
    if (this.platform !== 'linux') return { available: false, kind: 'none', reason: `there is no command sandbox on ${this.platform}` };
    const binary = findOnPath('bwrap', this.options.env ?? process.env);
    if (!binary) return { available: false, kind: 'none', reason: `bubblewrap (bwrap) is not installed: ${INSTALL_HINT}` };
    // The namespaces every command gets; --disable-userns only from bubblewrap 0.8 on (the filter covers older ones).
    const base = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--new-session', '--die-with-parent', '--unshare-user', '--cap-drop', 'ALL'];
    const withUserns = spawnSync(binary, [...base, '--disable-userns', '/bin/true'], { timeout: 10_000 });
    if (withUserns.status === 0) return { available: true, kind: 'bubblewrap', binary, disableUserns: true };
    const tried = spawnSync(binary, [...base, '/bin/true'], { timeout: 10_000 });
    if (tried.status === 0) return { available: true, kind: 'bubblewrap', binary, disableUserns: false };
    const why = firstLine(tried.stderr) || tried.error?.message || `exit code ${tried.status}`;
    return { available: false, kind: 'none', reason: `bubblewrap cannot make a sandbox here (${why}); unprivileged user namespaces may be turned off` };
  }

  private ensureState() {
    if (this.state && existsSync(this.state.dir)) return this.state;
    const root = realpathSync(this.options.tempRoot ?? os.tmpdir());
    const dir = mkdtempSync(path.join(root, 'localharness-sandbox-'));
    const tmp = path.join(dir, 'tmp');
    const emptyDir = path.join(dir, 'empty.d');
    const emptyFile = path.join(dir, 'empty');
    mkdirSync(tmp, { mode: 0o700 });
    mkdirSync(emptyDir, { mode: 0o500 });
    writeFileSync(emptyFile, '', { mode: 0o400 });
    const filter = this.platform === 'linux' ? commandFilter(process.arch, { refuseClone3: this.supportCache?.disableUserns === false }) : undefined;
    const seccomp = filter ? path.join(dir, 'unix-sockets.bpf') : undefined;
    if (seccomp) writeFileSync(seccomp, filter!, { mode: 0o400 });
    this.state = { dir, tmp, emptyDir, emptyFile, ...(seccomp && { seccomp }) };
    return this.state;
  }

  /**
   * Package caches the command may not write (npm's, Go's build cache) go to the private temporary folder, so
   * `npm install` (with the network) and `go test` work; the user can open the real ones with writablePaths.
   */
  private cacheEnv(policy: SandboxPolicy, tmp: string): Record<string, string> {
    const env = this.options.env ?? process.env;
    const home = os.homedir();
    const writable = (dir: string) => policy.writable.some((w) => dir === w || dir.startsWith(w.endsWith(path.sep) ? w : w + path.sep));
    const out: Record<string, string> = {};
    const npm = env.npm_config_cache ?? env.NPM_CONFIG_CACHE ?? path.join(home, '.npm');
    if (!writable(npm)) {
      out.npm_config_cache = path.join(tmp, 'npm-cache');
      if (env.NPM_CONFIG_CACHE !== undefined) out.NPM_CONFIG_CACHE = out.npm_config_cache;
    }
    const userCache = this.platform === 'darwin' ? path.join(home, 'Library/Caches') : (env.XDG_CACHE_HOME ?? path.join(home, '.cache'));
    if (!writable(env.GOCACHE ?? path.join(userCache, 'go-build'))) out.GOCACHE = path.join(tmp, 'go-build');
    return out;
  }

  /** Daemon sockets a command without network must not see (docker, D-Bus…); with it, /etc/resolv.conf may live there. */
  private socketDirs(): string[] {
    return existingDirs(['/run', '/var/run']);
  }

  /**
   * Folders that hold only other programs' sockets (X11, tmux, screen, ssh-agent, the user's runtime folder): hidden
   * always, besides the filter that refuses unix sockets, so not even a socket file's name leaks.
   */
  private agentDirs(): string[] {
    const env = this.options.env ?? process.env;
    const tmp = '/tmp';
    let names: string[] = [];
    try {
      names = readdirSync(tmp).filter((n) => /^(tmux-\d+|ssh-[\w.-]+|\.X11-unix|\.ICE-unix|screens?)$/.test(n));
    } catch {
      // no /tmp to look in
    }
    const dirs = names.map((n) => path.join(tmp, n));
    // The agent's own folder (/tmp/ssh-…), never one that holds far more (the home or temp folder itself).
    const broad = (dir: string) => [path.parse(dir).root, os.homedir(), os.tmpdir(), tmp].includes(dir);
    const agentDir = env.SSH_AUTH_SOCK ? path.dirname(env.SSH_AUTH_SOCK) : undefined;
    if (agentDir && !broad(agentDir)) dirs.push(agentDir);
    if (env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR) && !broad(env.XDG_RUNTIME_DIR)) dirs.push(env.XDG_RUNTIME_DIR);
    return existingDirs(dirs);
  }

  /** Counts the command's missing protected paths as in use; the returned release removes the stand-ins. */
  private hold(readOnly: readonly ProtectedPath[], policyFile?: string): () => void {
    const standIns = readOnly.filter((p) => !p.exists).map((p) => p.path);
    for (const p of standIns) standInUsers.set(p, (standInUsers.get(p) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (policyFile) rmSync(policyFile, { force: true });
      // Deepest first: a folder goes only once it is empty.
      for (const p of [...standIns].sort((a, b) => b.length - a.length)) {
        const left = (standInUsers.get(p) ?? 1) - 1;
        if (left > 0) {
          standInUsers.set(p, left);
          continue;
        }
        standInUsers.delete(p);
        removeStandIn(p);
      }
    };
  }
}

/** bubblewrap left an empty file or folder where the stand-in was bound; anything with content is not ours. */
function removeStandIn(p: string): void {
  try {
    const stat = lstatSync(p);
    if (stat.isFile() && stat.size === 0) unlinkSync(p);
    else if (stat.isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
  } catch {
    // Gone already, or not ours to remove.
  }
}

/** The folders that exist as folders (a link, /var/run → /run, is covered by its target). */
function existingDirs(dirs: readonly string[]): string[] {
  return [...new Set(dirs)].filter((d) => {
    try {
      return lstatSync(d).isDirectory();
    } catch {
      return false;
    }
  });
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

function firstLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0]?.trim() ?? '';
}
