// The command runner and sandbox of a CLI run: commands in bubblewrap (Linux) or sandbox-exec (macOS) unless
// --sandbox off. Where there is none, the notice comes before the turn and, with the default --sandbox required,
// every command is asked on the terminal (denied without one).
import { CommandSandbox } from '../core/sandbox/commandSandbox';
import type { SandboxSettings } from '../core/sandbox/sandboxSettings';
import { NodeProcessRunner } from '../node/nodeProcessRunner';
import { SandboxLauncher } from '../node/sandbox/sandboxLauncher';

export const CLI_SANDBOX_HINTS = {
  network: 'run again with --allow-network-for "PREFIX" (commands starting with PREFIX) or --allow-network (every command)',
  off: 'answer "yes" when the terminal asks to run it without the sandbox, or run again with --sandbox off',
  limits: 'run again with --max-processes N, --max-file-size-mb N or --max-memory-mb N (0: no limit)',
};

export interface CliSandbox {
  runner: NodeProcessRunner;
  sandbox: CommandSandbox;
  dispose(): void;
}

export function createCliSandbox(settings: SandboxSettings, onNotice: (message: string) => void, protectedFiles: readonly string[] = []): CliSandbox {
  const launcher = settings.mode === 'off' ? undefined : new SandboxLauncher();
  const runner = new NodeProcessRunner(launcher ? { sandbox: launcher } : {});
  const sandbox = new CommandSandbox({
    settings: () => settings,
    support: () => launcher?.support() ?? { available: false, kind: 'none', reason: 'this runner has no sandbox' },
    hints: CLI_SANDBOX_HINTS,
    protectedFiles: () => protectedFiles,
    limitsMissing: () => launcher?.limitSupport().reason,
    onNotice,
  });
  // Only what costs nothing now (is bwrap there at all?); trying it waits for the first command.
  if (launcher && launcher.presence()?.available === false) sandbox.announce();
  return { runner, sandbox, dispose: () => launcher?.dispose() };
}
