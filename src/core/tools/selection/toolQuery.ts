// The text tools are ranked against: the user's current request first (it says what the turn is about),
// then a little of the latest messages (what the model is doing right now), each cut short so a long
// file listing does not drown the request.
import type { ChatMessage } from '../../messages';

export interface ToolQueryOptions {
  /** Characters of the user's request (default 1,500). */
  requestChars?: number;
  /** Characters of each later message (default 300). */
  recentChars?: number;
  /** Later messages considered, newest first (default 3). */
  recentMessages?: number;
}

export function toolQueryFrom(messages: readonly ChatMessage[], options: ToolQueryOptions = {}): string {
  const requestChars = options.requestChars ?? 1500;
  const recentChars = options.recentChars ?? 300;
  const recentMessages = options.recentMessages ?? 3;
  let requestIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user' && messages[i]!.content.trim() !== '') {
      requestIndex = i;
      break;
    }
  }
  const parts: string[] = [];
  if (requestIndex >= 0) parts.push(cut(messages[requestIndex]!.content, requestChars));
  const later = messages.slice(requestIndex + 1).filter((m) => m.role !== 'system');
  for (const message of later.slice(-recentMessages).reverse()) {
    const calls = (message.toolCalls ?? []).map((c) => c.name).join(' ');
    const text = [calls, message.content].filter((t) => t.trim() !== '').join(' ');
    if (text.trim() !== '') parts.push(cut(text, recentChars));
  }
  return parts.join('\n');
}

function cut(text: string, max: number): string {
  const flat = text.trim();
  return flat.length > max ? flat.slice(0, max) : flat;
}
