// Deep eviction in a small window keeps one digest: the newest round before the latest holding a compressed copy
// stays in view (a few tokens, less than half a round), so the model sees the step before the latest as a digest
// and a session stored now and resumed in a larger window gets compressed copies back, not only the summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import type { ChatMessage } from '../../../src/core/messages';
import { GarbageModel } from '../../helpers/compression/compressionModels';
import { assertValidOrder } from './assertions';
import { SESSION_TOOLS, systemMessage } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;

function round(i: number): ChatMessage[] {
  const id = `c${i}`;
  return [
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'read_file', arguments: { path: `note-${i}.txt` } }] },
    { role: 'tool', content: `note-${i}.txt (12 lines):\n` + `Note ${i}: the details of the matter as discussed by the team, with dates and amounts.\n`.repeat(12), toolCallId: id, toolName: 'read_file' },
  ];
}

test('after each deep eviction in a 4,096 window the round before the latest stays, as its digest', async () => {
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: new GarbageModel(),
    model: 'test-model',
    window: 4096,
    tools: () => SESSION_TOOLS,
    compressionModel: null,
    onCompression: (r) => reports.push(r),
  });
  const history: ChatMessage[] = [{ role: 'user', content: 'Rename every note after its kind.' }];
  let deep = 0;
  for (let i = 1; i <= 24; i++) {
    history.push(...round(i));
    const before = reports.length;
    const sent = await manager.prepareMessages([systemMessage(), ...history], signal);
    if (reports.length === before || reports.at(-1)!.evicted.length === 0) continue;
    deep++;
    assertValidOrder(sent);
    // The latest round whole, and right before it the previous round's call with its result as a digest.
    assert.equal(sent.at(-1), history.at(-1), 'the latest result stays whole');
    const previous = sent.at(-3)!;
    assert.equal(previous.role, 'tool');
    assert.match(previous.content, /^\[Compressed\] read_file note-\d+\.txt/);
    assert.ok(previous.content.includes(`note-${i - 1}.txt`), previous.content.slice(0, 120));
    assert.equal(sent.filter((m) => m.content.startsWith('[Compressed]')).length, 1, 'older rounds left, into the summary');
    assert.ok(manager.state().evictedThrough > 0);
  }
  assert.ok(deep >= 2, `${deep} compressions evicted rounds`);
});
