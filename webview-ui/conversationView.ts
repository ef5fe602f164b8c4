// The message list. Only the newest items of a snapshot are built (enough to fill the view and a margin);
// older ones are built when the user scrolls near the top, so opening a 10,000-message session parses the
// markdown of a few dozen. A long conversation's snapshot carries only its newest items: the older ones are
// asked from the host (onNeedOlder) when the user scrolls past the oldest one held. Later states only touch
// the items the reducer replaced.
import type { ChatItem, ChatViewState } from '../src/shared/protocol';
import { h, setHidden } from './dom';
import { ItemGroups } from './views/itemGroups';
import { createItemView, type ItemView, type ViewContext } from './views/itemView';

export interface ConversationOptions {
  /** Items built synchronously from the end of a snapshot. */
  firstChunk?: number;
  /** Older items built each time the user nears the top. */
  chunk?: number;
  /** Called when a snapshot's visible end is in the DOM (older items are built on demand). */
  onSnapshotRendered?: (ms: number, items: number) => void;
  /** Every item held is built and the host has older ones: ask it for those before item `before`. */
  onNeedOlder?: (before: string) => void;
}

/** Within this many pixels of the bottom counts as "following the stream". */
const STICK_PX = 48;
/** Older items are built while fewer than this many pixels of built content lie above the viewport. */
const TOP_MARGIN_PX = 1500;

