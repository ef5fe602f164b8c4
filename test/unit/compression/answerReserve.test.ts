// The room kept for the answer follows the largest reply seen (1.5×, 512 to 1,500, at most 40% of the window) unless
// the user fixed it, and in a tight window compression starts where that room begins instead of at 70%.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerReserve, compressionTrigger, FLOOR_TOKENS, MAX_TOKENS } from '../../../src/core/compression/answerReserve';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import type { ChatMessage } from '../../../src/core/messages';
import { GarbageModel } from '../../helpers/compression/compressionModels';
import { SESSION_TOOLS, systemMessage } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;
const SETTINGS = { compressAt: 0.7, tightWindow: 8192 };

test('the reserve starts at the floor, follows the largest reply, and stays within the cap and 40% of the window', () => {
  const reserve = new AnswerReserve();
  assert.equal(reserve.tokens(4096), FLOOR_TOKENS);
  reserve.observe(200);
  assert.equal(reserve.tokens(4096), FLOOR_TOKENS, '1.5 × 200 is under the floor');
  reserve.observe(600);
  assert.equal(reserve.tokens(4096), 900);
  reserve.observe(100);
  assert.equal(reserve.tokens(4096), 900, 'a smaller reply later does not shrink it');
  reserve.observe(5000);
  assert.equal(reserve.tokens(32768), MAX_TOKENS);
  assert.equal(reserve.tokens(2048), Math.floor(2048 * 0.4), 'never more than 40% of a small window');
  assert.equal(new AnswerReserve().tokens(1000), 400, 'the floor gives way to the 40% too');
});

test('a reserve the user set is kept as it is, within 40% of the window', () => {
  const fixed = new AnswerReserve(3000);
  fixed.observe(10);
  assert.equal(fixed.tokens(16384), 3000);
  assert.equal(fixed.tokens(4096), Math.floor(4096 * 0.4));
});

test('the trigger: 70% in a large window; where the answer’s room begins in a tight one, never before 70%', () => {
  assert.equal(compressionTrigger(32768, SETTINGS, 512), Math.floor(32768 * 0.7));
  assert.equal(compressionTrigger(4096, SETTINGS, 512), 4096 - 512);
  assert.equal(compressionTrigger(8192, SETTINGS, 900), 8192 - 900);
  assert.equal(compressionTrigger(4096, SETTINGS, 1600), Math.floor(4096 * 0.7), 'a large reserve leaves the share in place');
  assert.equal(compressionTrigger(4096, { ...SETTINGS, tightWindow: 0 }, 512), Math.floor(4096 * 0.7), 'tightWindow 0: the share everywhere');
});

function noteRound(i: number, lines: number): ChatMessage[] {
  const id = `c${i}`;
  return [
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'read_file', arguments: { path: `note-${i}.txt` } }] },
    { role: 'tool', content: `note-${i}.txt (${lines} lines):\n` + `Note ${i}: the details of the matter as discussed by the team, with dates and amounts.\n`.repeat(lines), toolCallId: id, toolName: 'read_file' },
  ];
}

test('in a 4,096 window the manager sends up to the answer’s room before compressing, and a long reply moves that point', async () => {
  const reports: CompressionReport[] = [];
  const manager = createContextManager({ provider: new GarbageModel(), model: 'm', window: 4096, tools: () => SESSION_TOOLS, compressionModel: null, onCompression: (r) => reports.push(r) });
  const history: ChatMessage[] = [{ role: 'user', content: 'Rename every note after its kind.' }];
  let largestSent = 0;
  for (let i = 1; reports.length === 0 && i < 40; i++) {
    history.push(...noteRound(i, 6));
    await manager.prepareMessages([systemMessage(), ...history], signal);
    if (reports.length === 0) largestSent = Math.max(largestSent, manager.status().used);
  }
  assert.equal(reports.length, 1);
  assert.ok(largestSent > Math.floor(4096 * 0.7), `requests went past 70% of the window before compressing (${largestSent})`);
  assert.ok(4096 - largestSent >= 512, `and left the answer its room (${4096 - largestSent} free)`);
  assert.equal(manager.status().compressAtTokens, 4096 - 512);

  // The server says a reply took 1,000 tokens: from now on 1,500 are kept for the answer.
  manager.recordUsage({ promptTokens: 0, completionTokens: 1000 });
  assert.equal(manager.status().minAnswerTokens, 1500);
  assert.equal(manager.status().compressAtTokens, Math.floor(4096 * 0.7), 'the room now reaches below 70%: the share holds');
});

test('a long reply the server did not count is measured from the history', async () => {
  const manager = createContextManager({ provider: new GarbageModel(), model: 'm', window: 4096, tools: () => SESSION_TOOLS, compressionModel: null });
  const code = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n'.repeat(30);
  const history: ChatMessage[] = [
    { role: 'user', content: 'Write add.ts.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'add.ts', content: code } }] },
    { role: 'tool', content: 'Wrote add.ts.', toolCallId: 'w', toolName: 'write_file' },
  ];
  await manager.prepareMessages([systemMessage(), ...history], signal);
  assert.ok(manager.status().minAnswerTokens > FLOOR_TOKENS, `the write's size counts (${manager.status().minAnswerTokens})`);
});
