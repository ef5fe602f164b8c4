// Every `localharness.*` command, bound to the objects activation created.
import * as vscode from 'vscode';
import { registerLoggedCommands } from '../common/loggedCommands';
import type { ChatController } from '../../editor/chat/controller';
import type { ModelService } from '../../editor/models/modelService';
import type { EditorSettings } from '../settings/editorSettings';
import type { ChatViewProvider } from '../chat/chatViewProvider';
import { manageApprovalRules } from './manageRules';
import type { WorkspaceRuleStore } from '../../editor/approval/rules';
import type { Logger } from '../../editor/log/logger';
import type { ApiKeyStore } from '../secrets';
import type { ServerChoiceStore } from '../../editor/settings/serverConsent';
import { originOf } from '../../editor/settings/serverSettings';
import { selectModelCommand } from './selectModel';
import { runWithPlanner } from '../orchestrator/runWithPlannerCommand';
import { checkModelSetup, pickerSetup, type SetupCheckDeps } from '../setupCheck/setupCheckCommand';

export interface CommandDeps {
  chat: ChatController & { readonly busy: boolean; sendWithPlanner(text: string): Promise<void> };
  settings: EditorSettings;
  models: ModelService;
  chatView: ChatViewProvider;
  rules: WorkspaceRuleStore;
  servers: ServerChoiceStore;
  apiKeys: ApiKeyStore;
  log: Logger;
  channel: vscode.LogOutputChannel;
  extensionId: string;
  /** The setup check (Check Model Setup, the picker's marks). */
  setup?: SetupCheckDeps;
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { chat, chatView, log } = deps;
  const focusChat = async () => {
    await vscode.commands.executeCommand('localharness.chat.focus');
    chatView.focusInput();
  };
  const commands: Record<string, (...args: unknown[]) => unknown> = {
    'localharness.newChat': async () => {
      await chat.newChat();
      await focusChat();
    },
    'localharness.stop': () => chat.stop(),
    'localharness.selectModel': () => selectModelCommand(deps, deps.setup && pickerSetup(deps.setup)),
    'localharness.checkSetup': (model) => (deps.setup ? checkModelSetup(deps.setup, model) : undefined),
    'localharness.showLogs': () => deps.channel.show(true),
    'localharness.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${deps.extensionId}`),
    'localharness.focusChat': focusChat,
    'localharness.manageApprovalRules': () =>
      manageApprovalRules({ rules: deps.rules, servers: deps.servers, log, onServersChanged: () => deps.settings.serverChoicesChanged() }),
    'localharness.setApiKey': () => setApiKey(deps),
    'localharness.checkServer': () => checkServer(deps),
    'localharness.runWithPlanner': () => runWithPlanner({ chat, settings: deps.settings, focusChat, log }),
    'localharness.showHotContext': async () => {
      await focusChat();
      chatView.revealHotContext();
    },
  };
  return registerLoggedCommands(commands, log);
}

/** "Set API Key": for the OpenAI-compatible server in use now (the user's, or the workspace's once allowed). */
async function setApiKey(deps: CommandDeps): Promise<void> {
  const url = deps.settings.settings().settings.openaiBaseUrl;
  const origin = originOf(url);
  if (!origin) throw new Error(`localharness.openai.baseUrl "${url}" is not a valid address, so there is no server to store a key for.`);
  await deps.apiKeys.promptAndStore(origin);
}

/** "Check Model Server Connection": probes the server now and says what it found. */
async function checkServer(deps: CommandDeps): Promise<void> {
  const { settings } = await deps.settings.settingsForRequest();
  const list = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Local Harness: checking the model server…', cancellable: true },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return deps.models.list(settings, abort.signal).then(
        (infos) => ({ ok: true as const, count: infos.length }),
        (err: unknown) => ({ ok: false as const, message: (err as Error)?.message ?? String(err) }),
      );
    },
  );
  if (list.ok) {
    void vscode.window.showInformationMessage(`Local Harness: the model server answers and offers ${list.count} model${list.count === 1 ? '' : 's'}.`);
  } else {
    void vscode.window.showWarningMessage(list.message);
  }
}
