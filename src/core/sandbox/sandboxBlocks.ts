// Tells from a sandboxed command's output whether the sandbox stopped something, and what: a write outside the
// workspace, a protected file, the network, a unix socket, a resource limit. The model and the user hear it
// plainly, with how to allow it, instead of guessing from "Read-only file system" or a refused connection.
import type { SandboxPolicy } from '../ports';
import { DEFAULT_SANDBOX_LIMITS, describeLimit, type SandboxLimits } from './sandboxLimits';
import type { SandboxHints } from './types';

export interface SandboxBlock {
  kind: 'write' | 'network' | 'socket' | 'limit';
  /** The output line that shows it (shortened). */
  evidence: string;
  /** A write to a protected file inside the workspace (not one outside it). */
  protected?: true;
  /** For a limit: which one. */
  limit?: keyof SandboxLimits;
}

/** How the command ended, when known: a command that succeeded was not stopped from connecting. */
export interface CommandEnd {
  exitCode: number | null;
}

/** EROFS in the words of sh, coreutils, node, python, git… */
const WRITE_BLOCKED = /read-only file system|\bEROFS\b/i;
/** What a program prints when it finds no network (an empty network namespace: only a loopback no one listens on). */
const NETWORK_BLOCKED =
  /network is unreachable|\bENETUNREACH\b|connection refused|\bECONNREFUSED\b|could not resolve host|\bEAI_AGAIN\b|\bENOTFOUND\b|temporary failure in name resolution|name or service not known|failed to resolve|getaddrinfo/i;
/** What a refused unix socket looks like (the seccomp filter answers EPERM, whatever the network). */
const SOCKET_BLOCKED = /connect EPERM|socket.*operation not permitted|operation not permitted.*socket|socketpair.*(EPERM|operation not permitted)/i;
/** Python names the call on the traceback's lines above the error. */
const PYTHON_EPERM = /PermissionError: \[Errno 1\] Operation not permitted/;

/** What creating a name fails with when a read-only stand-in already holds it (mkdir, a file inside it…). */
const STAND_IN_BLOCKED = /file exists|\bEEXIST\b|not a directory|\bENOTDIR\b|is a directory|\bEISDIR\b/i;
/** mkdir of a folder under a held name whose parts do not exist (the stand-in is empty and read-only). */
const MISSING = /no such file or directory|\bENOENT\b/i;
/** …or under a protected folder: said only where something was being made, not read. */
const CREATING = /mkdir|cannot create|cannot touch/i;

const LIMITS: Array<[keyof SandboxLimits, RegExp]> = [
  ['maxFileSizeMB', /file size limit exceeded|\bEFBIG\b|file too large/i],
  ['maxProcesses', /can(?:not|'t) fork|fork: (?:retry: )?resource temporarily unavailable|spawn\S* EAGAIN|\bEAGAIN\b.*\bspawn|BlockingIOError: \[Errno 11\]|(?:can(?:not|'t)|failed to) create (?:a )?(?:new )?(?:native )?thread|pthread_create/i],
  ['maxMemoryMB', /cannot allocate memory|\bENOMEM\b|MemoryError|out of memory|allocation failed|bad_alloc/i],
];

