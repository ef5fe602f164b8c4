// The budget gate before each model call: compress first when the answer would not fit; stop with a clear
// message when even that is not enough — and the turn runner turns that into an error event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import { ContextBudgetError } from '../../../src/core/window/budgetError';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { runTurn } from '../../../src/core/agent/turnRunner';
import { ApprovalGate } from '../../../src/core/approval/gate';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import type { ChatMessage } from '../../../src/core/messages';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { CompressingModel } from '../../helpers/compression/compressionModels';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;

test('when less than minAnswerTokens would remain, it compresses first even under the threshold', async () => {
  const history = scriptedSession({ messages: 30, seed: 5, fileChars: 1500 });
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: new CompressingModel(),
    model: 'test-model',
    window: 8192,
    tools: () => SESSION_TOOLS,
    settings: { compressAt: 0.95, compressTo: 0.4, minAnswerTokens: 3000 },
    onCompression: (r) => reports.push(r),
  });
  const out = await manager.prepareMessages([systemMessage(), ...history], signal);
  assert.equal(reports.length, 1);
  const report = reports[0]!;
  assert.equal(report.reason, 'budget');
  assert.ok(report.tokensBefore > 8192 - 3000 && report.tokensBefore < 8192 * 0.95, `before ${report.tokensBefore}`);
  assert.ok(manager.status().free >= 3000);
  assert.ok(out.length > 0);
});

test('when compression cannot make room, it stops with a ContextBudgetError that says why and what to do', async () => {
  const hugeSystem: ChatMessage = { role: 'system', content: 'Follow these project rules carefully. '.repeat(700) };
  const manager = createContextManager({ provider: new CompressingModel(), model: 'test-model', window: 4096, tools: () => SESSION_TOOLS });
  await assert.rejects(
    () => manager.prepareMessages([hugeSystem, { role: 'user', content: 'Fix the failing test.' }], signal),
    (err: unknown) => {
      assert.ok(err instanceof ContextBudgetError);
      assert.match(err.message, /^Stopped before calling the model: the context window is full\./);
      // No reply seen yet: the answer's room is the adaptive reserve's floor (answerReserve.ts).
      assert.match(err.message, /The system prompt \([\d,]+ tokens\) and tool definitions \([\d,]+\) alone leave less than 512 of the 4,096-token window/);
      assert.match(err.message, /larger context window/);
      assert.equal(err.details.window, 4096);
      assert.equal(err.details.minAnswerTokens, 512);
      return true;
    },
  );
});

test('a conversation whose protected part alone overflows is stopped, not sent', async () => {
  // Three huge user messages: all protected, nothing to compress or evict.
  const history: ChatMessage[] = [];
  for (let i = 0; i < 3; i++) {
    history.push({ role: 'user', content: `Here is log ${i}:\n` + 'ERROR 2024-05-01 worker crashed at step 17 with code 3\n'.repeat(200) });
    history.push({ role: 'assistant', content: 'I see the crash.' });
  }
  const model = new CompressingModel();
  const manager = createContextManager({ provider: model, model: 'test-model', window: 8192 });
  await assert.rejects(() => manager.prepareMessages([systemMessage(), ...history], signal), ContextBudgetError);
  assert.equal(model.requests.length, 0, 'nothing was compressible, so the model was not asked');
});

test('the turn runner turns the budget error into an error event and never calls the model', async () => {
  const model = new CompressingModel();
  const bus = new EventBus();
  const events: AgentEvent[] = [];
  bus.on((e) => events.push(e));
  const manager = createContextManager({ provider: model, model: 'test-model', window: 2048 });
  const fs = new NodeFileSystem();
  const outcome = await runTurn(
    [],
    'Summarise the repository.',
    {
      provider: model,
      model: 'test-model',
      registry: new ToolRegistry(),
      gate: new ApprovalGate({ policy: { autoApprove: [], rules: [] } }),
      bus,
      toolContext: { roots: new WorkspaceRoots([{ name: 'ws', path: process.cwd() }], fs), fs, runner: new NodeProcessRunner(), tracker: new ContextTracker() },
      buildSystemPrompt: () => 'You are a careful agent. '.repeat(300),
      hooks: manager.hooks,
    },
    signal,
  );
  assert.equal(outcome.reason, 'error');
  assert.match(outcome.error ?? '', /^Stopped before calling the model/);
  const errors = events.filter((e) => e.type === 'error');
  assert.equal(errors.length, 1);
  assert.match((errors[0] as { message: string }).message, /^Stopped before calling the model/);
  assert.equal(model.requests.length, 0);
});
