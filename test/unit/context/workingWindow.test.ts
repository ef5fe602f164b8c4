// The working window: what the server says it runs after a request (Ollama /api/ps) wins over what we asked for,
// a correction is said once and remembered per server and model, and a fixed server gets its full window back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { ChatMessage } from '../../../src/core/messages';
import type { ChatProvider, ChatRequest, ModelInfo, ProviderCapabilities, StreamDelta } from '../../../src/core/provider';
import { CompressionBudget } from '../../../src/core/compression/compressionBudget';
import { MemoryKv } from '../../helpers/memoryKv';

const signal = new AbortController().signal;

/** An Ollama-like provider whose loaded model runs `running` tokens, whatever num_ctx says. */
class RunningContextModel implements ChatProvider {
  readonly id = 'ollama' as const;
  readonly baseUrl = 'http://127.0.0.1:11434';
  readonly capabilities: ProviderCapabilities;
  psCalls = 0;

  constructor(
    public running: number | undefined,
    private readonly info: Partial<ModelInfo> = { contextLength: 131072 },
    contextSizeApi = true,
  ) {
    this.capabilities = { thinking: false, keepAlive: true, tools: true, jsonMode: false, streaming: true, embeddings: false, contextSizeApi };
  }

  async *chat(_request: ChatRequest): AsyncIterable<StreamDelta> {
    yield { type: 'done', finishReason: 'stop' };
  }

  async listModels(): Promise<ModelInfo[]> {
    return [{ name: 'qwen3:8b' }];
  }

  async modelInfo(model: string): Promise<ModelInfo> {
    return { name: model, ...this.info };
  }

  async runningContextLength(): Promise<number | undefined> {
    this.psCalls++;
    return this.running;
  }
}

function conversation(words: number): ChatMessage[] {
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Tell me about the project. ' + 'word '.repeat(words) },
  ];
}

test('Ollama says after the first request that it runs 4,096 while num_ctx asked 16,384: budget for 4,096, say so once, remember it', async () => {
  const provider = new RunningContextModel(4096);
  const kv = new MemoryKv();
  const warnings: string[] = [];
  const changes: Array<{ window: number; previous: number; source: string }> = [];
  const manager = createContextManager({
    provider,
    model: 'qwen3:8b',
    contextSize: 16384,
    calibrationStore: kv,
    onWarning: (m) => warnings.push(m),
    onWindowChange: (c) => changes.push(c),
  });
  await manager.prepareMessages(conversation(50), signal);
  assert.equal(manager.status().window, 16384, 'before any request, the window is the num_ctx we send');
  manager.recordUsage({ promptTokens: 80 });
  await manager.prepareMessages(conversation(60), signal);
  assert.equal(provider.psCalls, 1);
  assert.equal(manager.status().window, 4096);
  assert.equal(manager.status().windowSource, 'running');
  assert.deepEqual(changes, [{ window: 4096, previous: 16384, source: 'running', reason: 'the server reports it runs qwen3:8b with 4,096 tokens of context' }]);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /^Ollama runs qwen3:8b with a 4,096-token context, not the 16,384 tokens asked for with num_ctx/);
  assert.match(warnings[0]!, /OLLAMA_CONTEXT_LENGTH=16384/);
  assert.match(warnings[0]!, /--num-ctx\) to 4096/);

  // More requests: no second lookup, no second warning.
  manager.recordUsage({ promptTokens: 90 });
  await manager.prepareMessages(conversation(70), signal);
  assert.equal(provider.psCalls, 1);
  assert.equal(warnings.length, 1);

  // The next session against the same server and model starts right, before its first request.
  const next = createContextManager({ provider: new RunningContextModel(4096), model: 'qwen3:8b', contextSize: 16384, calibrationStore: kv });
  await next.prepareMessages(conversation(10), signal);
  assert.equal(next.status().window, 4096);
  assert.equal(next.status().windowSource, 'remembered');
  // …but not with another num_ctx (the memory is for what was asked), nor for another model.
  const other = createContextManager({ provider: new RunningContextModel(4096), model: 'qwen3:8b', contextSize: 8192, calibrationStore: kv });
  await other.prepareMessages(conversation(10), signal);
  assert.equal(other.status().window, 8192);
  const otherModel = createContextManager({ provider: new RunningContextModel(4096), model: 'llama3.2', contextSize: 16384, calibrationStore: kv });
  await otherModel.prepareMessages(conversation(10), signal);
  assert.equal(otherModel.status().window, 16384);
});

