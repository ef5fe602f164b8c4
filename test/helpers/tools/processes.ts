// Helpers to check from a test that real processes are gone.
import { readFileSync } from 'node:fs';

/** True while the process exists and is not a zombie (a killed child reparented to a non-reaping init stays a zombie). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return process.platform !== 'linux'; // no /proc: trust kill(0)
  }
}

export async function waitUntilGone(pids: readonly number[], timeoutMs = 3000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function parsePids(text: string): number[] {
  return text
    .split(/\s+/)
    .filter((s) => /^\d+$/.test(s))
    .map(Number);
}
