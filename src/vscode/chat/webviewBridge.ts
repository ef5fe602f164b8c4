// The host end of the webview channel: validates what the webview sends, and streams store changes to it
// in small batches (merged deltas, one post per flush). No vscode import, so it runs under node tests.
import type { ChatEvent, HostToWebview, WebviewToHost } from '../../shared/protocol';
import { parseWebviewMessage, summarizeMessage } from '../../shared/protocol';
import { coalesceEvents } from '../../shared/chatState';
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
  timers?: BridgeTimers;
}

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
  private readonly timers: BridgeTimers;

  constructor(
    private readonly store: ChatStateStore,
    private readonly log: ChatLog,
    options: BridgeOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 16;
    this.maxPending = options.maxPending ?? 1000;
    this.timers = options.timers ?? realTimers;
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
    void this.post({ type: 'snapshot', seq, state });
  }

  private onChange(change: StoreChange): void {
    if (!this.live) return; // the snapshot on `ready` will carry it
    if (!change.event) {
      this.needSnapshot = true;
    } else if (!this.needSnapshot) {
      this.pending.push(change.event);
      if (this.pending.length > this.maxPending) {
        this.pending = [];
        this.needSnapshot = true;
      }
    }
    if (this.timer === undefined) this.timer = this.timers.set(() => this.flush(), this.flushMs);
  }

  private flush(): void {
    this.timer = undefined;
    if (!this.live) return;
    if (this.needSnapshot) {
      this.sendSnapshot();
      return;
    }
    if (this.pending.length === 0) return;
    const events = coalesceEvents(this.pending);
    this.pending = [];
    const base = this.sentSeq;
    this.sentSeq = this.store.seq;
    void this.post({ type: 'events', base, seq: this.sentSeq, events });
  }
}
