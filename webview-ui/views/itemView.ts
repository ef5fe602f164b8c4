// One view per chat item. The conversation keeps them keyed by position and calls update() with the new
// item object only when the reducer replaced it.
import type { ChatItem } from '../../src/shared/protocol';
import type { ItemView, ViewContext } from './types';
import { AssistantView } from './assistantView';
import { ToolCardView } from './toolCardView';
import { ErrorView, NoticeView, UserView } from './messageViews';

export type { ItemView, ViewContext } from './types';

export function createItemView(item: ChatItem, ctx: ViewContext): ItemView {
  switch (item.kind) {
    case 'user':
      return new UserView(item, ctx);
    case 'assistant':
      return new AssistantView(item, ctx);
    case 'tool':
      return new ToolCardView(item, ctx);
    case 'notice':
      return new NoticeView(item, ctx);
    case 'error':
      return new ErrorView(item, ctx);
  }
}