export class ConversationView {
  readonly list: HTMLElement;
  private readonly empty: HTMLElement;
  /** Just above the list: seen (within the margin) means older items should be built. */
  private readonly sentinel: HTMLElement;
  private readonly observer: IntersectionObserver | undefined;
  private readonly groups: ItemGroups;
  private views: Array<ItemView | undefined> = [];
  private items: readonly ChatItem[] = [];
  /** Items below this index are not built yet: they wait for the user to scroll up. */
  private renderedFrom = 0;
  /** Items the host holds before `items[0]`: not received yet. Item i's position in the conversation is base + i. */
  private base = 0;
  /** The oldest item held when older ones were last asked for (asked once until they come). */
  private olderAskedBefore: string | undefined;
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
    this.chunk = options.chunk ?? 60;
    this.empty = h(ctx.doc, 'div', 'empty-state');
    this.empty.append(
      h(ctx.doc, 'p', 'empty-title', 'Ask Local Harness to change, fix or explain code in this workspace.'),
      h(ctx.doc, 'p', 'empty-hint', 'It reads and edits files with your approval. Enter sends, Shift+Enter adds a line.'),
      setupCheckOffer(ctx.doc),
    );
    this.sentinel = h(ctx.doc, 'div', 'older-sentinel');
    this.sentinel.setAttribute('aria-hidden', 'true');
    this.list = h(ctx.doc, 'div', 'items');
    this.groups = new ItemGroups(ctx.doc, this.list);
    scroller.append(this.empty, this.sentinel, this.list);
    // The view stays in place while older items are built above by moving scrollTop itself (style.css turns
    // off the browser's own scroll anchoring, which would move it twice).
    scroller.addEventListener('scroll', () => {
      this.following = this.atBottom();
      this.buildOlderIfNearTop();
    });
    // The sentinel catches what scroll events cannot: built content too short to scroll at all.
    const IO = ctx.doc.defaultView?.IntersectionObserver;
    this.observer = IO
      ? new IO((entries) => entries.some((e) => e.isIntersecting) && this.buildOlderFromSentinel(), {
          root: scroller,
          rootMargin: `${TOP_MARGIN_PX}px 0px 0px 0px`,
        })
      : undefined;
    this.observer?.observe(this.sentinel);
    this.publish();
  }

  get isFollowing(): boolean {
    return this.following;
  }

  get renderedCount(): number {
    return this.views.length - this.renderedFrom;
  }

  /** The oldest item held. */
  get oldestId(): string | undefined {
    return this.items[0]?.id;
  }

  /** Items older than every built one (not in the DOM until scrolled to), whether received or not. */
  get unbuiltCount(): number {
    return this.base + this.renderedFrom;
  }

  /**
   * Replace everything with `state`: the newest items now, older ones when scrolled to. `older`: how many
   * items the host holds before `state.items[0]`.
   */
  showSnapshot(state: ChatViewState, older = 0): void {
    const started = this.ctx.timing.now();
    for (const v of this.views) v?.dispose();
    this.items = state.items;
    this.base = older;
    this.olderAskedBefore = undefined;
    this.views = new Array<ItemView | undefined>(state.items.length);
    this.groups.clear();
    setHidden(this.empty, state.items.length > 0);
    this.renderedFrom = state.items.length;
    this.buildOlder(this.firstChunk);
    this.following = true;
    this.scrollToBottom();
    this.options.onSnapshotRendered?.(this.ctx.timing.now() - started, older + state.items.length);
    // A fresh look at the sentinel: the first chunk may not fill the view.
    this.recheckSentinel();
  }

  /**
   * Items the host sent from before the oldest one held (`items`, oldest first; `older` more precede them).
   * Positions of everything held stay as they are, so nothing built moves between groups.
   */
  receivedOlder(items: readonly ChatItem[], older: number): void {
    this.items = [...items, ...this.items];
    this.views = [...new Array<ItemView | undefined>(items.length), ...this.views];
    this.renderedFrom += items.length;
    this.base = older;
    this.olderAskedBefore = undefined;
    this.publish();
    this.buildOlderIfNearTop();
    this.recheckSentinel();
  }

  /** Bring the DOM from the previous state to `state`, touching only replaced or new items. */
  update(state: ChatViewState, older = this.base): void {
    const prev = this.items;
    const next = state.items;
    const reshaped = next.length < prev.length || (prev.length > 0 && next.length > 0 && next[0]!.id !== prev[0]!.id);
    if (reshaped) {
      this.showSnapshot(state, older);
      return;
    }
    this.items = next;
    // Built items only: the unbuilt ones will be made from `this.items` when scrolled to.
    for (let i = this.renderedFrom; i < prev.length; i++) {
      if (prev[i] === next[i]) continue;
      if (prev[i]!.id !== next[i]!.id) {
        // Not an append-only change: the cheap path does not apply.
        this.showSnapshot(state);
        return;
      }
      this.views[i]!.update(next[i]!);
    }
    for (let i = prev.length; i < next.length; i++) {
      const view = createItemView(next[i]!, this.ctx);
      this.views[i] = view;
      this.groups.append(this.base + i, view.el);
    }
    setHidden(this.empty, next.length > 0);
    if (this.following) this.scrollToBottom();
  }

  atBottom(): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight <= STICK_PX;
  }

  /** One layout read and one write; called from the frame callback, so once per frame at most. */
  scrollToBottom(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** Distance of the viewport's top from the end of the content (stable while older items are built above). */
  offsetFromBottom(): number {
    return this.scroller.scrollHeight - this.scroller.scrollTop;
  }

  /** Scroll to a position saved with offsetFromBottom(), building older items until it exists. */
  restoreOffsetFromBottom(offset: number): void {
    const s = this.scroller;
    while (this.renderedFrom > 0 && s.scrollHeight < offset + s.clientHeight) this.buildOlder(this.chunk);
    s.scrollTop = Math.max(0, s.scrollHeight - offset);
    this.following = this.atBottom();
  }

  /**
   * Build the next older chunk, keeping what the user looks at in place. Returns false when every item held
   * is built (then older ones are asked from the host, if it has any).
   */
  buildOlderChunk(): boolean {
    if (this.renderedFrom === 0) {
      this.askForOlder();
      return false;
    }
    const s = this.scroller;
    const before = s.scrollHeight;
    const top = s.scrollTop;
    this.buildOlder(this.chunk);
    s.scrollTop = top + (s.scrollHeight - before);
    return true;
  }

  private buildOlderIfNearTop(): void {
    if (this.unbuiltCount > 0 && this.scroller.scrollTop < TOP_MARGIN_PX) this.buildOlderChunk();
  }

  private askForOlder(): void {
    const oldest = this.items[0];
    if (this.base === 0 || !oldest || this.olderAskedBefore === oldest.id) return;
    this.olderAskedBefore = oldest.id;
    this.options.onNeedOlder?.(oldest.id);
  }

  private buildOlderFromSentinel(): void {
    if (!this.buildOlderChunk()) return;
    this.recheckSentinel();
  }

  /** Observing again reports the sentinel's current state: still in range means build more. */
  private recheckSentinel(): void {
    if (!this.observer || this.unbuiltCount === 0) return;
    this.observer.unobserve(this.sentinel);
    this.observer.observe(this.sentinel);
  }

  private buildOlder(count: number): void {
    const end = this.renderedFrom;
    const start = Math.max(0, end - count);
    if (start === end) return;
    const els: HTMLElement[] = [];
    for (let i = start; i < end; i++) {
      const view = createItemView(this.items[i]!, this.ctx);
      this.views[i] = view;
      els.push(view.el);
    }
    this.groups.prepend(this.base + start, els);
    this.renderedFrom = start;
    this.publish();
  }

  /** For tests and tools: how many older items wait to be built (received or not). */
  private publish(): void {
    this.list.dataset['unbuilt'] = String(this.unbuiltCount);
  }
}

/** First run: find out whether the model and the server fit before the first task (runs only when clicked). */
function setupCheckOffer(doc: Document): HTMLElement {
  const p = h(doc, 'p', 'empty-hint', 'New model or server? See what they can do before the first task: ');
  // Clicks are handled by delegation on the conversation (data-command).
  const button = h(doc, 'button', 'secondary', 'Check Model Setup');
  button.type = 'button';
  button.dataset['command'] = 'checkSetup';
  button.title = 'Sends a handful of short requests to the model server (it asks first)';
  p.append(button);
  return p;
}
