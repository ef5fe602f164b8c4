// The context chips above the message box: file name and lines (or an MCP resource's name), the full path (or
// server:uri) on hover, and a × that asks the host to remove the chip (the host owns them; the next state
// redraws the row).
import { isMentionAttachment, isResourceAttachment, resourceLabel, type Attachment } from '../src/shared/protocol';
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
    this.el.setAttribute('aria-label', 'Attached context');
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
    const chip = h(this.doc, 'span', 'attachment-chip');
    chip.setAttribute('role', 'listitem');
    let label: string;
    let shown: string;
    if (isResourceAttachment(attachment)) {
      // An MCP resource: its name on the chip, server and uri on hover.
      label = resourceLabel(attachment);
      chip.title = `${label} (MCP resource, read when the message is sent)`;
      chip.classList.add('attachment-resource');
      chip.dataset['server'] = attachment.server;
      chip.dataset['uri'] = attachment.uri;
      shown = `@${attachment.name ?? attachment.uri.split('/').filter(Boolean).pop() ?? attachment.uri}`;
    } else if (isMentionAttachment(attachment)) {
      // Captured when mentioned (problems, a terminal's output, a folder's files).
      label = `@${attachment.label}`;
      chip.title = `${label} (as it was when mentioned)`;
      chip.classList.add('attachment-mention');
      shown = label;
    } else {
      label = attachmentLabel(attachment);
      chip.title = attachment.startLine === undefined ? `${label} (whole file)` : label;
      chip.dataset['path'] = attachment.path;
      const name = attachment.path.split('/').pop() ?? attachment.path;
      shown = `${name}${attachment.startLine === undefined ? '' : label.slice(attachment.path.length)}`;
    }
    const text = h(this.doc, 'span', 'attachment-label', shown);
    const remove = h(this.doc, 'button', 'attachment-remove', '×');
    remove.type = 'button';
    remove.setAttribute('aria-label', `Remove ${label}`);
    remove.title = `Remove ${label}`;
    remove.dataset['attachmentId'] = attachment.id;
    chip.append(text, remove);
    return chip;
  }
}
