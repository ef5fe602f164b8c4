// The command sandbox of an editor chat: the user's `localharness.sandbox.*` settings (re-read every turn), the
// sandbox launcher's support, and what the dialogs and the notice tell the user to do. No 'vscode' import.
import { CommandSandbox } from '../../core/sandbox/commandSandbox';
import type { SandboxSettings } from '../../core/sandbox/sandboxSettings';
import type { SandboxLauncher } from '../../node/sandbox/sandboxLauncher';

export const EDITOR_SANDBOX_HINTS = {
  network:
    'add the command\u2019s prefix to localharness.sandbox.networkCommands (or turn on localharness.sandbox.network) in your user settings, or choose "Allow with network (once)" when the command is asked',
  off: 'choose "Run once without the sandbox" when asked, or set localharness.sandbox.mode to "auto" or "off" in your user settings',
  limits: 'raise localharness.sandbox.maxProcesses, maxFileSizeMB or maxMemoryMB in your user settings (0: no limit)',
};

export interface EditorSandboxDeps {
  settings: () => SandboxSettings;
  /** The chat's sandbox launcher (the terminal runner and its fallback launch through it). */
  launcher: Pick<SandboxLauncher, 'support' | 'limitSupport'>;
  extraPatterns: () => readonly string[];
  /** The notice when commands cannot be confined (the chat and the log). */
  notice: (message: string) => void;
}

export function createEditorSandbox(deps: EditorSandboxDeps): CommandSandbox {
  return new CommandSandbox({
    settings: deps.settings,
    support: () => deps.launcher.support(),
    extraPatterns: deps.extraPatterns,
    limitsMissing: () => deps.launcher.limitSupport().reason,
    hints: EDITOR_SANDBOX_HINTS,
    onNotice: deps.notice,
  });
}
