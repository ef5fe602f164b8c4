// Registers commands so that a failure is logged and shown once, in words, instead of vanishing in the
// extension host: every command group of the extension registers through this.
import * as vscode from 'vscode';
import type { Logger } from '../../editor/log/logger';

export type CommandHandler = (...args: unknown[]) => unknown;

export function registerLoggedCommands(commands: Record<string, CommandHandler>, log: Pick<Logger, 'error'>): vscode.Disposable[] {
  return Object.entries(commands).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (err) {
        log.error(`command ${id} failed`, err);
        void vscode.window.showErrorMessage(`Local Harness: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    }),
  );
}
