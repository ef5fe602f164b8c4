// The bubblewrap command line for a sandbox policy. Pure (unit-tested): the launcher supplies the paths.
//
// The command sees the whole file system read-only (it reads as the user does), a fresh /dev and /proc, and
// writable binds of the workspace folders and a private temporary folder; sensitive paths inside them are bound
// read-only on top (a missing one gets an empty read-only stand-in, so it cannot be created). Its own PID
// namespace means that when the shell ends, or bubblewrap is killed (timeout, Stop, Ctrl+C), every process it
// started ends too. It runs in a user namespace of its own with every capability dropped and no way to make
// another one, so even a command of root cannot undo a mount (remount / read-write, unmount /proc or /run) or
// enter another namespace (nsenter). A seccomp filter refuses unix sockets, io_uring and new user namespaces
// (seccompFilter.ts); the agents' socket folders (tmux, ssh-agent…) are hidden always. Without network it gets
// its own network namespace (only a loopback nobody listens on) and the daemons' sockets under /run are hidden.
import type { SandboxPolicy } from '../../core/ports';

export interface BwrapPaths {
  /** The private temporary folder (writable; TMPDIR inside). */
  tmp: string;
  /** An empty file and an empty folder: the read-only stand-ins for missing protected paths. */
  emptyFile: string;
  emptyDir: string;
  /** Folders hidden behind an empty tmpfs when there is no network (daemon sockets: /run, /tmp/.X11-unix…). */
  socketDirs?: readonly string[];
  /** Folders hidden behind an empty tmpfs always (tmux, ssh-agent, X11 sockets: never needed by a command). */
  agentDirs?: readonly string[];
  /** The descriptor the seccomp filter is read from (seccompFilter.ts). */
  seccompFd?: number;
  /** bubblewrap can forbid new user namespaces itself (0.8 and later). */
  disableUserns?: boolean;
  /** Root's pids cgroup: its cgroup.procs, bound writable so the command can join it (pidsCgroup.ts). */
  cgroupProcs?: string;
  /** More environment inside (package caches sent to the temporary folder). */
  env?: Readonly<Record<string, string>>;
}

export function bwrapArgs(policy: SandboxPolicy, paths: BwrapPaths, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-ipc', '--new-session', '--die-with-parent'];
  // The user namespace maps the user's own ids (root stays uid 0 for file ownership, without its capabilities).
  args.push('--unshare-user', ...(paths.disableUserns ? ['--disable-userns'] : []), '--cap-drop', 'ALL');
  if (!policy.network) args.push('--unshare-net');
  // Before the writable binds, so a workspace under one of these folders is bound again on top.
  const hidden = [...(policy.network ? [] : (paths.socketDirs ?? [])), ...(paths.agentDirs ?? [])];
  for (const dir of [...new Set(hidden)]) args.push('--tmpfs', dir);
  if (paths.seccompFd !== undefined) args.push('--seccomp', String(paths.seccompFd));
  // Outer folders first: a nested one is bound again on top of its parent.
  const writable = [...new Set([...policy.writable, paths.tmp])].sort((a, b) => a.length - b.length);
  for (const dir of writable) args.push('--bind', dir, dir);
  if (paths.cgroupProcs) args.push('--bind', paths.cgroupProcs, paths.cgroupProcs);
  const readOnly = [...policy.readOnly].sort((a, b) => a.path.length - b.path.length);
  for (const p of readOnly) {
    const source = p.exists ? p.path : p.kind === 'directory' ? paths.emptyDir : paths.emptyFile;
    args.push('--ro-bind', source, p.path);
  }
  for (const [name, value] of Object.entries(paths.env ?? {})) args.push('--setenv', name, value);
  args.push('--setenv', 'TMPDIR', paths.tmp, '--chdir', cwd);
  return args;
}
