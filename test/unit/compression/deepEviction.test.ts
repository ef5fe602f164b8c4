// Compress once: in a 4,096-token window the system prompt and tools take a third, and the last five rounds of an
// agent task can alone be over the 40% target. A fallback that stops at the protected tail misses its target and
// the next round compresses again (the prefix the server cached breaks every round); one that evicts the tail's
// older rounds too reaches its target in one step, and the following rounds append.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import type { ChatMessage } from '../../../src/core/messages';
import { GarbageModel } from '../../helpers/compression/compressionModels';
import { assertValidOrder } from './assertions';
import { SESSION_TOOLS, systemMessage } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;
const TASK = 'Rename every note after its kind.';

function round(i: number): ChatMessage[] {
  const id = `c${i}`;
  return [
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'read_file', arguments: { path: `note-${i}.txt` } }] },
    { role: 'tool', content: `note-${i}.txt (12 lines):\n` + `Note ${i}: the details of the matter as discussed by the team, with dates and amounts.\n`.repeat(12), toolCallId: id, toolName: 'read_file' },
  ];
}

test('the fallback reaches its target in one step, into the protected tail, and the next rounds append', async (t) => {
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: new GarbageModel(),
    model: 'test-model',
    window: 4096,
    tools: () => SESSION_TOOLS,
    compressionModel: null,
    settings: { minAnswerTokens: 500 },
    onCompression: (r) => reports.push(r),
  });
  const history: ChatMessage[] = [{ role: 'user', content: TASK }];
  const sent: ChatMessage[][] = [];
  for (let i = 1; i <= 24; i++) {
    history.push(...round(i));
    sent.push(await manager.prepareMessages([systemMessage(), ...history], signal));
  }
  assert.ok(reports.length >= 1);
  t.diagnostic(`${reports.length} compressions: ${reports.map((r) => `${r.tokensBefore}→${r.tokensAfter}`).join(', ')}`);
  for (const r of reports) assert.ok(r.targetMet, `each compression reached its target (${r.tokensAfter} of ${r.targetTokens})`);
  // Between compressions every request extends the one before it: the server's cached prefix holds.
  let appended = 0;
  for (let k = 1; k < sent.length; k++) {
    const before = sent[k - 1]!;
    if (before.every((m, j) => JSON.stringify(sent[k]![j]) === JSON.stringify(m))) appended++;
  }
  assert.ok(appended >= sent.length - 1 - reports.length, `${appended} of ${sent.length - 1} requests only appended (${reports.length} compressions)`);
  assert.ok(reports.length <= 5, `${reports.length} compressions in 24 rounds of ~300 tokens each`);
  const last = sent.at(-1)!;
  assertValidOrder(last);
  assert.match(last[1]!.content, /# Session summary[\s\S]*User: Rename every note/, 'the task lives on in the summary');
  assert.ok(last.includes(history.at(-1)!) && last.includes(history.at(-2)!), 'the latest round stays whole');
});
