// The simple items: the user's message (plain text), display-only notices, and errors with next-step buttons.
import type { ChatImage } from '../../src/shared/chatModel';
import type { ChatItem, ErrorAction, ErrorItem, NoticeItem, UserItem } from '../../src/shared/protocol';
import { h, setText } from '../dom';
import type { ItemView, ViewContext } from './types';

export class UserView implements ItemView {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private restore: HTMLButtonElement | undefined;

  constructor(item: UserItem, private readonly ctx: ViewContext) {
    this.el = h(ctx.doc, 'div', 'message message-user');
    this.el.dataset['id'] = item.id;
    this.body = h(ctx.doc, 'div', 'message-body', item.text);
    this.el.append(this.body);
    if (item.images?.some((i) => i.thumbnail)) this.el.append(thumbnails(ctx.doc, item.images));
    this.setRestore(item.messageId);
  }

  update(item: ChatItem): void {
    if (item.kind !== 'user') return;
    setText(this.body, item.text);
    this.setRestore(item.messageId);
  }

  /** "Restore to here" once the message is saved (clicks are handled by delegation on the conversation). */
  private setRestore(messageId: number | undefined): void {
    if (messageId === undefined || this.restore?.dataset['restore'] === String(messageId)) return;
    this.restore ??= h(this.ctx.doc, 'button', 'link-button restore-here', 'Restore to here');
    this.restore.type = 'button';
    this.restore.title = 'Put the workspace files and the conversation back to how they were before this message';
    this.restore.dataset['restore'] = String(messageId);
    if (!this.restore.isConnected) this.el.append(this.restore);
  }

  dispose(): void {}
}

/** The sent images, small; a click shows one at its full thumbnail size and back. Without a thumbnail, the label line says it. */
function thumbnails(doc: Document, images: readonly ChatImage[]): HTMLElement {
  const row = h(doc, 'div', 'message-images');
  for (const image of images) {
    if (!image.thumbnail) continue;
    const img = h(doc, 'img', 'message-image');
    img.src = image.thumbnail;
    img.alt = image.name;
    img.title = image.name;
    img.tabIndex = 0;
    const toggle = () => img.classList.toggle('expanded');
    img.addEventListener('click', toggle);
    img.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        toggle();
      }
    });
    row.append(img);
  }
  return row;
}

export class NoticeView implements ItemView {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;

  constructor(item: NoticeItem, ctx: ViewContext) {
    this.el = h(ctx.doc, 'div', 'message message-notice');
    this.el.dataset['id'] = item.id;
    this.el.title = 'Shown to you only; not sent to the model';
    this.body = h(ctx.doc, 'div', 'message-body', item.text);
    this.el.append(this.body);
  }

  update(item: ChatItem): void {
    if (item.kind === 'notice') setText(this.body, item.text);
  }

  dispose(): void {}
}

const ACTION_LABELS: Record<ErrorAction, string> = {
  openSettings: 'Open settings',
  showLogs: 'Show logs',
  selectModel: 'Select model',
  resumeSession: 'Resume',
};

export class ErrorView implements ItemView {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private readonly actions: HTMLElement;

  constructor(item: ErrorItem, private readonly ctx: ViewContext) {
    this.el = h(ctx.doc, 'div', 'message message-error');
    this.el.dataset['id'] = item.id;
    this.body = h(ctx.doc, 'div', 'message-body', item.text);
    this.actions = h(ctx.doc, 'div', 'error-actions');
    this.el.append(this.body, this.actions);
    this.renderActions(item.actions);
  }

  update(item: ChatItem): void {
    if (item.kind !== 'error') return;
    setText(this.body, item.text);
    this.renderActions(item.actions);
  }

  dispose(): void {}

  private renderActions(actions: readonly ErrorAction[]): void {
    this.actions.replaceChildren(
      ...actions.map((action) => {
        // Clicks are handled by delegation on the conversation (data-command), so no per-button listeners.
        const button = h(this.ctx.doc, 'button', 'secondary', ACTION_LABELS[action]);
        button.type = 'button';
        button.dataset['command'] = action;
        return button;
      }),
    );
    this.actions.hidden = actions.length === 0;
  }
}
