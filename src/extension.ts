// Activation: wiring only. Nothing here talks to the network; the providers, tools and turn runner load on the
// first turn or model list (see src/vscode/agent/turnEngine.ts).
import * as vscode from 'vscode';
import { HarnessController } from './vscode/agent/harnessController';
import { createModalApprovalAsker } from './vscode/approval/modalAsker';
import { ProposedContentProvider, registerProposedContent } from './vscode/approval/proposedContent';
import { WorkspaceRuleStore } from './vscode/approval/rules';
import { ChatStateStore } from './vscode/chat/chatStateStore';
import { ChatViewProvider } from './vscode/chat/chatViewProvider';
import { registerCommands } from './vscode/commands/register';
import { EditorActivityWatcher } from './vscode/editorActivity';
import { Logger, Redactor } from './vscode/log/logger';
import { VsCodeFileSystem } from './vscode/ports/vsCodeFileSystem';
import { VsCodeTerminalRunner } from './vscode/ports/vsCodeTerminalRunner';
import { ApiKeyStore } from './vscode/secrets';
import { HarnessStatusBar } from './vscode/status/statusBar';

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const channel = vscode.window.createOutputChannel('Local Harness', { log: true });
  const redactor = new Redactor();
  const log = new Logger(channel, redactor);
  const sub = context.subscriptions;
  sub.push(channel);

  const store = new ChatStateStore();
  const proposals = new ProposedContentProvider();
  const rules = new WorkspaceRuleStore(context.workspaceState);
  const apiKeys = new ApiKeyStore(context.secrets, redactor);
  const controller = new HarnessController({
    store,
    log,
    rules,
    apiKeys,
    ask: createModalApprovalAsker({ proposals, log }),
    fs: new VsCodeFileSystem(),
    calibration: {
      get: (key) => context.globalState.get<string>(`localharness.calibration.${key}`),
      set: async (key, value) => context.globalState.update(`localharness.calibration.${key}`, value),
    },
    createRunner: (fallback) => {
      const runner = new VsCodeTerminalRunner({ fallback, log });
      sub.push(runner);
      return runner;
    },
  });
  const chatView = new ChatViewProvider(context.extensionUri, store, controller, log);
  const statusBar = new HarnessStatusBar();
  const updateStatus = () => statusBar.update(controller.statusInfo());
  const offStore = store.subscribe(updateStatus);
  const offStatus = controller.onDidChangeStatus(updateStatus);
  updateStatus();

  sub.push(
    proposals,
    registerProposedContent(proposals),
    controller,
    chatView,
    ChatViewProvider.register(chatView),
    // The "Model Server" view only exists to carry the welcome text shown when no server answers.
    vscode.window.registerTreeDataProvider('localharness.serverStatus', { getChildren: () => [], getTreeItem: (item: vscode.TreeItem) => item }),
    statusBar,
    new EditorActivityWatcher((activity) => controller.setEditorActivity(activity)),
    apiKeys.onDidChange(() => controller.invalidateSession('API key changed')),
    ...registerCommands({ controller, chatView, rules, apiKeys, log, channel, extensionId: context.extension.id }),
    { dispose: () => (offStore(), offStatus()) },
  );
  log.info(`Local Harness ${context.extension.packageJSON?.version ?? ''} activated in ${(performance.now() - started).toFixed(1)} ms`);
}

export function deactivate(): void {
  // Everything is in context.subscriptions; VS Code disposes it (cancelling a running turn).
}
