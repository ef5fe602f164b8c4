// Finds the panel item a compressed message stands for, and marks it. Items carry no message identity, so a
// message is located by what the host and the panel both know: its kind, its text (tool: call id) and how
// many earlier messages of that kind had the same key.
import type { ChatEvent, ChatItem, CompressedTarget } from './chatModel';

export type CompressedMark = Extract<ChatEvent, { type: 'compressed' }>;

/** The same items array when nothing matched (or the mark is already there). */
export function markCompressed(items: ChatItem[], mark: Pick<CompressedMark, 'target' | 'key' | 'occurrence' | 'text'>): ChatItem[] {
  let seen = 0;
  let fallback = -1;
  let index = -1;
  for (let i = 0; i < items.length; i++) {
    if (keyOf(items[i]!, mark.target) !== mark.key) continue;
    fallback = i;
    if (seen++ === mark.occurrence) {
      index = i;
      break;
    }
  }
  // Fewer matches than expected (a message the panel never showed): the latest one is the best guess.
  const at = index >= 0 ? index : fallback;
  if (at < 0) return items;
  const item = items[at]!;
  if (item.kind === 'notice' || item.kind === 'error' || item.compressed === mark.text) return items;
  const next = items.slice();
  next[at] = { ...item, compressed: mark.text };
  return next;
}

/** What a mark matches an item by: its text (tool cards: the call id), for items of the mark's kind. */
export function keyOf(item: ChatItem, target: CompressedTarget): string | undefined {
  if (item.kind !== target) return undefined;
  if (item.kind === 'tool') return item.callId;
  if (item.kind === 'user' || item.kind === 'assistant') return item.text;
  return undefined;
}
