// The chat panel: receives validated host messages, folds events into its copy of the state right away,
// and renders at most once per animation frame. Intents go back to the host; the panel decides nothing.
import type { ChatViewState, HostToWebview, HotContextView, PanelCommand } from '../src/shared/protocol';
import { PanelCommandSchema, SessionActionSchema } from '../src/shared/protocol';
import { renderHistory } from './historyPanel';
import { reduceAll } from '../src/shared/chatState';
import { ModeSwitch } from './modeSwitch';
import { Composer } from './composer';
import { ConversationView } from './conversationView';
import { updateControls, updateModels } from './controls';
import { updateModelBadges } from './modelBadges';
import { createHostChannel, type HostChannel, type VsCodeApi } from './host';
import { readHostMessageLazily } from './snapshotMessage';
import { renderHotContext } from './hotContextPanel';
import { renderReview } from './reviewPanel';
import { buildLayout, type Layout } from './layout';
import type { MarkdownRenderer } from './markdown';
import { FrameBatcher, type ViewTiming } from './timing';
import { UiStateStore } from './uiState';

/** A frame whose DOM work takes this long is visible jank. */
const SLOW_FRAME_MS = 50;
/** Items asked from the host at a time when the user scrolls past the oldest one the panel holds. */
const OLDER_CHUNK = 500;

export interface ChatAppDeps {
  doc: Document;
  mount: HTMLElement;
  api: VsCodeApi;
  markdown: MarkdownRenderer;
  timing: ViewTiming;
  log?: (line: string) => void;
}

export class ChatApp {
  readonly layout: Layout;
  private readonly channel: HostChannel;
  private readonly ui: UiStateStore;
  private readonly composer: Composer;
  private readonly modes: ModeSwitch;
  private readonly conversation: ConversationView;
  private readonly frames: FrameBatcher;
  private state: ChatViewState | null = null;
  /** Items the host holds before `state.items[0]` (a long conversation's snapshot carries its newest items). */
  private older = 0;
  private seq = -1;
  /** The state the DOM shows; null until the first snapshot is drawn. */
  private drawn: ChatViewState | null = null;
  private fullRedraw = false;
  private resyncRequested = false;
  private hotContextOpen = false;
  private historyOpen = false;
  private frameCount = 0;
  private slowFrames = 0;
  private maxFrameMs = 0;
  private turnMaxFrameMs = 0;
  private turnFrames = 0;

  constructor(private readonly deps: ChatAppDeps) {
    const { doc } = deps;
    this.layout = buildLayout(doc, deps.mount);
    this.channel = createHostChannel(deps.api);
    this.ui = new UiStateStore(deps.api);
    this.frames = new FrameBatcher(deps.timing, () => this.drawFrame());
    this.composer = new Composer(this.layout, this.channel, this.ui, () => this.frames.schedule());
    // The mode switch beside the model picker; Act / Edit plan right under the conversation.
    this.modes = new ModeSwitch(doc, this.channel, (text) => this.composer.prefill(text));
    this.layout.modelPicker.after(this.modes.group);
    this.layout.conversation.after(this.modes.bar);
    this.conversation = new ConversationView(
      this.layout.conversation,
      { doc, markdown: deps.markdown, timing: deps.timing, ...(deps.log && { log: deps.log }) },
      {
        onSnapshotRendered: (ms, count) => this.snapshotRendered(ms, count),
        onNeedOlder: (before) => this.channel.post({ type: 'olderItems', before, count: OLDER_CHUNK }),
      },
    );
    this.wireControls();
  }

  /** Ask the host for the conversation. Call once the message listener is in place. */
  start(): void {
    this.channel.post({ type: 'ready' });
    // The model shown last time, until the host's list arrives (no empty picker on the first paint).
    const lastModel = this.ui.get().model;
    if (lastModel) updateModels(this.layout, this.deps.doc, [lastModel], lastModel);
    if (this.ui.get().hotContextOpen) this.setHotContextOpen(true);
    if (this.ui.get().historyOpen) this.setHistoryOpen(true);
  }

  /** Entry for `message` events from the host. */
  receive(data: unknown): void {
    const msg = readHostMessageLazily(data, this.deps.log);
    if (msg) this.handle(msg);
  }

