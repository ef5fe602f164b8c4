// Shared shapes of the item views (kept apart from the factory so the views don't import it: no cycles).
import type { ChatItem } from '../../src/shared/protocol';
import type { MarkdownRenderer } from '../markdown';
import type { ViewTiming } from '../timing';

export interface ItemView {
  readonly el: HTMLElement;
  update(item: ChatItem): void;
  dispose(): void;
}

export interface ViewContext {
  doc: Document;
  markdown: MarkdownRenderer;
  timing: ViewTiming;
  /** Problems worth a log line (an item that failed validation); console.warn when absent. */
  log?: (line: string) => void;
}
