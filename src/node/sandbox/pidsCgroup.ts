// The process limit for root: the kernel never applies RLIMIT_NPROC to uid 0, so a command of root gets a pids
// cgroup of its own (pids.max) where this process may make one: cgroup v1's pids hierarchy, or a v2 cgroup whose
// parent already hands the pids controller down. Containers usually mount the cgroup file system read-only; there
// the limit is left out and said so. The command joins the cgroup first thing inside the sandbox (a one-line shell
// writes its own PID to cgroup.procs, bound writable into the sandbox, then execs), so every process it starts is
// counted. Joining inside rather than before bubblewrap: namespaces are several milliseconds slower to make from
// a child cgroup. The rest of /sys stays read-only, so the command cannot leave (no capability either).
import { mkdirSync, readdirSync, readFileSync, rmdir, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where cgroups for commands are made, or why not. */
export interface PidsCgroupRoot {
  dir?: string;
  reason?: string;
}

/** The shell line that joins the cgroup whose cgroup.procs is $0, then runs the rest. */
export const JOIN_CGROUP = 'echo $$ > "$0" || exit 126; exec "$@"';

let made = 0;

/** Found once: this process's own pids cgroup, if a child of it can be made and limited. */
export function findPidsCgroupRoot(procSelfCgroup = '/proc/self/cgroup', mount = '/sys/fs/cgroup'): PidsCgroupRoot {
  let lines: string[];
  try {
    lines = readFileSync(procSelfCgroup, 'utf8').split('\n');
  } catch {
    return { reason: 'this system has no cgroups' };
  }
  const v1 = lines.find((l) => /^\d+:([^:]*,)?pids(,[^:]*)?:/.test(l));
  const v2 = lines.find((l) => l.startsWith('0::'));
  const candidates: string[] = [];
  if (v1) candidates.push(path.join(mount, 'pids', v1.slice(v1.lastIndexOf(':') + 1)));
  if (v2) candidates.push(path.join(mount, v2.slice(3)));
  for (const dir of candidates) {
    const probe = path.join(dir, `localharness-probe-${process.pid}`);
    try {
      mkdirSync(probe);
    } catch {
      continue;
    }
    try {
      writeFileSync(path.join(probe, 'pids.max'), '1');
      removeStale(dir);
      return { dir };
    } catch {
      // A v2 parent that does not hand down the pids controller: no pids.max here.
    } finally {
      tryRmdir(probe);
    }
  }
  return { reason: 'no pids cgroup can be made here (the cgroup file system is read-only, or the pids controller is not delegated)' };
}

export interface PidsCgroup {
  dir: string;
  /** The file a process writes its PID to, to join. */
  procs: string;
  remove(): void;
}

/** A cgroup allowing `max` processes, or undefined if it cannot be made now. */
export function makePidsCgroup(root: string, max: number): PidsCgroup | undefined {
  const dir = path.join(root, `localharness-${process.pid}-${++made}`);
  try {
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'pids.max'), String(max));
  } catch {
    tryRmdir(dir);
    return undefined;
  }
  return { dir, procs: path.join(dir, 'cgroup.procs'), remove: () => removeWhenEmpty(dir, 10) };
}

/**
 * Off the command's path (a cgroup's removal takes milliseconds); its last processes may still be exiting, so it
 * is tried again a few times (about 1 s).
 */
function removeWhenEmpty(dir: string, tries: number): void {
  rmdir(dir, (err) => {
    if (!err || err.code === 'ENOENT' || tries <= 0) return;
    setTimeout(() => removeWhenEmpty(dir, tries - 1), 100);
  });
}

/** Cgroups a process that ended before it could remove them left behind. */
function removeStale(root: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = /^localharness-(\d+)-\d+$/.exec(name)?.[1];
    if (owner && !alive(Number(owner))) tryRmdir(path.join(root, name));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
