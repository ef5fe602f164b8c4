// Runs a helper process to completion with a timeout and an AbortSignal; failures carry the output tail.
import { spawn } from 'node:child_process';

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Enough of a failing build's output to see why, without holding megabytes. */
const KEEP_CHARS = 20_000;

export function runProcess(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const keep = (acc: string, chunk: string) => (acc + chunk).slice(-KEEP_CHARS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout = keep(stdout, d)));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = keep(stderr, d)));
    const fail = (why: string) => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')}: ${why}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
    };
    const timer = setTimeout(() => fail(`timed out after ${timeoutMs} ms`), timeoutMs);
    const onAbort = () => fail('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      cleanup();
      reject(err);
    });
    child.on('close', (code) => {
      cleanup();
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
    });
    if (options.signal?.aborted) onAbort();
  });
}
