// The LLM compression pass through createContextManager: a scripted model answers its requests with JSON summaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { protectedStartOf } from '../../../src/core/compression/compressionUnits';
import { COMPRESSED_MARKER } from '../../../src/core/compression/marker';
import { estimateMessagesTokens, estimateToolDefinitionTokens } from '../../../src/core/tokens';
import { COMPRESSION_REQUEST_HEAD } from '../../../src/core/compression/modelPass';
import { CompressingModel } from '../../helpers/compression/compressionModels';
import { assertValidOrder } from './assertions';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../../helpers/compression/sessionFixture';

const WINDOW = 8192;
const signal = new AbortController().signal;

function setup(messages: number) {
  const history = scriptedSession({ messages, seed: 7, fileChars: 2500 });
  const system = systemMessage();
  const model = new CompressingModel();
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: model,
    model: 'test-model',
    window: WINDOW,
    tools: () => SESSION_TOOLS,
    onCompression: (r) => reports.push(r),
  });
  return { history, system, model, reports, manager };
}

test('compression triggers over 70% and lands under 40% with the last 5 pairs intact', async () => {
  // 44 messages, already over the whole window. (It was 50 messages, 123% of the window: with digests that
  // keep each result's facts instead of a one-line note, the LLM pass alone no longer gets that under 40%.)
  const { history, system, model, reports, manager } = setup(42);
  const before = estimateMessagesTokens([system, ...history]) + estimateToolDefinitionTokens(SESSION_TOOLS);
  assert.ok(before > WINDOW, `the fixture starts over the window (${before})`);
  assert.ok(before > WINDOW * 0.7, `the fixture must start over the threshold (it has ${before} tokens)`);

  const out = await manager.prepareMessages([system, ...history], signal);

  assert.equal(reports.length, 1);
  const report = reports[0]!;
  assert.equal(report.reason, 'threshold');
  assert.equal(report.method, 'llm', JSON.stringify(report.steps));
  assert.ok(report.targetMet);
  assert.ok(report.tokensAfter <= WINDOW * 0.4, `after: ${report.tokensAfter}`);
  assert.ok(report.tokensBefore > report.tokensAfter);
  assert.ok(report.llm && report.llm.iterations <= 15 && report.llm.failure === undefined, JSON.stringify(report.llm));
  assert.ok(model.requests.length <= 15);
  // What is sent is what was reported.
  assert.ok(estimateMessagesTokens(out) + estimateToolDefinitionTokens(SESSION_TOOLS) <= WINDOW * 0.4);

  // The last 5 user/assistant pairs are the very same messages.
  const start = protectedStartOf(history, 5);
  for (let i = start; i < history.length; i++) {
    if (history[i]!.role === 'tool') continue;
    assert.ok(out.includes(history[i]!), `protected message ${i} (${history[i]!.role}) is sent unchanged`);
  }
  assert.equal(out.length, history.length + 1, 'compression replaces messages, it does not drop them');
  assertValidOrder(out);

  // Every compressed message is marked and links back to its original.
  assert.ok(report.compressed.length > 0);
  for (const c of report.compressed) {
    assert.ok(c.compressed.content.startsWith(COMPRESSED_MARKER));
    assert.equal(c.original, history[c.index]);
    assert.equal(manager.originalOf(c.compressed), history[c.index]);
    assert.ok(out.includes(c.compressed));
    assert.equal(c.method, 'llm');
  }
  assert.equal(report.messagesAffected, report.compressed.length);
  const toolResult = report.compressed.find((c) => c.original.role === 'tool' && c.original.toolName === 'read_file');
  assert.ok(toolResult, 'a file read was compressed');
  // The model's note is added to the digest of facts (it was the whole replacement before).
  const path = /^(src\/module\d+\.ts) /.exec(toolResult.original.content)![1]!;
  const lines = toolResult.compressed.content.split('\n');
  assert.match(lines[0]!, /^\[Compressed\] read_file src\/module\d+\.ts lines all \d+ \([\d,]+ chars, \d+ lines\)$/);
  assert.match(lines[1]!, /^Outline: function \w+ \(line 1\)/);
  assert.equal(lines.at(-2), 'Note: the gist was noted');
  assert.equal(lines.at(-1), `Full result: call read_file with {"path":"${path}"}.`);
  assert.equal(toolResult.compressed.toolCallId, toolResult.original.toolCallId);
});

