// In a small window the session summary is the last thing that can give way before the budget gate stops the
// turn: its oldest lines are dropped (the newest lines and the files list stay) when that leaves enough room
// for the answer. Without this the 4k file task stopped near its end on some runs, a few tokens short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import { ContextBudgetError } from '../../../src/core/window/budgetError';
import type { ChatMessage } from '../../../src/core/messages';
import { estimateMessageTokens } from '../../../src/core/tokens';
import { GarbageModel } from '../../helpers/compression/compressionModels';

const WINDOW = 4000;
const signal = new AbortController().signal;

function manager() {
  const lines = Array.from({ length: 80 }, (_, i) => `Tool read_file src/module${i}.ts: ok`);
  return createContextManager({
    provider: new GarbageModel(),
    model: 'test-model',
    window: WINDOW,
    compressionModel: null,
    // A fixed room for the answer, as a user who set it has (unset, it follows the replies and starts at 512).
    settings: { minAnswerTokens: 1500 },
    initialState: { evictedThrough: 0, summary: { lines, omitted: 0, files: [['src/module79.ts', 'read']] } },
  });
}

/** A user message of about `tokens` estimated tokens (protected: it can be neither compressed nor evicted). */
function userMessage(tokens: number): ChatMessage {
  const m: ChatMessage = { role: 'user', content: '' };
  while (estimateMessageTokens(m) < tokens) m.content += 'Please keep every word of this request in mind. ';
  return m;
}

const system: ChatMessage = { role: 'system', content: 'You are a coding agent.' };

test('the summary shrinks to leave room for the answer instead of stopping the turn', async () => {
  const context = manager();
  // With the whole summary (10% of the window, ~400 tokens) this is ~2,650 of the 2,500 allowed.
  const out = await context.prepareMessages([system, userMessage(2200)], signal);
  const status = context.status();
  assert.ok(WINDOW - status.used >= 1500, `used ${status.used}`);
  // The summary opens the first message after the system prompt, which stays as it is.
  assert.equal(out[0], system);
  const prompt = out[1]!.content;
  assert.match(prompt, /^# Session summary/);
  assert.match(prompt, /- \(\d+ earlier steps not listed\)/);
  assert.match(prompt, /src\/module79\.ts: ok/, 'the newest lines stay');
  assert.doesNotMatch(prompt, /src\/module0\.ts: ok/, 'the oldest lines go');
  assert.match(prompt, /Files touched: src\/module79\.ts \(read\)/);
  // The stored summary itself is untouched: only what this request shows was shortened.
  assert.equal(context.state().summary?.lines.length, 80);
});

test('when even no summary lines would not leave room, the gate still stops with its message', async () => {
  const context = manager();
  await assert.rejects(context.prepareMessages([system, userMessage(2600)], signal), (err: unknown) => {
    assert.ok(err instanceof ContextBudgetError);
    assert.match(err.message, /the context window is full/);
    return true;
  });
});
