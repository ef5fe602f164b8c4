// The resource limits of a sandboxed command, set inside the sandbox by util-linux `prlimit` just before the shell
// starts (soft and hard alike, so the command cannot raise them again):
// - processes: RLIMIT_NPROC. Since Linux 5.14 it counts per user namespace, so inside the sandbox it counts the
//   command's own processes and threads only. Older kernels count every process of the user (an editor with a
//   browser open has hundreds): there it is left out and limitSupport() says so. The kernel never applies it to
//   root: a command of root gets a pids cgroup instead where one can be made (pidsCgroup.ts).
// - file size: RLIMIT_FSIZE (a bigger write ends in SIGXFSZ or EFBIG).
// - memory: RLIMIT_DATA, per process: heap and private writable mappings. Not RLIMIT_AS: node reserves gigabytes
//   of address space for WebAssembly that it never uses, and would not start.
import { accessSync, constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxLimits } from '../../core/sandbox/sandboxLimits';
import { findPidsCgroupRoot } from './pidsCgroup';

export interface LimitSupport {
  /** util-linux prlimit, where the limits are set (none: no limits, see reason). */
  prlimit?: string;
  /** Whether the process limit applies here as an rlimit. */
  processes: boolean;
  /** Root: where the pids cgroups that limit its commands' processes are made. */
  cgroupRoot?: string;
  /** What does not apply, and why. */
  reason?: string;
}

const MB = 1024 * 1024;

export function limitSupport(env: NodeJS.ProcessEnv, uid: number | undefined = process.getuid?.(), release: string = os.release()): LimitSupport {
  const prlimit = ['/usr/bin/prlimit', '/bin/prlimit', ...(env.PATH ?? '').split(path.delimiter).filter(Boolean).map((d) => path.join(d, 'prlimit'))].find(executable);
  if (!prlimit) return { processes: false, reason: 'prlimit (util-linux) was not found, so commands run without process, file size and memory limits' };
  if (uid === 0) {
    const cgroup = findPidsCgroupRoot();
    if (cgroup.dir) return { prlimit, processes: false, cgroupRoot: cgroup.dir };
    return { prlimit, processes: false, reason: `the kernel does not apply the process limit to root, and ${cgroup.reason}` };
  }
  const [major = 0, minor = 0] = release.split(/[.-]/).map(Number);
  if (major < 5 || (major === 5 && minor < 14)) return { prlimit, processes: false, reason: `Linux ${major}.${minor} counts every process of the user against the process limit (5.14 and later count the sandbox's own), so it is left out` };
  return { prlimit, processes: true };
}

/** `prlimit --nproc=… --fsize=… --data=… --` for the policy's limits; nothing without limits or prlimit. */
export function limitArgs(limits: SandboxLimits | undefined, support: LimitSupport): string[] {
  if (!support.prlimit || !limits) return [];
  const l = limits;
  const args: string[] = [];
  if (support.processes && l.maxProcesses > 0) args.push(`--nproc=${l.maxProcesses}`);
  if (l.maxFileSizeMB > 0) args.push(`--fsize=${l.maxFileSizeMB * MB}`);
  if (l.maxMemoryMB > 0) args.push(`--data=${l.maxMemoryMB * MB}`);
  return args.length === 0 ? [] : [support.prlimit, ...args, '--'];
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