  private handle(msg: HostToWebview): void {
    switch (msg.type) {
      case 'snapshot':
        this.state = msg.state;
        this.older = msg.older ?? 0;
        this.seq = msg.seq;
        this.resyncRequested = false;
        this.fullRedraw = true;
        this.frames.schedule();
        return;
      case 'events':
        if (this.state === null || msg.seq <= this.seq) return; // before the snapshot, or already included
        if (msg.base !== this.seq) {
          // A gap (a dropped post): only a fresh snapshot can put us right.
          if (!this.resyncRequested) this.channel.post({ type: 'ready' });
          this.resyncRequested = true;
          return;
        }
        this.state = reduceAll(this.state, msg.events);
        // New chat: the host's items are cleared too, so none are left to ask for.
        if (msg.events.some((e) => e.type === 'reset')) this.older = 0;
        this.seq = msg.seq;
        this.frames.schedule();
        return;
      case 'olderItems':
        this.receiveOlder(msg.before, msg.items, msg.older);
        return;
      case 'models':
        updateModels(this.layout, this.deps.doc, msg.models, msg.selected, msg.error, msg.checks);
        updateModelBadges(this.layout, this.deps.doc, msg.selectedInfo);
        if (msg.selected) this.ui.patch({ model: msg.selected });
        return;
      case 'hotContext':
        this.showHotContext(msg.view, !!msg.reveal);
        return;
      case 'focus':
        this.composer.focus();
        return;
      case 'prefill':
        this.composer.prefill(msg.text);
        return;
      case 'mode':
        this.modes.show(msg.mode);
        return;
      case 'mentionCandidates':
        this.composer.mentions.setCandidates(msg.query, msg.items);
        return;
      case 'addImage':
        void this.composer.images.addDataUrl(msg.image);
        this.composer.focus();
        return;
      case 'imageOptions':
        this.composer.images.setMaxDimension(msg.maxDimension);
        return;
      case 'mcpOffers':
        this.composer.setMcpOffers(msg);
        return;
      case 'sessions':
        renderHistory(this.layout.historyPanel, { sessions: msg.sessions, currentId: msg.currentId, ...(msg.note !== undefined && { note: msg.note }) }, this.deps.doc);
        if (msg.reveal && !this.historyOpen) this.showHistoryPanel(true);
        return;
    }
  }

  private drawFrame(): void {
    const started = this.deps.timing.now();
    const state = this.state;
    if (state) {
      const previous = this.drawn;
      if (this.fullRedraw || previous === null) {
        this.fullRedraw = false;
        this.conversation.showSnapshot(state, this.older);
      } else if (previous !== state) {
        this.conversation.update(state, this.older);
      }
      if (previous?.review !== state.review || previous === null) renderReview(this.layout.reviewPanel, state.review, this.deps.doc);
      this.composer.observe(previous, state);
      this.composer.setBusy(state.busy);
      this.modes.update(state);
      updateControls(this.layout, state, this.composer.hasDraft);
      if (previous?.busy && !state.busy) this.turnEnded();
      this.drawn = state;
    }
    this.recordFrame(this.deps.timing.now() - started, state?.busy ?? false);
  }

  /**
   * Older items the host sent: they go in front of the state (the same objects in front of what the view
   * shows), so later events apply to the whole list. An answer to a question no longer current is ignored.
   */
  private receiveOlder(before: string, items: ChatViewState['items'], older: number): void {
    const state = this.state;
    if (!state || state.items[0]?.id !== before || items.length === 0) return;
    this.state = { ...state, items: [...items, ...state.items] };
    this.older = older;
    if (this.drawn === null || this.fullRedraw || this.conversation.oldestId !== before) {
      // Not drawn yet, or the view moved on to another list meanwhile: the next frame draws it whole.
      this.fullRedraw = true;
      this.frames.schedule();
      return;
    }
    this.conversation.receivedOlder(items, older);
  }

  private recordFrame(ms: number, busy: boolean): void {
    this.frameCount++;
    if (ms >= SLOW_FRAME_MS) this.slowFrames++;
    this.maxFrameMs = Math.max(this.maxFrameMs, ms);
    if (busy) {
      this.turnFrames++;
      this.turnMaxFrameMs = Math.max(this.turnMaxFrameMs, ms);
    }
    // Read by the e2e suite: how long the slowest frame's DOM work took.
    const root = this.layout.root;
    root.dataset['frames'] = String(this.frameCount);
    root.dataset['lastFrameMs'] = ms.toFixed(1);
    root.dataset['maxFrameMs'] = this.maxFrameMs.toFixed(1);
    root.dataset['slowFrames'] = String(this.slowFrames);
  }

  private turnEnded(): void {
    if (this.turnFrames > 0) this.channel.post({ type: 'perf', name: 'turn-max-frame', ms: this.turnMaxFrameMs, count: this.turnFrames });
    this.turnFrames = 0;
    this.turnMaxFrameMs = 0;
  }

  private snapshotRendered(ms: number, count: number): void {
    const root = this.layout.root;
    root.dataset['snapshotMs'] = ms.toFixed(1);
    root.dataset['snapshotItems'] = String(count);
    this.channel.post({ type: 'perf', name: 'snapshot', ms, count });
    // Saved as the distance from the end (see wireControls): older items are built above on the way there.
    const saved = this.ui.get().scrollTop;
    if (saved !== null) this.conversation.restoreOffsetFromBottom(saved);
  }