export function sandboxBlocks(output: string, policy: SandboxPolicy, end?: CommandEnd): SandboxBlock[] {
  const blocks: SandboxBlock[] = [];
  const lines = output.split('\n');
  const failed = end === undefined || end.exitCode !== 0;
  // A protected name in a line: ".vscode", ".git/hooks/x", "'AGENTS.md'" (the last part of each protected path).
  const names = policy.readOnly.map((p) => p.path.split(/[\\/]/).pop()!).filter((n) => n !== '');
  const names_ = (line: string) => names.some((name) => new RegExp(`(^|[\\s'"\`/(])${escape(name)}(?=$|[\\s'"\`/):,])`).test(line));
  // A missing protected path (.vscode) is held by a stand-in: creating it fails with "exists", not "read-only";
  // creating something deeper in it fails with "no such file" as its parts are not there.
  const standIns = policy.readOnly.filter((p) => !p.exists).map((p) => p.path.split(/[\\/]/).pop()!);
  const heldName = (line: string) => standIns.some((name) => line.includes(name));
  const write = lines.find((l) => WRITE_BLOCKED.test(l) || (STAND_IN_BLOCKED.test(l) && heldName(l)) || (MISSING.test(l) && (heldName(l) || (CREATING.test(l) && names_(l)))));
  if (write !== undefined) blocks.push({ kind: 'write', evidence: shorten(write), ...((names_(write) || heldName(write)) && { protected: true as const }) });
  const socket = lines.find((l) => SOCKET_BLOCKED.test(l)) ?? (/\bsocket/.test(output) ? lines.find((l) => PYTHON_EPERM.test(l)) : undefined);
  if (socket !== undefined) blocks.push({ kind: 'socket', evidence: shorten(socket) });
  if (!policy.network && failed) {
    const net = lines.find((l) => NETWORK_BLOCKED.test(l));
    if (net !== undefined) blocks.push({ kind: 'network', evidence: shorten(net) });
  }
  const limits = policy.limits;
  if (limits && (failed || /file size limit exceeded/i.test(output))) {
    for (const [kind, pattern] of LIMITS) {
      if (limits[kind] === 0) continue;
      const line = lines.find((l) => pattern.test(l));
      if (line !== undefined) blocks.push({ kind: 'limit', limit: kind, evidence: shorten(line) });
    }
  }
  return blocks;
}

/** One line each for the blocks: what was stopped and why. */
export function describeBlocks(blocks: readonly SandboxBlock[], limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): string {
  return blocks
    .map((b) => {
      switch (b.kind) {
        case 'write':
          return `a write outside the workspace or to a protected file (${b.evidence})${b.protected ? ': a protected file, which only a file tool may change, after asking the user' : ''}`;
        case 'network':
          return `a network connection (${b.evidence})`;
        case 'socket':
          return `a network connection to a unix socket (${b.evidence}): no socket of the host (docker, tmux, ssh-agent, the editor) is reachable`;
        case 'limit':
          return `a process over ${describeLimit(b.limit ?? 'maxMemoryMB', limits)} (${b.evidence})`;
      }
    })
    .join('; ');
}

/** What the model (and the user, in the tool card) reads after the command's own output. */
export function sandboxNote(blocks: readonly SandboxBlock[], hints: SandboxHints, limits?: SandboxLimits): string {
  const parts = [
    `Sandbox: this command may write only inside the workspace folders and $TMPDIR, sensitive files (.git, .vscode, CI files, agent rules) are read-only, and it has ${blocks.some((b) => b.kind === 'network') ? 'no network' : 'the network only if the user allowed it'}. It blocked ${describeBlocks(blocks, limits)}.`,
    'Do not try to get around the sandbox (other paths, other tools, copies); work inside the workspace, or tell the user what you need.',
  ];
  if (blocks.some((b) => b.protected)) parts.push('To change a protected file, use write_file or edit_file: the user is asked.');
  if (blocks.some((b) => b.kind === 'limit') && hints.limits) parts.push(`The user can raise the limits: ${hints.limits}.`);
  if (blocks.some((b) => b.kind === 'network')) parts.push(`The user can allow the network for commands: ${hints.network}.`);
  return `[${parts.join(' ')}]`;
}

/** What the note says about protected files the command created and the sandbox removed afterwards. */
export function removedNote(paths: readonly string[]): SandboxBlock {
  return { kind: 'write', protected: true, evidence: `created ${paths.join(', ')}; removed after the command` };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function shorten(line: string): string {
  const t = line.trim();
  return t.length > 160 ? t.slice(0, 160) + '…' : t;
}
