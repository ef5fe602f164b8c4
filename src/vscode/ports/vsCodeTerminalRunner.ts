// ProcessRunner for the editor: commands run in a visible "Local Harness" terminal. With shell integration the
// output is read from the execution's stream and the exit code from its end event; without it (no integration
// after a few seconds) the command runs as a child process through the fallback runner, echoed into a
// pseudoterminal so the user still sees it. Timeout and cancellation send Ctrl+C, then close the terminal.
// A sandboxed command is sent as the sandbox's own line (`bwrap --args 3 /bin/sh -c '…' 3<policy`), so the terminal
// shows what really runs; Ctrl+C ends bubblewrap, and with it every process in the sandbox.
import * as vscode from 'vscode';
import type { ProcessRunner, RunOptions, RunResult } from '../../core/ports';
import type { SandboxLauncher, ShellLaunch } from '../../node/sandbox/sandboxLauncher';
import type { Logger } from '../../editor/log/logger';
import { collapseCarriageReturns, HeadTailBuffer, TerminalTextCleaner } from '../../editor/ports/terminalText';
import { EchoTerminal } from './echoTerminal';
import { terminalCommandLine } from '../../editor/ports/cdCommand';
import { commandEnvironment } from '../../core/shell/commandEnv';

export interface TerminalRunnerOptions {
  /** Runs commands when shell integration is unavailable (the node child-process runner). */
  fallback: ProcessRunner;
  /** Starts sandboxed commands (the fallback runner uses the same one); disposed with this runner. */
  sandbox?: SandboxLauncher;
  log: Logger;
  /** How long to wait for shell integration in a new terminal. */
  integrationWaitMs?: number;
  /** After Ctrl+C, how long to wait for the command to end before closing the terminal. */
  interruptGraceMs?: number;
  terminalName?: string;
  /** The user's extra variable names for commands; the terminal's environment is the allow-list plus these. */
  passEnv?: () => readonly string[];
}

const DEFAULT_INTEGRATION_WAIT_MS = 4000;
const DEFAULT_INTERRUPT_GRACE_MS = 2000;
/** After the end event, how long to let the output stream drain. */
const DRAIN_MS = 300;

