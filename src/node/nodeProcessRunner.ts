// ProcessRunner on child_process: the platform shell in its own process group, so a timeout or an abort
// kills the whole tree (SIGTERM, then SIGKILL). Output is merged and captured in bounded memory; no stdin.
// The command sees only an allow-listed environment (core/shell/commandEnv.ts), sandboxed or not.
import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { ProcessRunner, RunOptions, RunResult } from '../core/ports';
import { commandEnvironment } from '../core/shell/commandEnv';
import { BoundedOutput } from './boundedOutput';
import type { Launch, SandboxLauncher } from './sandbox/sandboxLauncher';

export interface NodeProcessRunnerOptions {
  /** Shell binary; defaults to /bin/sh (POSIX) or %ComSpec% (Windows). */
  shell?: string;
  /** Extra environment on top of the allow-listed part of process.env. */
  env?: Record<string, string>;
  /** The user's own variable names passed through as well (re-read for every command). */
  passEnv?: () => readonly string[];
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** After the shell exits, how long to wait for background children that still hold the output pipes. */
  drainMs?: number;
  /** Runs commands that carry a sandbox policy (without it such a command is refused, never run unconfined). */
  sandbox?: SandboxLauncher;
}

/** Keeps commands from waiting on a pager or a password prompt, and from colouring output the model must read. */
const NON_INTERACTIVE_ENV: Record<string, string> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  NO_COLOR: '1',
};

/** Loaded with the first command: most agent sessions never run one, and every CLI process would pay for it. */
let childProcess: typeof import('node:child_process') | undefined;

export class NodeProcessRunner implements ProcessRunner {
  private readonly isWindows = process.platform === 'win32';

  constructor(private readonly options: NodeProcessRunnerOptions = {}) {}

  /** The same runner (and sandbox) whose commands also see these variables (the CLI's --command-env). */
  withPassEnv(names: readonly string[]): NodeProcessRunner {
    return names.length === 0 ? this : new NodeProcessRunner({ ...this.options, passEnv: () => names });
  }

  async run(command: string, opts: RunOptions): Promise<RunResult> {
    if (!childProcess) childProcess = await import('node:child_process');
    if (opts.signal.aborted) return { exitCode: null, output: '', timedOut: false, cancelled: true };
    let launch: Launch | undefined;
    if (opts.sandbox) {
      if (!this.options.sandbox) throw new Error('this runner cannot sandbox commands');
      launch = this.options.sandbox.launch(command, opts.sandbox, opts.cwd);
    }
    try {
      return await this.runChild(command, opts, launch);
    } finally {
      launch?.release();
    }
  }

  private runChild(command: string, opts: RunOptions, launch: Launch | undefined): Promise<RunResult> {
    const output = new BoundedOutput(opts.maxOutputChars);
    const child = launch ? this.spawnLaunch(launch, opts.cwd) : this.spawnShell(command, opts.cwd);

    return new Promise<RunResult>((resolve, reject) => {
      let timedOut = false;
      let cancelled = false;
      let killing = false;
      let settled = false;
      let exitCode: number | null = null;
      let drainTimer: NodeJS.Timeout | undefined;
      let heldOpen = false;

      const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')];
      child.stdout!.on('data', (chunk: Buffer) => output.push(decoders[0]!.write(chunk)));
      child.stderr!.on('data', (chunk: Buffer) => output.push(decoders[1]!.write(chunk)));

      const killTree = () => {
        if (killing) return;
        killing = true;
        this.signalTree(child, 'SIGTERM');
        // Escalate even if we have already resolved: something in the group may be ignoring SIGTERM.
        setTimeout(() => this.signalTree(child, 'SIGKILL'), this.options.killGraceMs ?? 2000).unref();
      };

      const timer = setTimeout(() => {
        timedOut = true;
        killTree();
      }, Math.max(1, opts.timeoutMs));
      const onAbort = () => {
        cancelled = true;
        killTree();
      };
      opts.signal.addEventListener('abort', onAbort, { once: true });

      const finish = (code: number | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (drainTimer) clearTimeout(drainTimer);
        opts.signal.removeEventListener('abort', onAbort);
        for (const d of decoders) output.push(d.end());
        if (heldOpen) output.push('\n[The command left background processes running; their later output is not captured.]');
        resolve({ exitCode: code, output: output.toString(), timedOut, cancelled });
      };

      child.once('error', (err) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.signal.removeEventListener('abort', onAbort);
        reject(err);
      });
      child.once('exit', (code) => {
        exitCode = code;
        // Background children can keep the pipes open after the shell exits; don't wait for them forever.
        drainTimer = setTimeout(() => {
          heldOpen = !killing;
          child.stdout!.destroy();
          child.stderr!.destroy();
          finish(exitCode);
        }, this.options.drainMs ?? 500);
      });
      child.once('close', (code) => finish(code ?? exitCode));
    });
  }

  /** bubblewrap or sandbox-exec leads the process group; killing it ends everything in the sandbox. */
  private spawnLaunch(launch: Launch, cwd: string): ChildProcess {
    const env = { ...this.baseEnv(), ...launch.env };
    return childProcess!.spawn(launch.file, launch.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe', ...(launch.fds ?? [])], detached: true });
  }

  private spawnShell(command: string, cwd: string): ChildProcess {
    const env = this.baseEnv();
    if (this.isWindows) {
      const shell = this.options.shell ?? process.env.ComSpec ?? 'cmd.exe';
      return childProcess!.spawn(shell, ['/d', '/s', '/c', `"${command}"`], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
        windowsVerbatimArguments: true,
      });
    }
    // detached: the shell leads a new process group, so -pid reaches every process it starts.
    return childProcess!.spawn(this.options.shell ?? '/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  }

  private baseEnv(): Record<string, string> {
    return { ...commandEnvironment(process.env, this.options.passEnv?.() ?? [], this.isWindows), ...NON_INTERACTIVE_ENV, ...this.options.env };
  }

  private signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
    const pid = child.pid;
    if (pid === undefined) return;
    if (this.isWindows) {
      // No process groups or SIGTERM on Windows: taskkill /T /F walks the tree and is already forceful.
      if (signal === 'SIGTERM') {
        childProcess!.spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on('error', () => undefined);
      }
      return;
    }
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the whole group is already gone.
    }
  }
}
