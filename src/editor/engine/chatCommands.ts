// How an editor chat runs commands: the terminal runner and the command sandbox, built on the first turn (the
// heavy parts come from the lazily loaded turn engine) and given each turn's sandbox settings. No 'vscode' import.
import type { ProcessRunner } from '../../core/ports';
import type { CommandSandbox } from '../../core/sandbox/commandSandbox';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../core/sandbox/sandboxSettings';
import type { SandboxLauncher } from '../../node/sandbox/sandboxLauncher';
import type { EditorSandboxDeps } from './editorSandbox';

/** What the turn engine supplies (turnEngine.ts). */
export interface CommandEngine {
  createSandboxLauncher(): SandboxLauncher;
  createFallbackRunner(sandbox?: SandboxLauncher, passEnv?: () => readonly string[]): ProcessRunner;
  createEditorSandbox(deps: EditorSandboxDeps): CommandSandbox;
}

export interface ChatCommandsDeps {
  /** The terminal runner around the child-process fallback (extension.ts); `passEnv` as in NodeProcessRunner. */
  createRunner: (fallback: ProcessRunner, sandbox: SandboxLauncher, passEnv: () => readonly string[]) => ProcessRunner;
  /** The user's extra sensitive-path patterns: kept read-only in the sandbox too. */
  extraPatterns: () => readonly string[];
  /** Told once when commands cannot be confined. */
  notice: (message: string) => void;
}

export class ChatCommands {
  private built: { runner: ProcessRunner; sandbox: CommandSandbox } | undefined;
  private settings: SandboxSettings = DEFAULT_SANDBOX_SETTINGS;
  /** The user's extra variable names for commands (localharness.sandbox.envPassthrough), as of this turn. */
  private passEnv: readonly string[] = [];

  constructor(private readonly deps: ChatCommandsDeps) {}

  /** The runner and sandbox for a turn; `mayRun` (a trusted folder) finds out now whether there is a sandbox. */
  forTurn(engine: CommandEngine, settings: SandboxSettings, mayRun: boolean, passEnv: readonly string[] = []): { runner: ProcessRunner; sandbox: CommandSandbox } {
    this.settings = settings;
    this.passEnv = passEnv;
    if (!this.built) {
      const launcher = engine.createSandboxLauncher();
      const env = () => this.passEnv;
      const runner = this.deps.createRunner(engine.createFallbackRunner(launcher, env), launcher, env);
      const sandbox = engine.createEditorSandbox({
        settings: () => this.settings,
        launcher,
        extraPatterns: this.deps.extraPatterns,
        notice: this.deps.notice,
      });
      this.built = { runner, sandbox };
    }
    if (mayRun) this.built.sandbox.announce();
    return this.built;
  }
}
