// The chat's hot context: the tracker of files read and modified and todos (one per conversation), the editor's
// active file and selection, and what the workspace index gave the latest request. "What the model knows" shows it.
import type { AgentEvent, RetrievalEvent } from '../../core/agent/events';
import { ContextTracker, type EditorActivity } from '../../core/workingContext/tracker';
import type { HotContextView } from '../../shared/protocol';
import { hotContextView } from '../chat/hotContextView';

export class ChatHotContext {
  private current = new ContextTracker();
  private off: () => void;
  private editor: EditorActivity = {};
  private lastRetrieval: RetrievalEvent | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly onListenerError: (err: unknown) => void) {
    this.off = this.current.onChange(() => this.changed());
  }

  /** The tracker sessions of this conversation write to. */
  get tracker(): ContextTracker {
    return this.current;
  }

  /** Follows the turn's events: a new request starts without the last one's retrieval. */
  onEvent(event: AgentEvent): void {
    // A turn that retrieves nothing sends no retrieval event.
    if (event.type === 'turn_start' && this.lastRetrieval) this.lastRetrieval = undefined;
    else if (event.type === 'retrieval') this.lastRetrieval = event;
    else return;
    this.changed();
  }

  setEditorActivity(activity: EditorActivity): void {
    this.editor = activity;
    this.current.setEditorActivity(activity);
  }

  /** A new conversation (New Chat, or one opened from the History) starts with an empty tracker. */
  reset(): void {
    this.off();
    this.lastRetrieval = undefined;
    this.current = new ContextTracker();
    this.current.setEditorActivity(this.editor);
    this.off = this.current.onChange(() => this.changed());
    this.changed();
  }

  view(): HotContextView {
    return hotContextView(this.current.snapshot(), this.lastRetrieval);
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.off();
    this.listeners.clear();
  }

  private changed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
