// Turns a stored conversation (core ChatMessages) back into chat view items, for restoring a session.
import { imageLabel } from '../../core/images/imagePart';
import type { ChatMessage } from '../../core/messages';
import type { ChatItem, ToolItem } from '../../shared/protocol';
import { capText } from '../../shared/chatState';
import { userMessageText } from '../../shared/attachedMessage';
import { formatArguments } from './agentEventMapping';
import { chatImagesOf } from './chatImages';

/**
 * `notes`: notice lines to show before the message at that index (a planned run, where it happened). `turnIds`: the
 * stored ids of the messages that started a turn (stored messages carry `id`): their items get "Restore to here".
 */
export function itemsFromHistory(
  history: readonly ChatMessage[],
  firstId = 1,
  notes?: ReadonlyMap<number, string>,
  turnIds?: ReadonlySet<number>,
): { items: ChatItem[]; nextId: number } {
  const items: ChatItem[] = [];
  let nextId = firstId;
  const id = () => `i${nextId++}`;
  const noteAt = (index: number) => {
    const text = notes?.get(index);
    if (text !== undefined) items.push({ kind: 'notice', id: id(), text });
  };
  for (const [index, message] of history.entries()) {
    noteAt(index);
    switch (message.role) {
      case 'system':
        break;
      case 'user': {
        const stored = (message as { id?: unknown }).id;
        const messageId = typeof stored === 'number' && turnIds?.has(stored) ? stored : undefined;
        const images = chatImagesOf(message.images);
        items.push({
          kind: 'user',
          id: id(),
          text: userMessageText(message.content, [...(message.attachments ?? []).map((a) => a.label), ...(message.images ?? []).map(imageLabel)]),
          ...(images && { images }),
          ...(messageId !== undefined && { messageId }),
        });
        break;
      }
      case 'assistant':
        if (message.content || message.thinking) {
          items.push({ kind: 'assistant', id: id(), text: message.content, thinking: message.thinking ?? '', streaming: false });
        }
        for (const call of message.toolCalls ?? []) {
          items.push({ kind: 'tool', id: id(), callId: call.id, name: call.name, args: capText(formatArguments(call.arguments)), status: 'done' });
        }
        break;
      case 'tool': {
        const index = findLastTool(items, message.toolCallId);
        if (index < 0) break;
        const card = items[index] as ToolItem;
        items[index] = { ...card, status: statusOfResult(message.content), result: capText(message.content) };
        break;
      }
    }
  }
  noteAt(history.length);
  return { items, nextId };
}

function findLastTool(items: ChatItem[], callId: string | undefined): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'tool' && item.callId === callId) return i;
  }
  return -1;
}

/** The stored result is all we have: the core words denials and failures in a recognisable way. */
function statusOfResult(content: string): ToolItem['status'] {
  if (/^The user denied this /.test(content)) return 'denied';
  if (/^(Error|Cancelled)\b/.test(content)) return 'error';
  return 'done';
}
