// Compression marks for the panel (see src/shared/compressedMarks.ts): from a live compression (history index
// of the original) and from a stored session (compressed copies linked to their originals).
import type { ChatMessage } from '../../core/messages';
import type { StoredMessage } from '../../persistence/types';
import type { CompressedMark } from '../../shared/compressedMarks';
import { userMessageText } from '../../shared/attachedMessage';

/** The mark for `messages[index]` now reading `text`; undefined for messages the panel does not show. */
export function markFor(messages: readonly ChatMessage[], index: number, text: string): CompressedMark | undefined {
  const message = messages[index];
  if (!message) return undefined;
  const target = targetOf(message);
  if (!target) return undefined;
  const key = keyOf(message);
  let occurrence = 0;
  for (let i = 0; i < index; i++) {
    const m = messages[i]!;
    if (targetOf(m) === target && keyOf(m) === key) occurrence++;
  }
  return { type: 'compressed', target, key, occurrence, text };
}

/** Marks for every stored message whose current version is a compressed copy. */
export function marksFromStore(originals: readonly StoredMessage[], current: readonly StoredMessage[]): CompressedMark[] {
  // Built on the first compressed copy only: most sessions have none, and opening a long one should not pay for it.
  let indexById: Map<number, number> | undefined;
  const marks: CompressedMark[] = [];
  for (const copy of current) {
    if (copy.compressedFrom === undefined) continue;
    indexById ??= new Map(originals.map((m, i) => [m.id, i]));
    const index = indexById.get(copy.compressedFrom);
    if (index === undefined) continue;
    const mark = markFor(originals, index, copy.content);
    if (mark) marks.push(mark);
  }
  return marks;
}

function targetOf(message: ChatMessage): CompressedMark['target'] | undefined {
  if (message.role === 'user') return 'user';
  if (message.role === 'tool') return 'tool';
  // An assistant message without text is only its tool cards in the panel.
  if (message.role === 'assistant' && (message.content || message.thinking)) return 'assistant';
  return undefined;
}

function keyOf(message: ChatMessage): string {
  if (message.role === 'tool') return message.toolCallId ?? '';
  // The panel shows a user message with its attachments' labels, not their code (src/shared/attachedMessage.ts).
  return message.role === 'user' ? userMessageText(message.content, message.attachments?.map((a) => a.label)) : message.content;
}
