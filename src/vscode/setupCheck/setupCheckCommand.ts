// "Local Harness: Check Model Setup": says what it will send (a modal), runs the check with a cancellable
// progress notification, keeps the result for the server and model, and shows the findings in an editor tab.
import * as vscode from 'vscode';
import { systemClock } from '../../core/ports';
import { setupCheckPlan } from '../../core/setupCheck/setupCheckPlan';
import type { SetupReport } from '../../core/setupCheck/report';
import { errorMessage, type Logger } from '../../editor/log/logger';
import type { ModelService } from '../../editor/models/modelService';
import type { EditorSettings } from '../settings/editorSettings';
import type { SetupCheckMemory } from '../../editor/setupCheck/setupCheckMemory';
import type { SetupReportPanel } from './setupPanel';

export interface SetupCheckDeps {
  settings: EditorSettings;
  models: ModelService;
  /** The next turn builds its session again (with the protocol and window a check found). */
  invalidateSession: (reason: string) => void;
  memory: SetupCheckMemory;
  panel: SetupReportPanel;
  log: Logger;
  /** A check finished (the model picker's marks, the next session's protocol and window change). */
  onChecked?: (report: SetupReport) => void;
}

/** The setup check as the model picker offers it. */
export interface PickerSetup {
  report(server: { id: 'ollama' | 'openai'; baseUrl: string }, model: string): Promise<SetupReport | undefined>;
  /** Runs the check of `model` (asking first). */
  check(model: string | undefined): Promise<unknown>;
  /** The stored findings of `model`. */
  show(model: string): Promise<unknown>;
}

export const RUN_CHECK = 'Run Check';

/** Checks `modelArg`, else the configured model (else the first one the server lists). Nothing is sent unless the user agrees. */
export async function checkModelSetup(deps: SetupCheckDeps, modelArg?: unknown): Promise<SetupReport | undefined> {
  const { log } = deps;
  const { settings } = await deps.settings.settingsForRequest();
  const provider = await deps.models.provider(settings);
  const model = (typeof modelArg === 'string' && modelArg.trim()) || settings.model || undefined;
  const embeddingModels = { tools: settings.embeddingModel, index: settings.indexEmbeddingModel || settings.embeddingModel };
  const plan = setupCheckPlan({ baseUrl: provider.baseUrl, ...(model && { model }), embeddingModels });
  const answer = await vscode.window.showInformationMessage(
    `Check ${model ?? 'the model'} on ${provider.baseUrl}?`,
    { modal: true, detail: `${plan.summary}\n\n${plan.lines.map((l) => `• ${l}`).join('\n')}` },
    RUN_CHECK,
  );
  if (answer !== RUN_CHECK) return undefined;
  log.info(`setup check: ${provider.id} ${provider.baseUrl} model=${model ?? '(first listed)'}`);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Local Harness: checking the model setup', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const off = token.onCancellationRequested(() => abort.abort());
      try {
        // The probes load with the first check (dist/lazy/setup-check.js), not at activation.
        const { runSetupCheck } = await import('../../core/setupCheck/runSetupCheck');
        return await runSetupCheck({
          provider,
          ...(model && { model }),
          ...(settings.contextSize > 0 && { contextSize: settings.contextSize }),
          toolProtocol: settings.agent.toolProtocol ?? 'auto',
          embeddingModels,
          recall: (m) => deps.memory.recallWindow(provider, m),
          clock: systemClock,
          signal: abort.signal,
          onProgress: (message) => progress.report({ message }),
        });
      } catch (err) {
        if (abort.signal.aborted) return undefined;
        throw err;
      } finally {
        off.dispose();
      }
    },
  );
  if (!result) {
    void vscode.window.showInformationMessage('Local Harness: the setup check was cancelled.');
    return undefined;
  }
  const { report } = result;
  if (report.server.reachable && report.model) {
    await deps.memory.keep(provider, result).catch((err: unknown) => log.warn(`setup check: could not keep the result: ${errorMessage(err)}`));
  }
  log.info(`setup check: ${report.overall.summary}`);
  deps.panel.show(report, plan.lines);
  // The next turn builds its session again, with the protocol and window this check found.
  deps.invalidateSession('setup check');
  deps.onChecked?.(report);
  return report;
}

/** The stored findings of `model` (else the configured one); runs the check when there are none. */
export async function showModelSetup(deps: SetupCheckDeps, modelArg?: unknown): Promise<void> {
  const { settings } = deps.settings.settings();
  const provider = await deps.models.provider(settings);
  const model = (typeof modelArg === 'string' && modelArg.trim()) || settings.model;
  const report = model ? await deps.memory.report(provider, model) : undefined;
  if (report) deps.panel.show(report);
  else await checkModelSetup(deps, model || undefined);
}

/** The setup check as the model picker offers it: marks from the stored reports, a button to check. */
export function pickerSetup(deps: SetupCheckDeps): PickerSetup {
  return {
    report: (server, model) => deps.memory.report(server, model),
    check: (model) => checkModelSetup(deps, model),
    show: (model) => showModelSetup(deps, model),
  };
}
