// Starts the built CLI as a child process that a test can SIGKILL at a moment of its choosing (runCli only
// waits for the end). The child's output is collected so a failure can show it.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from '../../helpers/cli/runCli';

export interface KillableCli {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** SIGKILL (no handler runs, nothing is flushed), then wait until the process is gone and reaped. */
  kill9(): Promise<{ signal: NodeJS.Signals | null }>;
}

export function startCli(args: string[], cwd: string): KillableCli {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<{ signal: NodeJS.Signals | null }>((resolve) => child.on('close', (_code, signal) => resolve({ signal })));
  return {
    child,
    output: () => ({ stdout, stderr }),
    kill9: () => {
      child.kill('SIGKILL');
      return closed;
    },
  };
}

/** Polls `condition` every 20 ms; rejects with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
