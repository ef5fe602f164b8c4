// Every tool call in the history gets a result, even when a loop-breaking tool ends the turn before the
// calls after it ran: otherwise the next request is malformed on OpenAI-compatible servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptedProvider } from './scriptedProvider';
import { TurnHarness } from './turnHarness';

test('calls after task_completion in the same reply get a "not run" result', async () => {
  const provider = new ScriptedProvider([
    {
      deltas: [
        { type: 'tool_call', call: { id: 'c1', name: 'task_completion', arguments: '{"result":"All done."}' } },
        { type: 'tool_call', call: { id: 'c2', name: 'write_file', arguments: '{"path":"late.txt","content":"x"}' } },
        { type: 'done', finishReason: 'tool_calls' },
      ],
    },
  ]);
  const h = await TurnHarness.create(provider, { settings: { toolProtocol: 'native' } });
  try {
    const outcome = await h.run('finish');
    assert.equal(outcome.reason, 'task_completion');
    const results = h.history.filter((m) => m.role === 'tool');
    assert.deepEqual(results.map((m) => m.toolCallId), ['c1', 'c2']);
    assert.match(results[1]!.content, /Not run: task_completion ended the turn first/);
  } finally {
    await h.dispose();
  }
});
