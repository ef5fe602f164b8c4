// The model's view of a history: compressed copies stand in for originals, evicted messages are left out and
// the running summary opens the first message left in view (never the system prompt: that stays byte-identical
// so the server's prompt cache keeps the system prompt and the tools across a compression; the layout is
// src/core/prompt/requestLayout.ts). The history itself is never changed, so the originals stay
// available for the panel and for persistence (each replacement links back to the message it stands for).
import type { ChatMessage } from '../messages';
import { compressedRequest, openedBy } from '../prompt/requestLayout';
import { isCompressed } from './marker';
import { withoutImages } from '../images/imageText';
import { RunningSummary, isNudge, type SummaryState } from './summary';

/** 'index': an indexed file's content replaced by its index summary (indexSummaries.ts). */
export type ReplacementMethod = 'llm' | 'fallback' | 'index';

export interface Replacement {
  /** History index of the original. */
  index: number;
  original: ChatMessage;
  compressed: ChatMessage;
  method: ReplacementMethod;
}

/** What must survive a restart besides the messages: the eviction point and the summary. */
export interface ContextState {
  /** History messages before this index left the prompt (the latest user message among them may be pinned). */
  evictedThrough: number;
  /** Fingerprints of the last evicted message (original and as last seen), to notice a different history. */
  evictedCheck?: string[];
  summary?: SummaryState;
}

export class HistoryView {
  private readonly replacements = new Map<number, Replacement>();
  private readonly originals = new WeakMap<ChatMessage, ChatMessage>();
  private evicted = 0;
  private evictedCheck: string[] = [];
  summary: RunningSummary;
  private headCache: { base: ChatMessage; text: string; built: ChatMessage } | undefined;

  constructor(state?: ContextState) {
    this.summary = RunningSummary.from(state?.summary);
    if (state && state.evictedThrough > 0) {
      this.evicted = state.evictedThrough;
      this.evictedCheck = [...(state.evictedCheck ?? [])];
    }
  }

  get evictedThrough(): number {
    return this.evicted;
  }

  /** Drops what no longer matches the history it is applied to (another session, a rewritten message). */
  reconcile(history: readonly ChatMessage[]): void {
    if (this.evicted > 0) {
      const last = history[this.evicted - 1];
      if (!last || (this.evictedCheck.length > 0 && !this.evictedCheck.includes(fingerprint(last)))) this.reset();
    }
    for (const [i, r] of this.replacements) {
      const m = history[i];
      if (m !== r.original && (!m || fingerprint(m) !== fingerprint(r.original))) this.replacements.delete(i);
    }
  }

  reset(): void {
    this.replacements.clear();
    this.evicted = 0;
    this.evictedCheck = [];
    this.summary = new RunningSummary();
  }

  current(history: readonly ChatMessage[], index: number): ChatMessage {
    return this.replacements.get(index)?.compressed ?? history[index]!;
  }

  /** Compressed here, or arrived compressed (a session reloaded from its store). */
  isCompressed(history: readonly ChatMessage[], index: number): boolean {
    return this.replacements.has(index) || isCompressed(history[index]!);
  }

  replace(history: readonly ChatMessage[], index: number, compressedCopy: ChatMessage, method: ReplacementMethod): Replacement {
    const original = history[index]!;
    // An image is never sent again once its message is compressed: a line naming it stands in.
    const compressed = original.images?.length && !compressedCopy.images ? withoutImages({ ...compressedCopy, images: original.images }) : withoutImages(compressedCopy);
    const r: Replacement = { index, original, compressed, method };
    this.replacements.set(index, r);
    this.originals.set(compressed, original);
    return r;
  }

  /** The original a compressed message in the view stands for (so the panel can expand it). */
  originalOf(message: ChatMessage): ChatMessage | undefined {
    return this.originals.get(message);
  }

  replacementsList(): Replacement[] {
    return [...this.replacements.values()].sort((a, b) => a.index - b.index);
  }

