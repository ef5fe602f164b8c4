// Spawns the built CLI (dist/cli.js) as a real child process and collects what it printed.
import { spawn } from 'node:child_process';
import path from 'node:path';

export const CLI = path.resolve(__dirname, '../../../dist/cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Parsed JSON lines when --json was passed. */
  events: Array<Record<string, unknown> & { type: string }>;
}

export function runCli(
  args: string[],
  /** wrap: a command the CLI runs under (e.g. setpriv … to run it as another user). */
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; onStdout?: (chunk: string) => void; wrap?: string[] } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const [file, ...pre] = [...(options.wrap ?? []), process.execPath];
    const child = spawn(file!, [...pre, CLI, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      options.onStdout?.(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI timed out.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const events = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as CliRun['events'][number]);
      resolve({ code, stdout, stderr, events });
    });
  });
}
