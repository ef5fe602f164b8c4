// "Local Harness: Run With Planner…": one task, planned by the planner model and carried out step by step by the
// executor model, even when `localharness.orchestrator.enabled` is off. Without an executor model there is nothing
// to run it on: the message says which setting to fill, with a button that opens it.
import * as vscode from 'vscode';
import type { HarnessSettings } from '../../editor/settings/harnessSettings';
import type { Logger } from '../../editor/log/logger';
import { EXECUTOR_MISSING } from '../../editor/orchestrator/orchestratorEndpoints';

export interface RunWithPlannerDeps {
  chat: { readonly busy: boolean; sendWithPlanner(text: string): Promise<void> };
  settings: { settings(): { settings: HarnessSettings } };
  focusChat(): Promise<void>;
  log: Logger;
}

export async function runWithPlanner(deps: RunWithPlannerDeps): Promise<void> {
  const { settings } = deps.settings.settings();
  const o = settings.orchestrator;
  if (!o.executorModel) {
    const open = 'Open Setting';
    if ((await vscode.window.showWarningMessage(`Local Harness: ${EXECUTOR_MISSING}`, open)) === open) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'localharness.orchestrator.executorModel');
    }
    return;
  }
  if (deps.chat.busy) {
    void vscode.window.showInformationMessage('Local Harness: a turn is running. Press Stop or wait for it to finish, then run with the planner.');
    return;
  }
  const planner = o.plannerModel || settings.model || 'the chat model';
  const task = await vscode.window.showInputBox({
    title: 'Run With Planner',
    prompt: `${planner} plans the task and writes the answer; ${o.executorModel} carries out each step with the tools.`,
    placeHolder: 'What should be done?',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Type a task, or press Escape to cancel.' : undefined),
  });
  if (task === undefined || task.trim() === '') return;
  await deps.focusChat();
  // The command finishes now; the turn runs on and reports in the panel.
  deps.chat.sendWithPlanner(task.trim()).catch((err: unknown) => {
    deps.log.error('run with planner: sending failed', err);
    void vscode.window.showErrorMessage(`Local Harness: ${err instanceof Error ? err.message : String(err)}`);
  });
}
