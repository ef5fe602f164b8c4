// Child-process checks by pid: the last line of defence against orphaned servers.
import { readdirSync, readFileSync } from 'node:fs';

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: the pid now belongs to someone else's process, so ours is gone too.
    return false;
  }
}

/** Resolves true when the process is gone within `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

export function killHard(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** After a closed stdin: SIGTERM if the process is still there after `graceMs`, SIGKILL a second later. */
export async function terminateSoon(pid: number, graceMs = 250): Promise<void> {
  if (await waitForExit(pid, graceMs)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // gone meanwhile
  }
  if (!(await waitForExit(pid, 1000))) killHard(pid);
}

/** Server processes this process started and has not seen exit: killed at once when the user insists on quitting. */
const tracked = new Set<number>();

export function trackChild(pid: number): void {
  tracked.add(pid);
}

export function untrackChild(pid: number): void {
  tracked.delete(pid);
}

/**
 * Kills every tracked server process and everything it started (an `npx` launcher's node child), synchronously:
 * for an exit that cannot wait (a second Ctrl-C). Returns how many processes were signalled.
 */
export function killTrackedChildren(): number {
  const victims = new Set<number>();
  const children = childrenByParent();
  const visit = (pid: number) => {
    if (victims.has(pid)) return;
    victims.add(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  for (const pid of tracked) if (isProcessAlive(pid)) visit(pid);
  for (const pid of victims) killHard(pid);
  tracked.clear();
  return victims.size;
}

/** Linux /proc's process tree; empty elsewhere (then only the tracked processes themselves are killed). */
function childrenByParent(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return map;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields after the last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(entry));
      map.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  return map;
}
