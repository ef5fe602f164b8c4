// One view per chat item. The conversation keeps them keyed by position and calls update() with the new
// item object only when the reducer replaced it.
import type { ChatItem } from '../../src/shared/protocol';
import type { ItemView, ViewContext } from './types';
import { AssistantView } from './assistantView';
import { ToolCardView } from './toolCardView';
import { ErrorView, NoticeView, UserView } from './messageViews';
import { CompressedMarkView } from './compressedMark';

export type { ItemView, ViewContext } from './types';

export function createItemView(item: ChatItem, ctx: ViewContext): ItemView {
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
