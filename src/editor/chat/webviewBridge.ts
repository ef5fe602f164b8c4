// The host end of the webview channel: validates what the webview sends, and streams store changes to it
// in small batches (deltas merged as they arrive, one post per flush). No vscode import, so it runs under node tests.
import type { ChatEvent, HostToWebview, WebviewToHost } from '../../shared/protocol';
import { keyOf } from '../../shared/compressedMarks';
import { MAX_TEXT, parseWebviewMessage, summarizeMessage } from '../../shared/protocol';
import type { ChatStateStore, StoreChange } from './chatStateStore';

/** The part of vscode.Webview the bridge needs. */
export interface WebviewPort {
  postMessage(message: HostToWebview): PromiseLike<boolean>;
}

/** The part of vscode.LogOutputChannel the chat view uses. */
export interface ChatLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface BridgeTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface BridgeOptions {
  /** How long to gather events before posting them (one frame by default). */
  flushMs?: number;
  /** More events than this waiting means the webview is far behind: drop them and send a snapshot instead. */
  maxPending?: number;
  /**
   * A batch waits for the previous one to be delivered (the webview's postMessage promise settles once the
   * editor's renderer took it), but no longer than this: a post that never settles must not stop the stream.
   */
  maxInFlightMs?: number;
  /**
   * A snapshot carries at most this many of the newest items; the webview asks for older ones as the user
   * scrolls up (it builds only the newest few dozen at first anyway).
   */
  snapshotItems?: number;
  timers?: BridgeTimers;
  now?: () => number;
}

/** A merged delta stays well under the protocol's longest text field (MAX_TEXT), however fast the stream. */
const MAX_MERGED_DELTA = MAX_TEXT / 2;

