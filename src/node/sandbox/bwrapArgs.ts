// The bubblewrap command line for a sandbox policy. Pure (unit-tested): the launcher supplies the paths.
//
// The command sees the whole file system read-only (it reads as the user does), a fresh /dev and /proc, and
// writable binds of the workspace folders and a private temporary folder; sensitive paths inside them are bound
// read-only on top (a missing one gets an empty read-only stand-in, so it cannot be created). Its own PID
// namespace means that when the shell ends, or bubblewrap is killed (timeout, Stop, Ctrl+C), every process it
// started ends too. Without network it gets its own network namespace (only a loopback nobody listens on), the
// daemons' sockets under /run are hidden, and a seccomp filter refuses unix sockets wherever their files are.
import type { SandboxPolicy } from '../../core/ports';

export interface BwrapPaths {
  /** The private temporary folder (writable; TMPDIR inside). */
  tmp: string;
  /** An empty file and an empty folder: the read-only stand-ins for missing protected paths. */
  emptyFile: string;
  emptyDir: string;
  /** Folders hidden behind an empty tmpfs when there is no network (daemon sockets: /run, /tmp/.X11-unix…). */
  socketDirs?: readonly string[];
  /** Without network: the descriptor the unix-socket seccomp filter is read from (seccompFilter.ts). */
  seccompFd?: number;
  /** More environment inside (package caches sent to the temporary folder). */
  env?: Readonly<Record<string, string>>;
}

export function bwrapArgs(policy: SandboxPolicy, paths: BwrapPaths, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-ipc', '--new-session', '--die-with-parent'];
  if (!policy.network) {
    args.push('--unshare-net');
    // Before the writable binds, so a workspace under one of these folders is bound again on top.
    for (const dir of paths.socketDirs ?? []) args.push('--tmpfs', dir);
    if (paths.seccompFd !== undefined) args.push('--seccomp', String(paths.seccompFd));
  }
  // Outer folders first: a nested one is bound again on top of its parent.
  const writable = [...new Set([...policy.writable, paths.tmp])].sort((a, b) => a.length - b.length);
  for (const dir of writable) args.push('--bind', dir, dir);
  const readOnly = [...policy.readOnly].sort((a, b) => a.path.length - b.path.length);
  for (const p of readOnly) {
    const source = p.exists ? p.path : p.kind === 'directory' ? paths.emptyDir : paths.emptyFile;
    args.push('--ro-bind', source, p.path);
  }
  for (const [name, value] of Object.entries(paths.env ?? {})) args.push('--setenv', name, value);
  args.push('--setenv', 'TMPDIR', paths.tmp, '--chdir', cwd);
  return args;
}