  private wireControls(): void {
    const { layout, channel } = this;
    layout.newChat.addEventListener('click', () => channel.post({ type: 'newChat' }));
    layout.refreshModels.addEventListener('click', () => channel.post({ type: 'refreshModels' }));
    layout.modelPicker.addEventListener('change', () => {
      const name = layout.modelPicker.value;
      if (name) channel.post({ type: 'selectModel', name });
    });
    layout.hotContextToggle.addEventListener('click', () => this.setHotContextOpen(!this.hotContextOpen));
    layout.historyToggle.addEventListener('click', () => this.setHistoryOpen(!this.historyOpen));
    layout.historyPanel.addEventListener('click', (e) => this.onHistoryClick(e));
    layout.conversation.addEventListener('click', (e) => this.onConversationClick(e));
    layout.conversation.addEventListener('scroll', () => {
      // The distance from the end, not from the top: only the newest items are built when the view comes back.
      this.ui.patch({ scrollTop: this.conversation.isFollowing ? null : Math.round(this.conversation.offsetFromBottom()) });
    });
    layout.modelError.addEventListener('click', (e) => this.onConversationClick(e));
    layout.reviewPanel.addEventListener('click', (e) => this.onReviewClick(e));
  }

  /** One listener for everything clickable inside rendered content: links, copy buttons, error actions. */
  private onConversationClick(e: Event): void {
    const target = e.target as Element | null;
    if (!target || typeof target.closest !== 'function') return;
    const link = target.closest('a');
    if (link) {
      e.preventDefault();
      const href = link.getAttribute('href');
      if (href && /^https?:\/\//i.test(href)) this.channel.post({ type: 'openLink', url: href });
      return;
    }
    const copy = target.closest('button.copy-code');
    if (copy) {
      const code = copy.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
      this.channel.post({ type: 'copy', text: code });
      copy.textContent = 'Copied';
      this.deps.timing.setTimer(() => (copy.textContent = 'Copy'), 1500);
      return;
    }
    const restore = target.closest('button[data-restore]');
    if (restore) {
      const messageId = Number(restore.getAttribute('data-restore'));
      if (Number.isSafeInteger(messageId) && messageId > 0) this.channel.post({ type: 'restoreTo', messageId });
      return;
    }
    const commandButton = target.closest('button[data-command]');
    if (commandButton) {
      const command = PanelCommandSchema.safeParse(commandButton.getAttribute('data-command'));
      if (command.success) this.runCommand(command.data);
    }
  }

  private onReviewClick(e: Event): void {
    const target = e.target as Element | null;
    const button = target && typeof target.closest === 'function' ? target.closest('button[data-review-action]') : null;
    if (!button) return;
    const action = button.getAttribute('data-review-action');
    const path = button.getAttribute('data-path') ?? undefined;
    if (action !== 'keep' && action !== 'undo' && action !== 'open') return;
    this.channel.post({ type: 'reviewAction', action, ...(path !== undefined && { path }) });
  }

  private runCommand(command: PanelCommand): void {
    this.channel.post({ type: 'runCommand', command });
  }

  private setHistoryOpen(open: boolean): void {
    this.showHistoryPanel(open);
    this.channel.post({ type: 'sessions', open });
  }

  private showHistoryPanel(open: boolean): void {
    this.historyOpen = open;
    this.layout.historyPanel.hidden = !open;
    this.layout.historyToggle.setAttribute('aria-expanded', String(open));
    this.ui.patch({ historyOpen: open });
  }

  private onHistoryClick(e: Event): void {
    const target = e.target as Element | null;
    const button = target && typeof target.closest === 'function' ? target.closest('button[data-session-action]') : null;
    if (!button) return;
    const action = SessionActionSchema.safeParse(button.getAttribute('data-session-action'));
    const id = button.getAttribute('data-session-id');
    if (!action.success || !id) return;
    this.channel.post({ type: 'sessionAction', action: action.data, id });
    // Opening shows the conversation: the list makes room for it.
    if (action.data === 'open') this.setHistoryOpen(false);
  }

  private setHotContextOpen(open: boolean): void {
    this.hotContextOpen = open;
    this.layout.hotContextPanel.hidden = !open;
    this.layout.hotContextToggle.setAttribute('aria-expanded', String(open));
    this.ui.patch({ hotContextOpen: open });
    this.channel.post({ type: 'hotContext', open });
  }

  private showHotContext(view: HotContextView, reveal: boolean): void {
    renderHotContext(this.layout.hotContextPanel, view, this.deps.doc);
    if (reveal && !this.hotContextOpen) {
      this.hotContextOpen = true;
      this.layout.hotContextPanel.hidden = false;
      this.layout.hotContextToggle.setAttribute('aria-expanded', 'true');
      this.ui.patch({ hotContextOpen: true });
    }
  }
}
