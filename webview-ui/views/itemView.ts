// One view per chat item. The conversation keeps them keyed by position and calls update() with the new
// item object only when the reducer replaced it.
import type { ChatItem } from '../../src/shared/protocol';
import { ChatItemSchema, describeIssues } from '../../src/shared/protocol';
import { h } from '../dom';
import type { ItemView, ViewContext } from './types';
import { AssistantView } from './assistantView';
import { ToolCardView } from './toolCardView';
import { ErrorView, NoticeView, UserView } from './messageViews';
import { CompressedMarkView } from './compressedMark';

export type { ItemView, ViewContext } from './types';

/**
 * Validates the item in full first: a snapshot's items are only shape-checked on arrival (snapshotMessage.ts),
 * so this is where each is checked before anything of it reaches the DOM. An invalid one becomes a visible
 * placeholder and a log line; the rest of the conversation renders.
 */
export function createItemView(raw: ChatItem, ctx: ViewContext): ItemView {
  const checked = ChatItemSchema.safeParse(raw);
  if (!checked.success) {
    const problem = describeIssues(checked.error);
    (ctx.log ?? ((l: string) => console.warn(l)))(`[localharness] an item of the conversation is invalid and is not shown: ${problem}`);
    return new InvalidItemView(ctx);
  }
  const item = checked.data;
  switch (item.kind) {
    // These three can be compressed later: the mark view adds "[Compressed]" when the item says so.
    case 'user':
      return new CompressedMarkView(new UserView(item, ctx), item, ctx);
    case 'assistant':
      return new CompressedMarkView(new AssistantView(item, ctx), item, ctx);
    case 'tool':
      return new CompressedMarkView(new ToolCardView(item, ctx), item, ctx);
    case 'notice':
      return new NoticeView(item, ctx);
    case 'error':
      return new ErrorView(item, ctx);
  }
}

/** Stands in for an item the host sent in a shape the panel cannot show. */
class InvalidItemView implements ItemView {
  readonly el: HTMLElement;

  constructor(ctx: ViewContext) {
    this.el = h(ctx.doc, 'div', 'message message-error');
    this.el.append(h(ctx.doc, 'div', 'message-body', 'This part of the conversation could not be shown: the extension sent it in an unexpected shape (details in the log).'));
  }

  update(): void {}

  dispose(): void {}
}
