// The context chips above the message box: file name and lines, the full path on hover, and a × that asks the
// host to remove the chip (the host owns them; the next state redraws the row).
import type { Attachment } from '../src/shared/protocol';
import { attachmentLabel } from '../src/shared/attachedMessage';
import { h } from './dom';

export class AttachmentChips {
  readonly el: HTMLElement;
  private shown: readonly Attachment[] | undefined;

  constructor(
    private readonly doc: Document,
    onRemove: (id: string) => void,
  ) {
    this.el = h(doc, 'div', 'attachment-chips');
    this.el.setAttribute('role', 'list');
    this.el.setAttribute('aria-label', 'Attached code');
    this.el.hidden = true;
    // One listener for every chip's × (chips are redrawn as the host's state changes).
    this.el.addEventListener('click', (e) => {
      const target = e.target as Element | null;
      const button = target && typeof target.closest === 'function' ? target.closest('button[data-attachment-id]') : null;
      const id = button?.getAttribute('data-attachment-id');
      if (id) onRemove(id);
    });
  }

  /** Redraws only when the host's list changed (the reducer keeps the same array otherwise). */
  render(attachments: readonly Attachment[] | undefined): void {
    if (attachments === this.shown) return;
    this.shown = attachments;
    const list = attachments ?? [];
    this.el.replaceChildren(...list.map((a) => this.chip(a)));
    this.el.hidden = list.length === 0;
  }

  private chip(attachment: Attachment): HTMLElement {
    const label = attachmentLabel(attachment);
    const chip = h(this.doc, 'span', 'attachment-chip');
    chip.setAttribute('role', 'listitem');
    chip.title = attachment.startLine === undefined ? `${label} (whole file)` : label;
    chip.dataset['path'] = attachment.path;
    const name = attachment.path.split('/').pop() ?? attachment.path;
    const lines = attachment.startLine === undefined ? '' : label.slice(attachment.path.length);
    const text = h(this.doc, 'span', 'attachment-label', `${name}${lines}`);
    const remove = h(this.doc, 'button', 'attachment-remove', '×');
    remove.type = 'button';
    remove.setAttribute('aria-label', `Remove ${label}`);
    remove.title = `Remove ${label}`;
    remove.dataset['attachmentId'] = attachment.id;
    chip.append(text, remove);
    return chip;
  }
}
