// The webview view `localharness.chat`: sets up the webview (CSP, resource roots), connects the bridge and
// routes the panel's intents to the ChatController. It holds no conversation state of its own.
import type { MentionProvider } from './mentionProvider';
import type { ImageUpload } from '../../shared/imageUpload';
import * as vscode from 'vscode';
import type { HostToWebview, PanelCommand, WebviewToHost } from '../../shared/protocol';
import type { ChatController, ModelList } from '../../editor/chat/controller';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import { WebviewBridge, type ChatLog } from '../../editor/chat/webviewBridge';
import { buildWebviewHtml } from '../../editor/chat/webviewHtml';
import { createNonce } from '../../editor/chat/nonce';

export const CHAT_VIEW_ID = 'localharness.chat';

const PANEL_COMMANDS: Record<PanelCommand, string> = {
  openSettings: 'localharness.openSettings',
  showLogs: 'localharness.showLogs',
  selectModel: 'localharness.selectModel',
  manageApprovalRules: 'localharness.manageApprovalRules',
  resumeSession: 'localharness.resumeSession',
  attachMcpResource: 'localharness.attachMcpResource',
  checkSetup: 'localharness.checkSetup',
};

/** What the MCP servers offer the message box (prompts as slash commands, resources for the "@" button). */
export type McpOffers = Omit<Extract<HostToWebview, { type: 'mcpOffers' }>, 'type'>;

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = CHAT_VIEW_ID;

  private readonly bridge: WebviewBridge;
  private view: vscode.WebviewView | undefined;
  private viewDisposables: vscode.Disposable[] = [];
  private lastModels: ModelList | undefined;
  private modelsRequest: AbortController | undefined;
  private hotContextOpen = false;
  private hotContextTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly unsubscribers: Array<() => void> = [];
  /** Requests made before the webview was listening (focus, prefill), delivered on its `ready`; latest per type. */
  private readonly deferred = new Map<HostToWebview['type'], HostToWebview>();
  /** The History view's requests (src/vscode/history); set once the session service exists. */
  sessionsHandler: ((msg: Extract<WebviewToHost, { type: 'sessions' | 'sessionAction' }>) => Promise<void>) | undefined;
  /** Gets each sent message first; true = it took care of it (a `/server.prompt` command, src/vscode/mcp). */
  sendHandler: ((text: string) => Promise<boolean>) | undefined;
  /** "Restore to here" and the review's Keep / Undo / diff (src/vscode/checkpoints). */
  checkpointsHandler: ((msg: Extract<WebviewToHost, { type: 'restoreTo' | 'reviewAction' }>) => Promise<void>) | undefined;
  /** `@` completion and the chips mentions become (set by activation). */
  mentions: MentionProvider | undefined;
  /** The latest MCP offers, sent again to a webview that (re)loads. */
  private mcpOffers: Extract<HostToWebview, { type: 'mcpOffers' }> | undefined;
  private mcpOnly: McpOffers | undefined;
  private promptFiles: McpOffers['prompts'] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: ChatStateStore,
    private readonly controller: ChatController,
    private readonly log: ChatLog,
  ) {
    this.bridge = new WebviewBridge(store, log);
    if (controller.onDidChangeModels) this.unsubscribers.push(controller.onDidChangeModels(() => void this.refreshModels()));
    if (controller.onDidChangeHotContext) this.unsubscribers.push(controller.onDidChangeHotContext(() => this.scheduleHotContext()));
  }

  /** Registers the provider for `localharness.chat`. The webview is rebuilt when hidden: the host's snapshot restores it. */
  static register(provider: ChatViewProvider): vscode.Disposable {
    return vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider, { webviewOptions: { retainContextWhenHidden: false } });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    const webview = view.webview;
    webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    this.bridge.attach(webview);
    this.viewDisposables.push(
      webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)),
      view.onDidChangeVisibility(() => {
        // A retained webview missed posts while hidden; a rebuilt one sends `ready` itself.
        if (view.visible) this.bridge.sendSnapshot();
      }),
      view.onDidDispose(() => this.disposeView()),
    );
    webview.html = buildWebviewHtml({
      nonce: createNonce(),
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.css')).toString(),
      iconStyleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'codicon.css')).toString(),
    });
  }

  get visible(): boolean {
    return !!this.view?.visible;
  }

  /** Put the cursor in the message box (after revealing the view with `localharness.chat.focus`). */
  focusInput(): void {
    this.postOrDefer({ type: 'focus' });
  }

  /** An image for the message box (the explorer's "Attach Image to Chat"); the panel shrinks it. */
  addImage(image: ImageUpload): void {
    this.postOrDefer({ type: 'addImage', image });
  }

  /** The size the panel shrinks images to (`localharness.images.maxDimension`), sent again on every load. */
  setImageOptions(maxDimension: number): void {
    if (this.imageOptions?.maxDimension === maxDimension) return;
    this.imageOptions = { type: 'imageOptions', maxDimension };
    if (this.bridge.isLive) void this.bridge.post(this.imageOptions);
  }
  private imageOptions: Extract<HostToWebview, { type: 'imageOptions' }> | undefined;

  /** Put text into the message box without sending it. */
  prefill(text: string): void {
    this.postOrDefer({ type: 'prefill', text });
  }

  /** Open the "what the model knows" panel with the current hot context. */
  revealHotContext(): void {
    this.hotContextOpen = true;
    this.postOrDefer({ type: 'hotContext', view: this.controller.showHotContext(), reveal: true });
  }

  /** Send the stored-session list to the History view (`reveal` opens it; kept until the view is ready). */
  postSessions(message: Extract<HostToWebview, { type: 'sessions' }>): void {
    if (message.reveal) this.postOrDefer(message);
    else void this.bridge.post(message);
  }

  /** The prompts and resources the ready MCP servers offer; sent only when they changed. */
  setMcpOffers(offers: McpOffers): void {
    this.mcpOnly = offers;
    this.postOffers();
  }

  /** The workspace's prompt files as slash commands, listed before the MCP prompts. */
  setPromptFiles(commands: McpOffers['prompts']): void {
    this.promptFiles = commands;
    this.postOffers();
  }

  private postOffers(): void {
    const mcp = this.mcpOnly ?? { prompts: [], resources: 0 };
    const message: Extract<HostToWebview, { type: 'mcpOffers' }> = { type: 'mcpOffers', prompts: [...this.promptFiles, ...mcp.prompts], resources: mcp.resources };
    if (this.mcpOffers && JSON.stringify(this.mcpOffers) === JSON.stringify(message)) return;
    this.mcpOffers = message;
    if (this.bridge.isLive) void this.bridge.post(message);
  }

  async refreshModels(): Promise<void> {
    this.modelsRequest?.abort();
    const request = new AbortController();
    this.modelsRequest = request;
    let list: ModelList;
    try {
      list = await this.controller.listModels(request.signal);
    } catch (err) {
      list = { models: [], selected: this.lastModels?.selected ?? null, error: `Could not list models: ${message(err)}` };
    }
    if (request.signal.aborted) return;
    this.lastModels = list;
    void this.bridge.post(modelsMessage(list));
  }

  dispose(): void {
    this.disposeView();
    for (const off of this.unsubscribers.splice(0)) off();
  }

  private onMessage(raw: unknown): void {
    const msg = this.bridge.receive(raw);
    if (!msg) return;
    void this.route(msg).catch((err) => {
      this.log.error(`chat view: ${msg.type} failed: ${message(err)}`);
      this.store.error(`${describeIntent(msg)} failed: ${message(err)}`);
    });
  }

  private async route(msg: WebviewToHost): Promise<void> {
    switch (msg.type) {
      case 'ready':
        // The bridge already sent the snapshot; the model list may be slow, so show the cached one first.
        if (this.lastModels) {
          const m = this.lastModels;
          void this.bridge.post(modelsMessage(m));
        }
        for (const deferred of this.deferred.values()) {
          // The hot context may have moved on while the view loaded: send the current one.
          if (deferred.type === 'hotContext') void this.bridge.post({ type: 'hotContext', view: this.controller.showHotContext(), reveal: true });
          else void this.bridge.post(deferred);
        }
        if (this.hotContextOpen && !this.deferred.has('hotContext')) this.postHotContext();
        if (this.mcpOffers) void this.bridge.post(this.mcpOffers);
        if (this.controller.mode) void this.bridge.post({ type: 'mode', mode: this.controller.mode() });
        if (this.imageOptions) void this.bridge.post(this.imageOptions);
        this.deferred.clear();
        await this.refreshModels();
        return;
      case 'send':
        if (await this.sendHandler?.(msg.text)) return;
        await this.controller.send(msg.text, msg.images);
        return;
      case 'mentionQuery':
        if (this.mentions) void this.bridge.post({ type: 'mentionCandidates', query: msg.query, items: await this.mentions.candidates(msg.query) });
        return;
      case 'mention':
        if (this.mentions) {
          const image = await this.mentions.imageFor(msg.candidate);
          if (image) this.addImage(image);
          else this.store.addAttachment(await this.mentions.attachment(msg.candidate));
        }
        return;
      case 'stop':
        this.controller.stop();
        return;
      case 'setMode':
        this.controller.setMode?.(msg.mode);
        return;
      case 'act':
        void this.bridge.post({ type: 'mode', mode: 'agent' });
        await this.controller.act?.(msg.plan);
        return;
      case 'newChat':
        await this.controller.newChat();
        return;
      case 'selectModel':
        await this.controller.selectModel(msg.name);
        await this.refreshModels();
        return;
      case 'refreshModels':
        await this.refreshModels();
        return;
      case 'hotContext':
        this.hotContextOpen = msg.open;
        if (msg.open) this.postHotContext();
        return;
      case 'openLink':
        await vscode.env.openExternal(vscode.Uri.parse(msg.url, true));
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(msg.text);
        return;
      case 'runCommand':
        await vscode.commands.executeCommand(PANEL_COMMANDS[msg.command]);
        return;
      case 'sessions':
      case 'sessionAction':
        await this.sessionsHandler?.(msg);
        return;
      case 'removeAttachment':
        this.store.removeAttachment(msg.id);
        return;
      case 'restoreTo':
      case 'reviewAction':
        await this.checkpointsHandler?.(msg);
        return;
      case 'perf':
        this.log.info(`chat view perf: ${msg.name} ${msg.ms.toFixed(1)} ms${msg.count !== undefined ? ` (${msg.count} items)` : ''}`);
        return;
    }
  }

  /** A view still loading (or not yet created) would lose the message: keep it for its `ready`. */
  private postOrDefer(message: HostToWebview): void {
    if (this.bridge.isLive) void this.bridge.post(message);
    else this.deferred.set(message.type, message);
  }

  private postHotContext(): void {
    void this.bridge.post({ type: 'hotContext', view: this.controller.showHotContext() });
  }

  /** The tracker fires on every file touch; an open panel needs at most a few refreshes a second. */
  private scheduleHotContext(): void {
    if (!this.hotContextOpen || this.hotContextTimer) return;
    this.hotContextTimer = setTimeout(() => {
      this.hotContextTimer = undefined;
      if (this.hotContextOpen) this.postHotContext();
    }, 250);
  }

  private disposeView(): void {
    this.bridge.detach();
    for (const d of this.viewDisposables.splice(0)) d.dispose();
    this.modelsRequest?.abort();
    if (this.hotContextTimer) clearTimeout(this.hotContextTimer);
    this.hotContextTimer = undefined;
    this.view = undefined;
  }
}

function describeIntent(msg: WebviewToHost): string {
  switch (msg.type) {
    case 'send':
      return 'Sending the message';
    case 'selectModel':
      return `Selecting model ${msg.name}`;
    case 'openLink':
      return 'Opening the link';
    default:
      return `The ${msg.type} action`;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function modelsMessage(list: ModelList): HostToWebview {
  return { type: 'models', models: list.models, selected: list.selected, ...(list.error !== undefined && { error: list.error }), ...(list.checks && list.checks.length > 0 && { checks: list.checks }), ...(list.selectedInfo && { selectedInfo: list.selectedInfo }) };
}