test('a fixed server gets its window back: a count above the remembered window restores it and forgets the correction', async () => {
  const kv = new MemoryKv();
  const first = createContextManager({ provider: new RunningContextModel(4096), model: 'qwen3:8b', contextSize: 16384, calibrationStore: kv });
  await first.prepareMessages(conversation(10), signal);
  first.recordUsage({ promptTokens: 40 });
  await first.prepareMessages(conversation(12), signal);
  assert.equal(first.status().window, 4096);

  const changes: Array<{ window: number; source: string }> = [];
  // The user restarted Ollama with OLLAMA_CONTEXT_LENGTH=16384 (its /api/ps no longer says less).
  const fixed = new RunningContextModel(16384);
  const second = createContextManager({ provider: fixed, model: 'qwen3:8b', contextSize: 16384, calibrationStore: kv, onWindowChange: (c) => changes.push(c) });
  await second.prepareMessages(conversation(10), signal);
  assert.equal(second.status().windowSource, 'remembered');
  second.recordUsage({ promptTokens: 40 });
  await second.prepareMessages(conversation(12), signal);
  assert.equal(second.status().window, 16384);
  assert.deepEqual(changes.map((c) => [c.window, c.source]), [[16384, 'num_ctx']]);
  const third = createContextManager({ provider: new RunningContextModel(undefined), model: 'qwen3:8b', contextSize: 16384, calibrationStore: kv });
  await third.prepareMessages(conversation(10), signal);
  assert.equal(third.status().window, 16384, 'the correction is forgotten');
});

test('a server that does not tell (no /api/ps context_length) changes nothing by itself', async () => {
  const provider = new RunningContextModel(undefined);
  const warnings: string[] = [];
  const manager = createContextManager({ provider, model: 'qwen3:8b', contextSize: 16384, onWarning: (m) => warnings.push(m) });
  await manager.prepareMessages(conversation(10), signal);
  manager.recordUsage({ promptTokens: 40 });
  await manager.prepareMessages(conversation(12), signal);
  assert.equal(manager.status().window, 16384);
  assert.deepEqual(warnings, []);
});

test('Ollama with nothing configured: the window is the num_ctx the provider sends by default, not the model maximum', async () => {
  const manager = createContextManager({ provider: new RunningContextModel(undefined, { contextLength: 131072, defaultContextSize: 32768 }), model: 'qwen3:8b' });
  await manager.prepareMessages(conversation(10), signal);
  assert.equal(manager.status().window, 32768);
  assert.equal(manager.status().windowSource, 'num_ctx');
});

test('an unknown model name gets one notice naming the fallback window and the setting', async () => {
  const warnings: string[] = [];
  // An OpenAI-compatible server (the window is fixed at load time) whose model list lacks the name.
  const provider = new RunningContextModel(undefined, { listed: false }, false);
  const manager = createContextManager({ provider, model: 'qwen3:8b-typo', onWarning: (m) => warnings.push(m) });
  await manager.prepareMessages(conversation(10), signal);
  manager.recordUsage({ promptTokens: 40 });
  await manager.prepareMessages(conversation(12), signal);
  assert.equal(manager.status().window, 4096);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /does not list the model "qwen3:8b-typo"/);
  assert.match(warnings[0]!, /assuming 4,096 tokens/);
  assert.match(warnings[0]!, /localharness\.contextSize \(CLI: --num-ctx N\)/);
});

test('the compression budget: never more calls than the work, per turn and per session; a missed target waits for growth; two failures end it', () => {
  const budget = new CompressionBudget({ share: 0.5, minPassCalls: 2, retryGrowth: 0.25, maxFailures: 2, maxIterations: 15 });
  budget.startTurn();
  budget.recordWork();
  assert.equal(budget.permit(5000, 8192).calls, 0, 'one call of work: a pass of two would cost more than the work');
  budget.recordWork();
  assert.equal(budget.permit(5000, 8192).calls, 2);
  budget.recordPass(2, { targetMet: false, failed: false }, 5000);
  for (let i = 0; i < 6; i++) budget.recordWork();
  const waiting = budget.permit(5500, 8192);
  assert.equal(waiting.calls, 0);
  assert.match(waiting.skipped ?? '', /missed its target/);
  const grown = budget.permit(5000 + 8192 * 0.25, 8192);
  assert.ok(grown.calls >= 2 && grown.calls <= 6, `calls ${grown.calls}`);
  assert.deepEqual(budget.snapshot(), { used: 2, limit: 8 });

  budget.startTurn();
  budget.recordWork();
  budget.recordWork();
  budget.recordWork();
  assert.equal(budget.permit(9000, 8192).calls, 3, 'per turn: at most the turn’s own calls');
  assert.equal(budget.recordPass(3, { targetMet: true, failed: true }, 9000).disabledNow, false);
  budget.recordWork();
  budget.recordWork();
  budget.recordWork();
  assert.equal(budget.recordPass(2, { targetMet: true, failed: true }, 9000).disabledNow, true);
  assert.match(budget.permit(20000, 8192).skipped ?? '', /twice did not carry out/);
});