export class VsCodeTerminalRunner implements ProcessRunner, vscode.Disposable {
  private terminal: vscode.Terminal | undefined;
  /** The environment our terminal was created with: a changed passthrough list needs a new terminal. */
  private terminalEnvKey = '';
  /** Where a fresh terminal's shell started; only trusted until its first command (which may cd elsewhere). */
  private startCwd: string | undefined;
  /** Set once a terminal of ours showed no shell integration; later commands go straight to the fallback. */
  private integrationMissing = false;
  private echo: EchoTerminal | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly options: TerminalRunnerOptions) {
    this.disposables.push(
      vscode.window.onDidCloseTerminal((t) => {
        if (t === this.terminal) this.terminal = undefined;
      }),
    );
  }

  /** One command at a time: they share the terminal. */
  run(command: string, options: RunOptions): Promise<RunResult> {
    const next = this.queue.then(
      () => this.runNow(command, options),
      () => this.runNow(command, options),
    );
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runNow(command: string, options: RunOptions): Promise<RunResult> {
    if (options.signal.aborted) return { exitCode: null, output: '', timedOut: false, cancelled: true };
    const integration = this.integrationMissing ? undefined : await this.shellIntegration(options);
    if (options.signal.aborted) return { exitCode: null, output: '', timedOut: false, cancelled: true };
    if (!integration) return this.runFallback(command, options);
    return this.runIntegrated(integration, command, options);
  }

  private async shellIntegration(options: RunOptions): Promise<vscode.TerminalShellIntegration | undefined> {
    let terminal = this.terminal;
    // Only the allow-listed variables (strictEnv): the editor's own environment may hold keys and tokens.
    const env = commandEnvironment(process.env, this.options.passEnv?.() ?? [], process.platform === 'win32');
    const envKey = JSON.stringify(env);
    if (terminal && terminal.exitStatus === undefined && envKey !== this.terminalEnvKey) {
      terminal.dispose();
      terminal = this.terminal = undefined;
    }
    if (!terminal || terminal.exitStatus !== undefined) {
      terminal = vscode.window.createTerminal({
        name: this.options.terminalName ?? 'Local Harness',
        cwd: options.cwd,
        iconPath: new vscode.ThemeIcon('hubot'),
        env,
        strictEnv: true,
      });
      this.terminal = terminal;
      this.terminalEnvKey = envKey;
      this.startCwd = options.cwd;
    }
    terminal.show(true);
    if (terminal.shellIntegration) return terminal.shellIntegration;
    const found = await waitForIntegration(terminal, this.options.integrationWaitMs ?? DEFAULT_INTEGRATION_WAIT_MS, options.signal);
    if (!found && !options.signal.aborted) {
      this.integrationMissing = true;
      this.options.log.info('terminal shell integration is not available; running commands as child processes instead');
      // That shell will never be used: keep only the terminal that shows the commands.
      terminal.dispose();
      this.terminal = undefined;
    }
    return found;
  }

  private async runIntegrated(integration: vscode.TerminalShellIntegration, command: string, options: RunOptions): Promise<RunResult> {
    const terminal = this.terminal!;
    const reported = integration.cwd && integration.cwd.scheme === 'file' ? integration.cwd.fsPath : undefined;
    const here = reported ?? this.startCwd;
    this.startCwd = undefined;
    let launch: ShellLaunch | undefined;
    if (options.sandbox) {
      if (!this.options.sandbox) throw new Error('this runner cannot sandbox commands');
      launch = this.options.sandbox.shellLine(command, options.sandbox, options.cwd);
    }
    try {
      return await this.runLine(integration, terminal, terminalCommandLine(launch?.line ?? command, options.cwd, here), command, options);
    } finally {
      launch?.release();
    }
  }

  private async runLine(
    integration: vscode.TerminalShellIntegration,
    terminal: vscode.Terminal,
    commandLine: string,
    command: string,
    options: RunOptions,
  ): Promise<RunResult> {
    const buffer = new HeadTailBuffer(options.maxOutputChars);
    const cleaner = new TerminalTextCleaner();

    const execution = integration.executeCommand(commandLine);
    // read() must be called right away or early output is lost.
    const stream = execution.read();
    const drained = (async () => {
      for await (const chunk of stream) buffer.push(cleaner.feed(chunk));
      buffer.push(cleaner.flush());
    })().catch((err: unknown) => this.options.log.warn(`terminal output stream failed: ${(err as Error)?.message ?? err}`));

    let timedOut = false;
    let cancelled = false;
    let exitCode: number | null = null;
    const ended = waitForEnd(execution, terminal);
    const stopped = waitForStop(options);
    const first = await Promise.race([ended.promise, stopped.promise]);
    stopped.dispose();
    if (first.kind === 'ended') {
      exitCode = first.exitCode ?? null;
    } else {
      timedOut = first.kind === 'timeout';
      cancelled = first.kind === 'abort';
      terminal.sendText('\u0003', false);
      const afterInterrupt = await Promise.race([ended.promise, delay(this.options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS)]);
      if (!afterInterrupt || afterInterrupt.kind !== 'ended') {
        // The process ignores Ctrl+C: closing the terminal kills the shell and its children.
        this.options.log.warn(`command did not stop after Ctrl+C; closing the terminal: ${command}`);
        terminal.dispose();
        if (this.terminal === terminal) this.terminal = undefined;
      }
    }
    ended.dispose();
    await Promise.race([drained, delay(DRAIN_MS)]);
    return { exitCode, output: collapseCarriageReturns(buffer.text()), timedOut, cancelled };
  }

  private async runFallback(command: string, options: RunOptions): Promise<RunResult> {
    if (!this.echo || this.echo.closed) {
      this.echo = new EchoTerminal(`${this.options.terminalName ?? 'Local Harness'} (commands)`);
    }
    const echo = this.echo;
    echo.show();
    const confined = options.sandbox ? `, sandbox: writes only in the workspace, network ${options.sandbox.network ? 'on' : 'off'}` : '';
    echo.writeLine(`\x1b[1m$ ${command}\x1b[0m  \x1b[2m(${options.cwd}${confined})\x1b[0m`);
    const result = await this.options.fallback.run(command, options);
    echo.writeBlock(result.output);
    const ending = result.timedOut ? 'timed out' : result.cancelled ? 'cancelled' : `exit code ${result.exitCode ?? 'unknown'}`;
    echo.writeLine(`\x1b[2m[${ending}]\x1b[0m`);
    return result;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.echo?.dispose();
    this.options.sandbox?.dispose();
    this.terminal = undefined;
  }
}

type EndResult = { kind: 'ended'; exitCode: number | undefined };
type StopResult = { kind: 'timeout' } | { kind: 'abort' };

function waitForIntegration(terminal: vscode.Terminal, ms: number, signal: AbortSignal): Promise<vscode.TerminalShellIntegration | undefined> {
  return new Promise((resolve) => {
    const finish = (value: vscode.TerminalShellIntegration | undefined) => {
      clearTimeout(timer);
      sub.dispose();
      closed.dispose();
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => finish(undefined);
    const timer = setTimeout(() => finish(terminal.shellIntegration), ms);
    const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal === terminal) finish(e.shellIntegration);
    });
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) finish(undefined);
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function waitForEnd(execution: vscode.TerminalShellExecution, terminal: vscode.Terminal): { promise: Promise<EndResult>; dispose(): void } {
  let subs: vscode.Disposable[] = [];
  const promise = new Promise<EndResult>((resolve) => {
    subs = [
      vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.execution === execution) resolve({ kind: 'ended', exitCode: e.exitCode });
      }),
      vscode.window.onDidCloseTerminal((t) => {
        if (t === terminal) resolve({ kind: 'ended', exitCode: undefined });
      }),
    ];
  });
  return { promise, dispose: () => subs.forEach((s) => s.dispose()) };
}

function waitForStop(options: RunOptions): { promise: Promise<StopResult>; dispose(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const promise = new Promise<StopResult>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), options.timeoutMs);
    onAbort = () => resolve({ kind: 'abort' });
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    promise,
    dispose: () => {
      if (timer) clearTimeout(timer);
      if (onAbort) options.signal.removeEventListener('abort', onAbort);
    },
  };
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}
