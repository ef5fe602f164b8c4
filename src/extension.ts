// Activation: wiring only. Nothing here talks to the network; the providers, tools and turn runner load on the
// first turn or model list (see src/editor/engine/turnEngine.ts).
// Must stay the first local import: it configures zod before any module creates a schema.
import './shared/zodSetup';
import * as vscode from 'vscode';
import { HarnessController } from './vscode/agent/harnessController';
import { createModalApprovalAsker } from './vscode/approval/modalAsker';
import { ProposedContentProvider, registerProposedContent } from './vscode/approval/proposedContent';
import { WorkspaceRuleStore } from './editor/approval/rules';
import { ChatStateStore } from './editor/chat/chatStateStore';
import { ChatViewProvider } from './vscode/chat/chatViewProvider';
import { registerCommands } from './vscode/commands/register';
import { EditorActivityWatcher } from './vscode/editorActivity';
import { Logger, Redactor } from './editor/log/logger';
import { VsCodeFileSystem } from './vscode/ports/vsCodeFileSystem';
import { VsCodeTerminalRunner } from './vscode/ports/vsCodeTerminalRunner';
import { ApiKeyStore } from './vscode/secrets';
import { ServerChoiceStore, ServerConsent } from './editor/settings/serverConsent';
import { askServerInModal } from './vscode/settings/serverConsentDialog';
import { userOpenaiOrigin } from './vscode/settings/settingsReader';
import { HarnessStatusBar } from './vscode/status/statusBar';
import { registerHistory } from './vscode/history/registerHistory';
import { createSessionService } from './vscode/history/sessionDatabase';
import { EditorSettings } from './vscode/settings/editorSettings';
import { ModelService } from './editor/models/modelService';
import { engineLoader } from './editor/engine/engineLoader';
import { createMcp, notifyWhenResolved } from './vscode/mcp/mcpWiring';
import { samplingModelOf } from './editor/mcp/samplingModel';
import { ChatTools } from './editor/agent/chatTools';
import { createKnowledgeService, registerKnowledge } from './vscode/knowledge/registerKnowledge';
import { registerChatCodeActions } from './vscode/codeToChat/chatCodeActions';
import { registerCodeToChat } from './vscode/codeToChat/codeToChatCommands';
import { registerImageCommands } from './vscode/chat/imageCommands';
import { MentionProvider } from './vscode/chat/mentionProvider';
import { mcpChatSource } from './vscode/mcp/mcpChatSource';
import { registerMcpChat } from './vscode/mcp/mcpChat';
import { registerSkillsAndPrompts } from './vscode/chat/skillsAndPrompts';
import { SetupCheckMemory } from './editor/setupCheck/setupCheckMemory';
import { SetupReportPanel } from './vscode/setupCheck/setupPanel';

