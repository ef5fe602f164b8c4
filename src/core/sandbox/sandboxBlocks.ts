// Tells from a sandboxed command's output whether the sandbox stopped something, so the model and the user
// hear it plainly instead of guessing from "Read-only file system" or a refused connection.
import type { SandboxPolicy } from '../ports';
import type { SandboxHints } from './types';

export interface SandboxBlock {
  kind: 'write' | 'network';
  /** The output line that shows it (shortened). */
  evidence: string;
}

/** EROFS in the words of sh, coreutils, node, python, git… */
const WRITE_BLOCKED = /read-only file system|\bEROFS\b/i;
/**
 * What a program prints when it finds no network (an empty network namespace: only a loopback no one listens on)
 * or may not open a unix socket (the seccomp filter).
 */
const NETWORK_BLOCKED =
  /network is unreachable|\bENETUNREACH\b|connection refused|\bECONNREFUSED\b|could not resolve host|\bEAI_AGAIN\b|\bENOTFOUND\b|temporary failure in name resolution|name or service not known|failed to resolve|getaddrinfo|connect EPERM|socket.*operation not permitted|operation not permitted.*socket/i;

/** What creating a name fails with when a read-only stand-in already holds it (mkdir, a file inside it…). */
const STAND_IN_BLOCKED = /file exists|\bEEXIST\b|not a directory|\bENOTDIR\b|is a directory|\bEISDIR\b/i;

export function sandboxBlocks(output: string, policy: SandboxPolicy): SandboxBlock[] {
  const blocks: SandboxBlock[] = [];
  const lines = output.split('\n');
  // A missing protected path (.vscode) is held by a stand-in: creating it fails with "exists", not "read-only".
  const standIns = policy.readOnly.filter((p) => !p.exists).map((p) => p.path.split(/[\\/]/).pop()!);
  const heldName = (line: string) => standIns.some((name) => line.includes(name));
  const write = lines.find((l) => WRITE_BLOCKED.test(l) || (STAND_IN_BLOCKED.test(l) && heldName(l)));
  if (write !== undefined) blocks.push({ kind: 'write', evidence: shorten(write) });
  if (!policy.network) {
    const net = lines.find((l) => NETWORK_BLOCKED.test(l));
    if (net !== undefined) blocks.push({ kind: 'network', evidence: shorten(net) });
  }
  return blocks;
}

/** One line each for the blocks: what was stopped and why. */
export function describeBlocks(blocks: readonly SandboxBlock[]): string {
  return blocks
    .map((b) =>
      b.kind === 'write'
        ? `a write outside the workspace or to a protected file (${b.evidence})`
        : `a network connection (${b.evidence})`,
    )
    .join('; ');
}

/** What the model (and the user, in the tool card) reads after the command's own output. */
export function sandboxNote(blocks: readonly SandboxBlock[], hints: SandboxHints): string {
  const parts = [
    `Sandbox: this command may write only inside the workspace folders and $TMPDIR, sensitive files (.git, .vscode, CI files, agent rules) are read-only, and it has ${blocks.some((b) => b.kind === 'network') ? 'no network' : 'the network only if the user allowed it'}. It blocked ${describeBlocks(blocks)}.`,
    'Do not try to get around the sandbox (other paths, other tools, copies); work inside the workspace, or tell the user what you need.',
  ];
  if (blocks.some((b) => b.kind === 'network')) parts.push(`The user can allow the network for commands: ${hints.network}.`);
  return `[${parts.join(' ')}]`;
}

function shorten(line: string): string {
  const t = line.trim();
  return t.length > 160 ? t.slice(0, 160) + '…' : t;
}
