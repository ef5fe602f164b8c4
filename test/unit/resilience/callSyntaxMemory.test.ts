// The syntax the setup check saw a model print its calls in, through a real turn: the session's notice names it,
// and a correction for an unreadable call tells the model to write a native call or its own syntax whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptedProvider, textReply } from './scriptedProvider';
import { TurnHarness } from './turnHarness';

test('a remembered family syntax: the notice says it, and the one correction names native calls and that syntax', async () => {
  const answer = 'There is no a.txt to read; nothing to do.';
  // The answer again for each of the policy's task_completion reminders.
  const provider = new ScriptedProvider([textReply('{"name": "read_file", "arguments": {"path": "a.txt"'), textReply(answer), textReply(answer), textReply(answer)]);
  const h = await TurnHarness.create(provider, {
    checkedProtocol: async () => ({ protocol: 'native', callSyntax: 'devstral', notice: 'The setup check found that scripted-model writes its tool calls as text (Devstral).' }),
  });
  try {
    const outcome = await h.run('Read a.txt');
    assert.equal(outcome.reason, 'completed');
    assert.ok(h.notices().includes('The setup check found that scripted-model writes its tool calls as text (Devstral).'));
    assert.equal(h.notices().filter((n) => /could not be read/.test(n)).length, 1);
    const correction = provider.requests[1]!.messages.at(-1)!.content;
    assert.match(correction, /^Your tool call could not be run:\n- The call to read_file written as JSON text could not be read: it stopped before its end\./);
    assert.match(correction, /Make each call a native tool call/);
    assert.match(correction, /write it whole in Devstral \/ Ministral 3 `\[TOOL_CALLS\]NAME\[ARGS\]\{…\}`/);
    assert.equal(h.shownText(), answer.repeat(provider.requests.length - 1));
    assert.equal(provider.requests[0]!.tools.length > 0, true, 'native calls stay');
  } finally {
    await h.dispose();
  }
});
