// Checks every compression test applies to what would be sent to a server.
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../src/core/messages';

/**
 * The order an OpenAI-compatible server accepts: a system message first, then a user message, and every
 * tool message directly after the assistant message carrying its call (with every call answered).
 */
export function assertValidOrder(messages: readonly ChatMessage[]): void {
  assert.equal(messages[0]?.role, 'system', 'the first message is the system prompt');
  assert.equal(messages[1]?.role, 'user', 'the conversation starts with a user message');
  for (let i = 1; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'system') assert.fail(`a second system message at ${i}`);
    if (m.role !== 'assistant' || !m.toolCalls?.length) {
      if (m.role === 'tool') {
        // Walk back over sibling results to the assistant message that made the call.
        let j = i - 1;
        while (j > 0 && messages[j]!.role === 'tool') j--;
        const owner = messages[j]!;
        assert.equal(owner.role, 'assistant', `tool message ${i} follows an assistant message`);
        assert.ok(owner.toolCalls?.some((c) => c.id === m.toolCallId), `tool message ${i} answers a call of message ${j}`);
      }
      continue;
    }
    const ids = m.toolCalls.map((c) => c.id);
    const results = messages.slice(i + 1, i + 1 + ids.length).map((r) => (r.role === 'tool' ? r.toolCallId : undefined));
    assert.deepEqual(results, ids, `every call of message ${i} has its result right after it`);
  }
}