/** Stops the MCP servers on deactivate and waits until their processes are gone (no orphans). */
let shutdownMcp: (() => Promise<void>) | undefined;

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
  // Keys belong to the server origin they were entered for; an old single key goes to the user's own server.
  const apiKeys = new ApiKeyStore(context.secrets, redactor, userOpenaiOrigin, (origin) => log.info(`API key: the stored key now belongs to ${origin} (your own server)`));
  // A model server named by the workspace's settings is used only after the user allowed it (remembered per workspace).
  const servers = new ServerChoiceStore(context.workspaceState);
  const serverConsent = new ServerConsent({
    store: servers,
    ask: askServerInModal,
    onDecision: (question, answer) =>
      log.info(
        `model server named by this workspace, ${question.workspace.url}: ${answer === 'allow' ? 'allowed' : answer === 'deny' ? 'denied; using ' + question.user.url : 'dialog dismissed; using ' + question.user.url + ' in this window'}`,
      ),
  });
  // Settings as the next request uses them (the workspace's model server once allowed), and the model server.
  const settings = new EditorSettings({ serverConsent, onListenerError: (err) => log.error('a settings listener failed', err) });
  const loadEngine = engineLoader();
  const models = new ModelService({ log, apiKeys, loadEngine });
  sub.push(settings);
  // The chat's tool registry, made first and handed to MCP and the chat; the built-in tools join with the engine.
  const tools = new ChatTools(loadEngine);
  // MCP servers start when the chat is first shown or a turn starts, never at activation.
  const samplingModel = samplingModelOf({ settings, models });
  const mcp = createMcp({ context, log, redactor, getRegistry: () => tools.whole(), samplingModel });
  shutdownMcp = () => mcp.service.shutdown();
  // The servers' prompts and resources, for the chat's slash commands and resource chips.
  const mcpChat = mcpChatSource(mcp.service);
  // Durable sessions: the database opens on the first turn or when the History is shown, never at activation.
  const sessions = createSessionService(context, store, log);
  const fs = new VsCodeFileSystem();
  // The workspace index: built on the first index action or the first turn that finds an index, never here.
  const knowledge = createKnowledgeService({ sessions, fs, log, store, settings, models });
  // Per-model memories between sessions (token calibration, the window found, setup check results).
  const globalKv = {
    get: (key: string) => context.globalState.get<string>(`localharness.calibration.${key}`),
    set: async (key: string, value: string) => context.globalState.update(`localharness.calibration.${key}`, value),
  };
  const setupMemory = new SetupCheckMemory({ global: globalKv, sessionsKv: () => sessions.kv() });
  const setupPanel = new SetupReportPanel();
  const controller = new HarnessController({
    store,
    log,
    tools,
    sessions,
    beforeTurn: (signal) => mcp.service.beforeTurn(signal, (message) => store.notice(message)),
    knowledge: knowledge.session,
    readResource: (server, uri, signal) => mcpChat.readResource(server, uri, signal),
    rules,
    settings,
    models,
    loadEngine,
    ask: createModalApprovalAsker({ proposals, log }),
    fs,
    calibration: globalKv,
    setupChecks: setupMemory,
    createRunner: (fallback, sandbox, passEnv) => {
      const runner = new VsCodeTerminalRunner({ fallback, sandbox, log, passEnv });
      sub.push(runner);
      return runner;
    },
  });
  const offOffered = controller.bus.on((event) => {
    if (event.type === 'tools_offered') mcp.service.recordOffered(event);
  });
  sub.push({ dispose: offOffered });
  const chatView = new ChatViewProvider(context.extensionUri, store, controller, log);
  chatView.mentions = new MentionProvider();
  sub.push(chatView.mentions);
  const statusBar = new HarnessStatusBar();
  const updateStatus = () => statusBar.update({ ...controller.statusInfo(), ...mcpStatusOf(mcp.service.summary()) });
  const offStore = store.subscribe(updateStatus);
  const offStatus = controller.onDidChangeStatus(updateStatus);
  sub.push(...mcp.disposables, mcp.service.onDidChange(updateStatus));
  updateStatus();

  sub.push(
    proposals,
    registerProposedContent(proposals),
    controller,
    chatView,
    // ChatViewProvider.register's options, with the MCP servers starting when the chat is first shown.
    vscode.window.registerWebviewViewProvider(
      ChatViewProvider.viewType,
      notifyWhenResolved(chatView, () => void mcp.service.warmUp()),
      { webviewOptions: { retainContextWhenHidden: false } },
    ),
    // The "Model Server" view only exists to carry the welcome text shown when no server answers.
    vscode.window.registerTreeDataProvider('localharness.serverStatus', { getChildren: () => [], getTreeItem: (item: vscode.TreeItem) => item }),
    statusBar,
    new EditorActivityWatcher((activity) => controller.setEditorActivity(activity)),
    apiKeys.onDidChange(() => (controller.invalidateSession('API key changed'), knowledge.invalidate())),
    ...registerHistory({ service: sessions, controller, chatView, store, log, fs, workspaceState: context.workspaceState }),
    setupPanel,
    ...registerCommands({
      chat: controller,
      settings,
      models,
      chatView,
      rules,
      servers,
      apiKeys,
      log,
      channel,
      extensionId: context.extension.id,
      setup: { settings, models, invalidateSession: (why) => controller.invalidateSession(why), memory: setupMemory, panel: setupPanel, log, onChecked: () => void chatView.refreshModels() },
    }),
    ...registerKnowledge({ context, service: knowledge, chat: controller, settings, store, fs, log }),
    ...registerCodeToChat({ controller, chatView, store, log }),
    ...registerImageCommands({ chatView, settings, log }),
    ...registerMcpChat({ source: mcpChat, controller, chatView, store, log }),
    ...registerSkillsAndPrompts({ fs, settings, chatView, log }),
    registerChatCodeActions(),
    { dispose: () => (offStore(), offStatus()) },
  );
  log.info(`Local Harness ${context.extension.packageJSON?.version ?? ''} activated in ${(performance.now() - started).toFixed(1)} ms`);
}

export function deactivate(): Promise<void> | undefined {
  // Everything is in context.subscriptions; VS Code disposes it (cancelling a running turn). MCP servers are
  // child processes: wait for them to exit.
  return shutdownMcp?.();
}

function mcpStatusOf(summary: string | undefined): { mcpTools?: string } {
  return summary ? { mcpTools: summary } : {};
}
