// The command sandbox of an editor chat: the user's `localharness.sandbox.*` settings (re-read every turn), the
// terminal runner's sandbox, and what the dialogs and the notice tell the user to do. No 'vscode' import.
import { CommandSandbox } from '../../core/sandbox/commandSandbox';
import type { SandboxSettings } from '../../core/sandbox/sandboxSettings';
import type { ProcessRunner } from '../../core/ports';

export const EDITOR_SANDBOX_HINTS = {
  network:
    'add the command\u2019s prefix to localharness.sandbox.networkCommands (or turn on localharness.sandbox.network) in your user settings, or choose "Allow with network (once)" when the command is asked',
  off: 'choose "Run once without the sandbox" when asked, or set localharness.sandbox.mode to "auto" or "off" in your user settings',
};

export interface EditorSandboxDeps {
  settings: () => SandboxSettings;
  /** The runner of the chat (its sandbox support); undefined before the first turn. */
  runner: () => ProcessRunner | undefined;
  extraPatterns: () => readonly string[];
  /** The notice when commands cannot be confined (the chat and the log). */
  notice: (message: string) => void;
}

export function createEditorSandbox(deps: EditorSandboxDeps): CommandSandbox {
  return new CommandSandbox({
    settings: deps.settings,
    support: () => deps.runner()?.sandboxSupport?.() ?? { available: false, kind: 'none', reason: 'commands have not started yet' },
    extraPatterns: deps.extraPatterns,
    hints: EDITOR_SANDBOX_HINTS,
    onNotice: deps.notice,
  });
}
