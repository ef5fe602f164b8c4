// A message the context manager compressed: "[Compressed]" and the text the model now sees, with the original
// (the item's own view) folded away behind "Show original".
import type { ChatItem } from '../../src/shared/protocol';
import { h, setAttr, setText } from '../dom';
import type { ItemView, ViewContext } from './types';

export class CompressedMarkView implements ItemView {
  readonly el: HTMLElement;
  private note: HTMLElement | undefined;
  private text: HTMLElement | undefined;

  constructor(
    private readonly inner: ItemView,
    item: ChatItem,
    private readonly ctx: ViewContext,
  ) {
    this.el = inner.el;
    this.apply(item);
  }

  update(item: ChatItem): void {
    this.inner.update(item);
    this.apply(item);
  }

  dispose(): void {
    this.inner.dispose();
  }

  private apply(item: ChatItem): void {
    const compressed = item.kind === 'user' || item.kind === 'assistant' || item.kind === 'tool' ? item.compressed : undefined;
    if (compressed === undefined) {
      if (this.note) {
        this.note.remove();
        this.note = undefined;
        this.el.classList.remove('is-compressed', 'show-original');
      }
      return;
    }
    if (!this.note) this.build();
    setText(this.text!, compressed.replace(/^\s*\[Compressed\]\s*/, ''));
  }

  private build(): void {
    const doc = this.ctx.doc;
    const note = h(doc, 'div', 'compressed-note');
    const badge = h(doc, 'span', 'compressed-badge', '[Compressed]');
    badge.title = 'The model now sees this shorter version; the original is kept.';
    const text = h(doc, 'div', 'compressed-text');
    const toggle = h(doc, 'button', 'link-button show-original', 'Show original');
    toggle.type = 'button';
    toggle.setAttribute('aria-expanded', 'false');
    toggle.addEventListener('click', () => {
      const open = !this.el.classList.contains('show-original');
      this.el.classList.toggle('show-original', open);
      setAttr(toggle, 'aria-expanded', String(open));
      setText(toggle, open ? 'Hide original' : 'Show original');
    });
    note.append(badge, text, toggle);
    this.el.insertBefore(note, this.el.firstChild);
    this.el.classList.add('is-compressed');
    this.note = note;
    this.text = text;
  }
}
