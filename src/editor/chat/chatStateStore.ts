// The host's authoritative chat view state. Core AgentEvents go in; every change is numbered (seq) and
// announced to subscribers (the webview bridge, the status bar). No vscode import: unit-testable in node.
import type { AgentEvent } from '../../core/agent/events';
import type { ChatMessage } from '../../core/messages';
import type { Attachment, ChatEvent, ChatViewState, ErrorAction } from '../../shared/protocol';
import { initialChatState, reduceChatInPlace } from '../../shared/chatState';
import { agentEventToChatEvents } from './agentEventMapping';
import { itemsFromHistory } from './historyItems';

/** `event` is absent when the state was replaced wholesale (load): subscribers must resend a snapshot. */
export interface StoreChange {
  seq: number;
  event?: ChatEvent;
  state: ChatViewState;
}

export type StoreListener = (change: StoreChange) => void;

export class ChatStateStore {
  private current: ChatViewState;
  private seqNo = 0;
  private readonly listeners = new Set<StoreListener>();

  constructor(options: { contextSize?: number | null } = {}) {
    this.current = initialChatState(options.contextSize ?? null);
  }

  get state(): ChatViewState {
    return this.current;
  }

  get seq(): number {
    return this.seqNo;
  }

  snapshot(): { seq: number; state: ChatViewState } {
    return { seq: this.seqNo, state: this.current };
  }

  /** Subscribe this to the agent's EventBus: `bus.on((e) => store.applyAgentEvent(e))`. */
  applyAgentEvent(event: AgentEvent): void {
    for (const e of agentEventToChatEvents(event)) this.dispatch(e);
  }

  /**
   * The store is the only owner of its items array: a streamed delta replaces the last item in place (O(1) at
   * any conversation length). A state read from `state`, `snapshot()` or a change is therefore current until
   * the next dispatch; keep a copy (posting to the webview serializes it) to hold on to it.
   */
  dispatch(event: ChatEvent): void {
    this.current = reduceChatInPlace(this.current, event);
    this.seqNo++;
    this.announce({ seq: this.seqNo, event, state: this.current });
  }

  reset(): void {
    this.dispatch({ type: 'reset' });
  }

  /** A display-only line in the panel; never part of the model's history. */
  notice(text: string): void {
    this.dispatch({ type: 'notice', text });
  }

  error(text: string, actions: ErrorAction[] = ['showLogs']): void {
    this.dispatch({ type: 'error', text, actions });
  }

  /** A context chip for the next message (see src/vscode/codeToChat). */
  addAttachment(attachment: Attachment): void {
    this.dispatch({ type: 'attachment_add', attachment });
  }

  removeAttachment(id: string): void {
    if (this.current.attachments?.some((a) => a.id === id)) this.dispatch({ type: 'attachment_remove', id });
  }

  get attachments(): readonly Attachment[] {
    return this.current.attachments ?? [];
  }

  setContextLimit(available: number | null): void {
    if (available === this.current.context.available) return;
    this.dispatch({ type: 'context_limit', available: available === null ? null : Math.max(0, Math.round(available)) });
  }

  /** Show a restored conversation (e.g. from persistence). Subscribers get a change without `event`. */
  load(history: readonly ChatMessage[], notes?: ReadonlyMap<number, string>, turnIds?: ReadonlySet<number>): void {
    const fresh = initialChatState(this.current.context.available);
    const { items, nextId } = itemsFromHistory(history, this.current.nextId, notes, turnIds);
    this.current = { ...fresh, items, nextId, ...(this.current.attachments && { attachments: this.current.attachments }) };
    this.seqNo++;
    this.announce({ seq: this.seqNo, state: this.current });
  }

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private announce(change: StoreChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        // A broken subscriber (a disposed webview) must not stop the others or the agent.
        console.error('[localharness] chat store listener failed:', err);
      }
    }
  }
}