  evictThrough(history: readonly ChatMessage[], end: number): void {
    if (end <= this.evicted) return;
    const last = end - 1;
    this.evictedCheck = [...new Set([fingerprint(history[last]!), fingerprint(this.current(history, last))])];
    this.evicted = end;
  }

  /**
   * When eviction leaves the view starting with something other than a user message, the latest evicted user
   * message stays: chat templates expect a user message first, and it is usually the task being worked on.
   */
  pinnedUser(history: readonly ChatMessage[]): number | undefined {
    if (this.evicted === 0 || this.evicted >= history.length || history[this.evicted]!.role === 'user') return undefined;
    // Asked once per message by inView(): remember the answer for this history and eviction point.
    const c = this.pinnedCache;
    if (c && c.history === history && c.evicted === this.evicted) return c.index;
    const index = this.findPinned(history);
    this.pinnedCache = { history, evicted: this.evicted, index };
    return index;
  }
  private pinnedCache: { history: readonly ChatMessage[]; evicted: number; index: number | undefined } | undefined;

  private findPinned(history: readonly ChatMessage[]): number | undefined {
    // The agent's own nudges ("continue", "call task_completion") are not the task: pin the user's request.
    let nudge: number | undefined;
    for (let i = this.evicted - 1; i >= 0; i--) {
      if (history[i]!.role !== 'user') continue;
      if (!isNudge(history[i]!.content)) return i;
      nudge ??= i;
    }
    return nudge;
  }

  inView(history: readonly ChatMessage[], index: number): boolean {
    return index >= this.evicted || index === this.pinnedUser(history);
  }

  /** The messages to send: system, the pinned user message, then everything not evicted; the summary opens the first. */
  build(system: ChatMessage | undefined, history: readonly ChatMessage[], summaryMaxTokens: number): ChatMessage[] {
    const inView: ChatMessage[] = [];
    const pinned = this.pinnedUser(history);
    // The pinned request outlived its round's eviction: its words stay, its images are gone (named in a line).
    if (pinned !== undefined) inView.push(this.pinnedCopy(this.current(history, pinned)));
    for (let i = this.evicted; i < history.length; i++) inView.push(this.current(history, i));
    return compressedRequest(system, inView, (first) => this.withSummary(first, summaryMaxTokens));
  }

  private pinnedCopy(message: ChatMessage): ChatMessage {
    if (!message.images?.length) return message;
    if (this.pinnedImageCache?.base !== message) this.pinnedImageCache = { base: message, built: withoutImages(message) };
    return this.pinnedImageCache.built;
  }
  private pinnedImageCache: { base: ChatMessage; built: ChatMessage } | undefined;

  /** A copy to try a step on (how far eviction could go, headroom.ts) without changing this view. */
  clone(): HistoryView {
    const copy = new HistoryView(this.toState());
    for (const [i, r] of this.replacements) copy.replacements.set(i, r);
    return copy;
  }

  toState(): ContextState {
    const state: ContextState = { evictedThrough: this.evicted };
    if (this.evictedCheck.length) state.evictedCheck = [...this.evictedCheck];
    if (!this.summary.empty) state.summary = this.summary.toState();
    return state;
  }

  /** The first message in view, opened by the running summary of what was evicted before it (same object while unchanged). */
  private withSummary(first: ChatMessage, maxTokens: number): ChatMessage {
    const text = this.summary.render(maxTokens);
    if (!text) return first;
    if (this.headCache && this.headCache.base === first && this.headCache.text === text) return this.headCache.built;
    const built = openedBy(first, text);
    this.headCache = { base: first, text, built };
    this.originals.set(built, this.originals.get(first) ?? first);
    return built;
  }
}

/** Role, call id, length and an FNV-1a hash of the content: cheap, and stable across a reload. */
export function fingerprint(m: ChatMessage): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < m.content.length; i++) {
    h ^= m.content.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${m.role}:${m.toolCallId ?? ''}:${m.content.length}:${(h >>> 0).toString(36)}`;
}