const realTimers: BridgeTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class WebviewBridge {
  private port: WebviewPort | undefined;
  /** The webview said `ready`: it listens and has the snapshot at `sentSeq`. */
  private live = false;
  private sentSeq = 0;
  private pending: ChatEvent[] = [];
  private needSnapshot = false;
  private timer: unknown;
  private unsubscribe: (() => void) | undefined;
  private readonly flushMs: number;
  private readonly maxPending: number;
  private readonly maxInFlightMs: number;
  private readonly timers: BridgeTimers;
  private readonly now: () => number;
  /** When the batch (or snapshot) still being delivered was posted; undefined when none is. */
  private inFlightSince: number | undefined;
  /** The last delivery took longer than a flush interval: the renderer is behind, so batches wait for delivery. */
  private slowDelivery = false;
  /** A flush found the last post still in flight and waits for its delivery. */
  private waiting = false;
  /** Index in the store's items of the oldest item the webview holds (older ones it has not asked for yet). */
  private webviewFrom = 0;
  private readonly snapshotItems: number;

  constructor(
    private readonly store: ChatStateStore,
    private readonly log: ChatLog,
    options: BridgeOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 16;
    this.maxPending = options.maxPending ?? 1000;
    this.maxInFlightMs = options.maxInFlightMs ?? 1000;
    this.snapshotItems = options.snapshotItems ?? 200;
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? (() => performance.now());
  }

  /** Connect a (new) webview. Nothing is streamed until it posts `ready`. */
  attach(port: WebviewPort): void {
    this.detach();
    this.port = port;
    this.unsubscribe = this.store.subscribe((change) => this.onChange(change));
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.port = undefined;
    this.live = false;
    this.pending = [];
    this.needSnapshot = false;
    this.inFlightSince = undefined;
    this.slowDelivery = false;
    this.waiting = false;
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }

  /** A webview is attached and has asked for (and got) the snapshot. */
  get isLive(): boolean {
    return this.live && this.port !== undefined;
  }

  /** Validate a message from the webview. Invalid ones are logged and dropped (undefined). `ready` is answered here. */
  receive(raw: unknown): WebviewToHost | undefined {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`chat view: dropped an invalid message from the webview (${summarizeMessage(raw)}): ${parsed.error}`);
      return undefined;
    }
    if (parsed.message.type === 'ready') this.sendSnapshot();
    if (parsed.message.type === 'olderItems') this.sendOlder(parsed.message.before, parsed.message.count);
    return parsed.message;
  }

  /** Post any other host message (models, hot context, focus). Resolves false when no webview is listening. */
  async post(message: HostToWebview): Promise<boolean> {
    const port = this.port;
    if (!port) return false;
    try {
      const delivered = await port.postMessage(message);
      if (!delivered) this.live = false; // hidden or disposed: it will ask for a snapshot when it comes back
      return delivered;
    } catch (err) {
      this.log.warn(`chat view: posting ${message.type} failed: ${err instanceof Error ? err.message : String(err)}`);
      this.live = false;
      return false;
    }
  }

  sendSnapshot(): void {
    if (!this.port) return;
    this.live = true;
    this.pending = [];
    this.needSnapshot = false;
    const { seq, state } = this.store.snapshot();
    this.sentSeq = seq;
    // A 10,000-message session was a 1.6 MB post that the editor took most of a second to carry to the
    // webview; its newest items are what the user sees first.
    const from = Math.max(0, state.items.length - this.snapshotItems);
    this.webviewFrom = from;
    if (from === 0) this.postStream({ type: 'snapshot', seq, state });
    else this.postStream({ type: 'snapshot', seq, state: { ...state, items: state.items.slice(from) }, older: from });
  }

  /**
   * The items just before `before`, which must be the oldest item the webview holds. They are the store's
   * current items: any event still pending for them changes them the same way again when it arrives.
   */
  private sendOlder(before: string, count: number): void {
    if (!this.live || this.needSnapshot) return; // a snapshot is on its way and replaces everything
    const items = this.store.state.items;
    if (items[this.webviewFrom]?.id !== before) return; // the webview is behind a change that replaced its items
    const start = Math.max(0, this.webviewFrom - count);
    const older = items.slice(start, this.webviewFrom);
    if (older.length === 0) return;
    this.webviewFrom = start;
    void this.post({ type: 'olderItems', before, items: older, older: start });
  }

  private onChange(change: StoreChange): void {
    if (!this.live) return; // the snapshot on `ready` will carry it
    if (!change.event) {
      this.needSnapshot = true;
    } else if (!this.needSnapshot) {
      // New chat: the webview's items are cleared like the store's, so it holds all of them (none).
      if (change.event.type === 'reset') this.webviewFrom = 0;
      this.enqueue(change.event);
      if (this.pending.length > this.maxPending) {
        this.pending = [];
        this.needSnapshot = true;
      }
    }
    if (this.timer === undefined) this.timer = this.timers.set(() => this.flush(), this.flushMs);
  }

  /**
   * A text (or thinking) delta right after another one joins it: the reducer treats two deltas exactly like
   * their concatenation, so the webview ends in the same state from one event per flush. Merged here, as each
   * arrives, the backlog limit counts distinct events, so a fast stream (thousands of deltas between two
   * flushes) never turns into a whole-state snapshot of a long conversation. Order is kept: only a delta
   * directly after one of the same kind is merged.
   */
  private enqueue(event: ChatEvent): void {
    const last = this.pending[this.pending.length - 1];
    if (last && (event.type === 'text' || event.type === 'thinking') && last.type === event.type && last.text.length + event.text.length <= MAX_MERGED_DELTA) {
      this.pending[this.pending.length - 1] = { type: event.type, text: last.text + event.text };
    } else {
      this.pending.push(event);
    }
  }

  /**
   * Posts a snapshot or a batch and notes it as in flight until the editor took it (VS Code settles
   * postMessage once its renderer handled the message). Each post costs that renderer, shared by the
   * workbench and the webview, about the same; under load it took fewer than one per 16 ms and a stream fell
   * seconds behind. Once a delivery is slower than a flush interval, batches wait for the one before, so they
   * grow to what the renderer can take; nothing is lost or reordered, only merged.
   */
  private postStream(message: HostToWebview): void {
    const port = this.port;
    const since = this.now();
    this.inFlightSince = since;
    void this.post(message).finally(() => {
      // A newer post (or a detach, or another webview) may have taken over meanwhile.
      if (this.inFlightSince !== since || this.port !== port) return;
      this.inFlightSince = undefined;
      this.slowDelivery = this.now() - since > this.flushMs;
      if (this.waiting) {
        // A flush is waiting for this delivery: it goes now, instead of at its backstop.
        this.waiting = false;
        if (this.timer !== undefined) this.timers.clear(this.timer);
        this.timer = this.timers.set(() => this.flush(), 0);
      }
    });
  }

  /**
   * A compression mark names its item by kind, text and occurrence among all items; the webview counts among
   * the ones it holds. Items it has not asked for yet arrive marked, so a mark for one of those is left out.
   * Taken at flush time: the webview's oldest item is then the one the posts so far leave it with.
   */
  private forWebview(event: ChatEvent): ChatEvent[] {
    if (event.type !== 'compressed') return [event];
    const items = this.store.state.items;
    let before = 0;
    for (let i = 0; i < this.webviewFrom; i++) if (keyOf(items[i]!, event.target) === event.key) before++;
    if (event.occurrence < before) return [];
    return [{ ...event, occurrence: event.occurrence - before }];
  }

  private flush(): void {
    this.timer = undefined;
    if (!this.live) return;
    if (this.inFlightSince !== undefined && this.slowDelivery) {
      const waited = this.now() - this.inFlightSince;
      // Delivery schedules the next flush; the timer is only the backstop for a post that never settles.
      if (waited < this.maxInFlightMs) {
        this.waiting = true;
        this.timer = this.timers.set(() => this.flush(), this.maxInFlightMs - waited);
        return;
      }
    }
    this.waiting = false;
    if (this.needSnapshot) {
      this.sendSnapshot();
      return;
    }
    if (this.pending.length === 0) return;
    const events = this.webviewFrom > 0 ? this.pending.flatMap((e) => this.forWebview(e)) : this.pending;
    this.pending = [];
    const base = this.sentSeq;
    this.sentSeq = this.store.seq;
    this.postStream({ type: 'events', base, seq: this.sentSeq, events });
  }
}
