// The message list. A snapshot is rendered newest-first in chunks (the visible end appears at once, older
// items are prepended between frames), and later states only touch the items the reducer replaced.
import type { ChatItem, ChatViewState } from '../src/shared/protocol';
import { h, setHidden } from './dom';
import { createItemView, type ItemView, type ViewContext } from './views/itemView';

export interface ConversationOptions {
  /** Items rendered synchronously from the end of a snapshot. */
  firstChunk?: number;
  /** Older items rendered per later task. */
  chunk?: number;
  /** Called when a snapshot is fully in the DOM. */
  onSnapshotRendered?: (ms: number, items: number) => void;
}

/** Within this many pixels of the bottom counts as "following the stream". */
const STICK_PX = 48;

export class ConversationView {
  readonly list: HTMLElement;
  private readonly empty: HTMLElement;
  private views: Array<ItemView | undefined> = [];
  private items: readonly ChatItem[] = [];
  /** Items below this index are not in the DOM yet (snapshot still filling in). */
  private renderedFrom = 0;
  private generation = 0;
  /**
   * Following the stream at the bottom. Kept from scroll events rather than measured each frame, so a frame
   * forces at most one layout (the scroll to the bottom).
   */
  private following = true;
  private readonly firstChunk: number;
  private readonly chunk: number;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly ctx: ViewContext,
    private readonly options: ConversationOptions = {},
  ) {
    this.firstChunk = options.firstChunk ?? 60;
    this.chunk = options.chunk ?? 150;
    this.empty = h(ctx.doc, 'div', 'empty-state');
    this.empty.append(
      h(ctx.doc, 'p', 'empty-title', 'Ask Local Harness to change, fix or explain code in this workspace.'),
      h(ctx.doc, 'p', 'empty-hint', 'It reads and edits files with your approval. Enter sends, Shift+Enter adds a line.'),
    );
    this.list = h(ctx.doc, 'div', 'items');
    scroller.append(this.empty, this.list);
    scroller.addEventListener('scroll', () => {
      this.following = this.atBottom();
    });
  }

  get isFollowing(): boolean {
    return this.following;
  }

  get renderedCount(): number {
    return this.views.length - this.renderedFrom;
  }

  /** Replace everything with `state`: the newest items now, older ones in later tasks. */
  showSnapshot(state: ChatViewState): void {
    const started = this.ctx.timing.now();
    const generation = ++this.generation;
    for (const v of this.views) v?.dispose();
    this.items = state.items;
    this.views = new Array<ItemView | undefined>(state.items.length);
    this.list.replaceChildren();
    setHidden(this.empty, state.items.length > 0);
    const n = state.items.length;
    this.renderedFrom = n;
    this.renderOlder(this.firstChunk);
    this.following = true;
    this.scrollToBottom();
    const step = () => {
      if (generation !== this.generation) return; // a newer snapshot replaced this one
      if (this.renderedFrom === 0) {
        this.options.onSnapshotRendered?.(this.ctx.timing.now() - started, n);
        return;
      }
      const before = this.scroller.scrollHeight;
      this.renderOlder(this.chunk);
      // Keep what the user looks at in place while older items appear above it.
      if (this.following) this.scrollToBottom();
      else this.scroller.scrollTop += this.scroller.scrollHeight - before;
      this.ctx.timing.setTimer(step, 0);
    };
    // Older chunks wait for later tasks so input and paint get in between.
    this.ctx.timing.setTimer(step, 0);
  }

  /** Bring the DOM from the previous state to `state`, touching only replaced or new items. */
  update(state: ChatViewState): void {
    const prev = this.items;
    const next = state.items;
    const reshaped = next.length < prev.length || (prev.length > 0 && next.length > 0 && next[0]!.id !== prev[0]!.id);
    if (reshaped) {
      this.showSnapshot(state);
      return;
    }
    this.items = next;
    for (let i = this.renderedFrom; i < prev.length; i++) {
      if (prev[i] === next[i]) continue;
      if (prev[i]!.id !== next[i]!.id) {
        // Not an append-only change: the cheap path does not apply.
        this.showSnapshot(state);
        return;
      }
      this.views[i]!.update(next[i]!);
    }
    if (next.length > prev.length) {
      const fragment = this.ctx.doc.createDocumentFragment();
      for (let i = prev.length; i < next.length; i++) {
        const view = createItemView(next[i]!, this.ctx);
        this.views[i] = view;
        fragment.append(view.el);
      }
      this.list.append(fragment);
    }
    setHidden(this.empty, next.length > 0);
    if (this.following) this.scrollToBottom();
  }

  atBottom(): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight <= STICK_PX;
  }

  scrollToBottom(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  private renderOlder(count: number): void {
    const end = this.renderedFrom;
    const start = Math.max(0, end - count);
    if (start === end) return;
    const fragment = this.ctx.doc.createDocumentFragment();
    for (let i = start; i < end; i++) {
      const view = createItemView(this.items[i]!, this.ctx);
      this.views[i] = view;
      fragment.append(view.el);
    }
    this.list.insertBefore(fragment, this.list.firstChild);
    this.renderedFrom = start;
  }
}