test('over the threshold the pass continues the conversation: the same system prompt, tools and messages, then its request', async () => {
  // A session between the threshold (70%) and the window: what the server just read is the pass's prefix.
  const share = (n: number) => (estimateMessagesTokens([systemMessage(), ...scriptedSession({ messages: n, seed: 7, fileChars: 2500 })]) + estimateToolDefinitionTokens(SESSION_TOOLS)) / WINDOW;
  const size = Array.from({ length: 50 }, (_, i) => i + 10).find((n) => share(n) > 0.71 && share(n) < 0.85);
  assert.ok(size !== undefined, 'a session size between the threshold and the window');
  const { history, system, model, reports, manager } = setup(size);
  await manager.prepareMessages([system, ...history], signal);
  const llm = reports[0]?.steps.find((step) => step.method === 'llm');
  assert.ok(llm && llm.messages > 0 && llm.tokensAfter < llm.tokensBefore, JSON.stringify(reports[0]?.steps));
  assert.ok(model.requests.length > 0);
  for (const r of model.requests) {
    assert.deepEqual(r.tools, SESSION_TOOLS, 'the conversation’s own tools, unchanged');
    assert.deepEqual(r.messages.slice(0, history.length + 1), [system, ...history], 'the conversation as it was to be sent, byte for byte');
    assert.ok(r.messages[history.length + 1]!.content.startsWith(COMPRESSION_REQUEST_HEAD));
    assert.ok(estimateMessagesTokens(r.messages) + estimateToolDefinitionTokens(r.tools) < WINDOW, 'fits the window');
  }
  // A second call appends to the first: the server keeps reading only what is new.
  if (model.requests.length > 1) assert.deepEqual(model.requests[1]!.messages.slice(0, model.requests[0]!.messages.length), model.requests[0]!.messages);
});

test('a conversation already over the window is summarised from excerpts in a small request of its own', async () => {
  const { history, system, model, manager } = setup(45);
  assert.ok(estimateMessagesTokens([system, ...history]) > WINDOW);
  await manager.prepareMessages([system, ...history], signal);
  assert.ok(model.requests.length > 0);
  for (const r of model.requests) {
    assert.deepEqual(r.tools, []);
    assert.notEqual(r.messages[0]!.content, system.content);
    assert.ok(estimateMessagesTokens(r.messages) < WINDOW, "fits the window");
  }
});

test('summaries the model writes too long are cut to about the asked size', async () => {
  const history = scriptedSession({ messages: 45, seed: 7, fileChars: 2500 });
  const wordy = 'This message asked for many things in great detail, and here they all are again at full length. '.repeat(12);
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: new CompressingModel({ summary: () => wordy }),
    model: 'test-model',
    window: WINDOW,
    tools: () => SESSION_TOOLS,
    onCompression: (r) => reports.push(r),
  });
  await manager.prepareMessages([systemMessage(), ...history], signal);
  const texts = reports[0]!.compressed.filter((c) => c.original.role !== 'tool');
  assert.ok(texts.some((c) => c.original.role === 'user'));
  for (const c of texts) {
    const cap = c.original.role === 'user' ? 50 : 200;
    assert.ok(c.compressed.content.length <= COMPRESSED_MARKER.length + 1 + cap * 4 + 1, `${c.original.role}: ${c.compressed.content.length} chars`);
    assert.ok(c.compressed.content.length < c.original.content.length + JSON.stringify(c.original.toolCalls ?? '').length, 'never longer than the original');
  }
});

test('below the threshold nothing is compressed and the messages pass through', async () => {
  const { history, system, model, reports, manager } = setup(8);
  const input = [system, ...history];
  const out = await manager.prepareMessages(input, signal);
  assert.deepEqual(out, input);
  assert.equal(reports.length, 0);
  assert.equal(model.requests.length, 0);
});

test('the pass fits the window as the server counts it: a server counting 20% more than the estimate gets a request of its own, not one over the window', async () => {
  const history = scriptedSession({ messages: 60, seed: 7, fileChars: 2500 });
  const system = systemMessage();
  const model = new CompressingModel();
  const manager = createContextManager({ provider: model, model: 'test-model', window: WINDOW, tools: () => SESSION_TOOLS });
  // Teach the manager that this server counts 20% more than the estimator (small requests, far from compressing).
  for (let n = 2; n <= 8; n++) {
    await manager.prepareMessages([system, ...history.slice(0, n)], signal);
    manager.recordUsage({ promptTokens: Math.round((estimateMessagesTokens([system, ...history.slice(0, n)]) + estimateToolDefinitionTokens(SESSION_TOOLS)) * 1.2) });
  }
  const factor = manager.status().calibrationFactor;
  assert.ok(factor > 1.1, `calibrated ${factor}`);
  // A conversation at 72–80% of the window by the raw estimate: room for the pass to continue it by that count,
  // none by the server's (× 1.2: 86–96%).
  const size = Array.from({ length: 50 }, (_, i) => i + 10).find((n) => {
    const raw = estimateMessagesTokens([system, ...history.slice(0, n)]) + estimateToolDefinitionTokens(SESSION_TOOLS);
    return raw / WINDOW > 0.72 && raw / WINDOW < 0.8;
  });
  assert.ok(size !== undefined);
  const before = model.requests.length;
  await manager.prepareMessages([system, ...history.slice(0, size)], signal);
  const pass = model.requests.slice(before);
  assert.ok(pass.length > 0, 'the pass ran');
  for (const r of pass) {
    const counted = (estimateMessagesTokens(r.messages) + estimateToolDefinitionTokens(r.tools)) * factor;
    assert.ok(counted + 256 <= WINDOW, `the server counts ${Math.round(counted)} of ${WINDOW}, leaving room for the reply`);
    assert.deepEqual(r.tools, [], 'a request of its own');
  }
});
