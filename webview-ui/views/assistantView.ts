// An assistant message: a collapsible thinking block (plain text, appended in place) above the answer
// (sanitized markdown). While streaming, the markdown of this one message is re-rendered at most every
// few frames, with the interval growing with the render cost so long answers stay cheap.
import type { AssistantItem, ChatItem } from '../../src/shared/protocol';
import { h, setAttr } from '../dom';
import type { ItemView, ViewContext } from './types';

const MIN_INTERVAL_MS = 33;
const MAX_INTERVAL_MS = 300;

export class AssistantView implements ItemView {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private thinkingBlock: HTMLDetailsElement | undefined;
  private thinkingText: Text | undefined;
  private thinkingLabel: HTMLElement | undefined;
  private userToggledThinking = false;
  private item: AssistantItem;
  /** The text currently shown as markdown. */
  private renderedText = '';
  private timer: unknown;
  private lastRenderAt = -Infinity;
  private interval = MIN_INTERVAL_MS;

  constructor(item: AssistantItem, private readonly ctx: ViewContext) {
    this.item = item;
    this.el = h(ctx.doc, 'div', 'message message-assistant');
    this.el.dataset['id'] = item.id;
    this.body = h(ctx.doc, 'div', 'message-body markdown');
    this.el.append(this.body);
    this.apply(item, undefined);
  }

  update(item: ChatItem): void {
    if (item.kind !== 'assistant' || item === this.item) return;
    const previous = this.item;
    this.item = item;
    this.apply(item, previous);
  }

  dispose(): void {
    if (this.timer !== undefined) this.ctx.timing.clearTimer(this.timer);
    this.timer = undefined;
  }

  private apply(item: AssistantItem, previous: AssistantItem | undefined): void {
    setAttr(this.el, 'data-streaming', item.streaming ? 'true' : null);
    if (item.thinking !== (previous?.thinking ?? '')) this.showThinking(item.thinking, previous?.thinking ?? '');
    this.updateThinkingState(item);
    if (item.text !== this.renderedText) {
      if (item.streaming) this.scheduleRender();
      else this.renderNow();
    } else if (!item.streaming && this.timer !== undefined) {
      this.renderNow();
    }
  }

  private showThinking(thinking: string, before: string): void {
    if (!this.thinkingBlock) {
      const doc = this.ctx.doc;
      const details = h(doc, 'details', 'thinking');
      const summary = h(doc, 'summary');
      this.thinkingLabel = h(doc, 'span', 'thinking-label', 'Thinking');
      summary.append(this.thinkingLabel);
      // A click on the summary means the user chose; stop opening/closing it for them.
      summary.addEventListener('click', () => {
        this.userToggledThinking = true;
      });
      const body = h(doc, 'div', 'thinking-body');
      this.thinkingText = doc.createTextNode('');
      body.append(this.thinkingText);
      details.append(summary, body);
      this.el.insertBefore(details, this.body);
      this.thinkingBlock = details;
    }
    // Deltas only ever extend the text: append instead of replacing the node's content.
    if (thinking.startsWith(before) && this.thinkingText!.data === before) this.thinkingText!.appendData(thinking.slice(before.length));
    else this.thinkingText!.data = thinking;
  }

  private updateThinkingState(item: AssistantItem): void {
    if (!this.thinkingBlock || !this.thinkingLabel) return;
    const stillThinking = item.streaming && item.text === '';
    this.thinkingLabel.textContent = stillThinking ? 'Thinking…' : 'Thinking';
    if (!this.userToggledThinking) {
      // Open while this message streams, folded once it is complete (the answer is what stays in view).
      if (this.thinkingBlock.open !== item.streaming) this.thinkingBlock.open = item.streaming;
    }
  }

  private scheduleRender(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastRenderAt + this.interval - this.ctx.timing.now());
    this.timer = this.ctx.timing.setTimer(() => {
      this.timer = undefined;
      this.renderNow();
    }, wait);
  }

  private renderNow(): void {
    if (this.timer !== undefined) this.ctx.timing.clearTimer(this.timer);
    this.timer = undefined;
    const started = this.ctx.timing.now();
    const text = this.item.text;
    this.body.replaceChildren(this.ctx.markdown.render(text));
    this.renderedText = text;
    const finished = this.ctx.timing.now();
    this.lastRenderAt = finished;
    // Spend at most about a quarter of the time re-rendering a growing answer.
    this.interval = Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, (finished - started) * 4));
  }
}
