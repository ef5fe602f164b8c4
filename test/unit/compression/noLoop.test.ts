// No compaction loops: never two compressions in a row without new content; and "Compress Context Now".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import type { ChatMessage } from '../../../src/core/messages';
import { CompressingModel, HangingModel } from '../../helpers/compression/compressionModels';
import { ProviderError } from '../../../src/core/provider';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;

test('a compression that cannot reach the threshold is not repeated until something new arrives', async () => {
  const history = scriptedSession({ messages: 40, seed: 5, fileChars: 2500 });
  const model = new CompressingModel();
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: model,
    model: 'test-model',
    window: 12288,
    tools: () => SESSION_TOOLS,
    // Everything protected but a few small tool results: compression can only do a little, so the request stays over 70%.
    settings: { protectedPairs: 100, neverCompressTools: ['read_file'], minAnswerTokens: 0 },
    onCompression: (r) => reports.push(r),
  });
  const input = [systemMessage(), ...history];
  await manager.prepareMessages(input, signal);
  assert.equal(manager.status().compressions, 1);
  assert.ok(manager.status().used > 12288 * 0.7, `still over the threshold (${manager.status().used})`);
  const calls = model.requests.length;
  assert.ok(calls > 0, 'the first compression did run the model');
  assert.equal(reports.length, 1);

  for (let i = 0; i < 3; i++) await manager.prepareMessages(input, signal);
  assert.equal(manager.status().compressions, 1, 'no new content: no new compression');
  assert.equal(model.requests.length, calls, 'and no model calls for it');

  const more: ChatMessage[] = [...input, { role: 'user', content: 'And one more thing.' }];
  await manager.prepareMessages(more, signal);
  assert.equal(manager.status().compressions, 2, 'new content: compression may run again');
  await manager.prepareMessages(more, signal);
  assert.equal(manager.status().compressions, 2);
});

test('compressNow compresses on demand, reports it, and the next prepare uses the result', async () => {
  const history = scriptedSession({ messages: 30, seed: 5, fileChars: 1500 });
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: new CompressingModel(),
    model: 'test-model',
    window: 16384,
    tools: () => SESSION_TOOLS,
    // Under the threshold but over the target: only the command compresses.
    settings: { compressAt: 0.9, compressTo: 0.2 },
    onCompression: (r) => reports.push(r),
  });
  const input = [systemMessage(), ...history];
  const plain = await manager.prepareMessages(input, signal);
  assert.equal(reports.length, 0);
  const usedBefore = manager.status().used;

  const report = await manager.compressNow(input, signal);
  assert.equal(report.reason, 'manual');
  assert.equal(reports.length, 1);
  assert.ok(report.tokensAfter < report.tokensBefore);
  assert.ok(manager.status().used < usedBefore);

  const after = await manager.prepareMessages(input, signal);
  assert.notDeepEqual(after, plain);
  assert.ok(report.compressed.every((c) => after.includes(c.compressed)));
});

test('compressNow with nothing to do says so instead of failing', async () => {
  const manager = createContextManager({ provider: new CompressingModel(), model: 'm', window: 32768 });
  const report = await manager.compressNow([systemMessage(), { role: 'user', content: 'hi' }], signal);
  assert.equal(report.method, 'none');
  assert.equal(report.messagesAffected, 0);
  assert.ok(report.targetMet);
});

test('cancelling during compression rejects with the abort and leaves the manager usable', async () => {
  const history = scriptedSession({ messages: 45, seed: 7, fileChars: 2500 });
  const model = new HangingModel();
  const reports: CompressionReport[] = [];
  const manager = createContextManager({ provider: model, model: 'm', window: 8192, tools: () => SESSION_TOOLS, onCompression: (r) => reports.push(r) });
  const controller = new AbortController();
  const pending = manager.prepareMessages([systemMessage(), ...history], controller.signal);
  while (model.requests.length === 0) await new Promise((r) => setImmediate(r));
  controller.abort();
  await assert.rejects(pending, (err: unknown) => err instanceof ProviderError && err.kind === 'aborted');
  assert.equal(reports.length, 0);
  assert.equal(manager.status().compressions, 0, 'a cancelled compression does not count, so the next call may compress');
});

test('a history replaced by a shorter one is new content', async () => {
  const manager = createContextManager({ provider: new CompressingModel(), model: 'm', window: 12288, tools: () => SESSION_TOOLS, settings: { minAnswerTokens: 0, llmCompression: false } });
  const long = scriptedSession({ messages: 90, seed: 1, fileChars: 2500 });
  await manager.prepareMessages([systemMessage(), ...long], signal);
  assert.equal(manager.status().compressions, 1);
  const other = scriptedSession({ messages: 60, seed: 2, fileChars: 2500 });
  await manager.prepareMessages([systemMessage(), ...other], signal);
  assert.equal(manager.status().compressions, 2);
});
