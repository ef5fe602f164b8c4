// "Local Harness: Select Model": a QuickPick filled from the server's model list; the choice is stored in
// `localharness.model`. A model the setup check looked at carries its verdict (a mark, and a tooltip on its button).
import * as vscode from 'vscode';
import type { ChatController } from '../../editor/chat/controller';
import type { ModelService } from '../../editor/models/modelService';
import type { EditorSettings } from '../settings/editorSettings';
import type { PickerSetup } from '../setupCheck/setupCheckCommand';
import { modelDetail, sameModel } from '../../editor/models/modelText';
import { errorMessage, type Logger } from '../../editor/log/logger';
import { setupMark } from '../../editor/setupCheck/setupMarks';

interface ModelItem extends vscode.QuickPickItem {
  model: string;
  /** The setup check has findings for this model. */
  checked?: boolean;
}

const CHECK_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('checklist'), tooltip: 'Check Model Setup' };

export interface SelectModelDeps {
  chat: Pick<ChatController, 'selectModel'>;
  settings: EditorSettings;
  models: ModelService;
  log: Logger;
}

export async function selectModelCommand(deps: SelectModelDeps, setup?: PickerSetup): Promise<void> {
  const { models, log } = deps;
  // Listing models is a request: a model server the workspace names is asked about first.
  const { settings } = await deps.settings.settingsForRequest();
  const pick = vscode.window.createQuickPick<ModelItem>();
  const abort = new AbortController();
  pick.title = 'Local Harness: Select Model';
  pick.placeholder = `Loading models from ${settings.provider === 'ollama' ? settings.ollamaHost : settings.openaiBaseUrl}…`;
  pick.busy = true;
  pick.matchOnDetail = true;
  if (setup) pick.buttons = [CHECK_BUTTON];
  pick.onDidHide(() => {
    abort.abort();
    pick.dispose();
  });
  pick.show();

  let infos;
  try {
    infos = await models.list(settings, abort.signal);
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
  const server = setup ? await models.provider(settings) : undefined;
  const now = Date.now();
  pick.items = await Promise.all(
    infos.map(async (info) => {
      const current = settings.model !== '' && sameModel(info.name, settings.model);
      const detail = modelDetail(info);
      const report = server && setup ? await setup.report(server, info.name) : undefined;
      const mark = server && setup ? setupMark(report, now) : undefined;
      const description = [current ? 'current' : '', mark?.text ? `$(${mark.icon}) ${mark.text}` : ''].filter(Boolean).join(' · ');
      return {
        label: current ? `$(check) ${info.name}` : info.name,
        model: info.name,
        ...(report && { checked: true }),
        ...(description && { description }),
        ...(detail && { detail }),
        ...(mark && { buttons: [{ iconPath: new vscode.ThemeIcon(mark.icon), tooltip: mark.tooltip }] }),
      };
    }),
  );
  const currentItem = pick.items.find((i) => i.description?.startsWith('current'));
  if (currentItem) pick.activeItems = [currentItem];
  pick.placeholder = 'Choose the model for the next messages';
  pick.busy = false;

  const chosen = await new Promise<ModelItem | { check: ModelItem | undefined; show: boolean } | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    // The title bar button checks the highlighted model; a row's own button shows its findings (or checks it).
    pick.onDidTriggerButton(() => resolve({ check: pick.activeItems[0], show: false }));
    pick.onDidTriggerItemButton((e) => resolve({ check: e.item, show: e.item.checked === true }));
  });
  pick.hide();
  if (!chosen) return;
  if ('check' in chosen) {
    if (chosen.show && chosen.check) await setup?.show(chosen.check.model);
    else await setup?.check(chosen.check?.model);
    return;
  }
  await deps.chat.selectModel(chosen.model);
}
