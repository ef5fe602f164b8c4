// "Local Harness: Select Model": a QuickPick filled from the server's model list; the choice is stored in
// `localharness.model`.
import * as vscode from 'vscode';
import type { HarnessController } from '../agent/harnessController';
import { modelDetail, sameModel } from '../agent/modelText';
import { errorMessage, type Logger } from '../log/logger';

interface ModelItem extends vscode.QuickPickItem {
  model: string;
}

export async function selectModelCommand(controller: HarnessController, log: Logger): Promise<void> {
  // Listing models is a request: a model server the workspace names is asked about first.
  const { settings } = await controller.settingsForRequest();
  const pick = vscode.window.createQuickPick<ModelItem>();
  const abort = new AbortController();
  pick.title = 'Local Harness: Select Model';
  pick.placeholder = `Loading models from ${settings.provider === 'ollama' ? settings.ollamaHost : settings.openaiBaseUrl}…`;
  pick.busy = true;
  pick.matchOnDetail = true;
  pick.onDidHide(() => {
    abort.abort();
    pick.dispose();
  });
  pick.show();

  let infos;
  try {
    infos = await controller.models.list(settings, abort.signal);
  } catch (err) {
    if (abort.signal.aborted) return;
    pick.hide();
    const message = errorMessage(err);
    log.warn(`select model: ${message}`);
    const open = 'Open Settings';
    const logs = 'Show Logs';
    const answer = await vscode.window.showErrorMessage(message, open, logs);
    if (answer === open) await vscode.commands.executeCommand('localharness.openSettings');
    if (answer === logs) await vscode.commands.executeCommand('localharness.showLogs');
    return;
  }
  if (abort.signal.aborted) return;
  if (infos.length === 0) {
    pick.hide();
    void vscode.window.showWarningMessage(
      settings.provider === 'ollama' ? 'The Ollama server has no models yet. Pull one first, e.g. `ollama pull qwen3`.' : 'The server lists no models. Load one in the server first.',
    );
    return;
  }
  pick.items = infos.map((info) => {
    const current = settings.model !== '' && sameModel(info.name, settings.model);
    const detail = modelDetail(info);
    return {
      label: current ? `$(check) ${info.name}` : info.name,
      model: info.name,
      ...(current && { description: 'current' }),
      ...(detail && { detail }),
    };
  });
  const currentItem = pick.items.find((i) => i.description === 'current');
  if (currentItem) pick.activeItems = [currentItem];
  pick.placeholder = 'Choose the model for the next messages';
  pick.busy = false;

  const chosen = await new Promise<ModelItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
  });
  pick.hide();
  if (chosen) await controller.selectModel(chosen.model);
}
