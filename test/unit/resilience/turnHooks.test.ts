// createTurnHooks through the real turn runner, real tools and a real temp workspace, with scripted models
// that misbehave in one specific way each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError } from '../../../src/core/provider';
import { DEFAULT_POLICY_MESSAGES } from '../../../src/core/analysis/policyConfig';
import { TEXT_PROTOCOL_HEADER } from '../../../src/core/toolProtocol/textPrompt';
import { ScriptedProvider, refused, serverError, streamCut, textReply, toolReply } from './scriptedProvider';
import { TurnHarness, block } from './turnHarness';

async function withHarness(provider: ScriptedProvider, options: Parameters<typeof TurnHarness.create>[1], body: (h: TurnHarness) => Promise<void>) {
  const h = await TurnHarness.create(provider, options);
  try {
    await body(h);
  } finally {
    await h.dispose();
  }
}

test('a model that stops halfway is nudged to continue and finishes', async () => {
  const provider = new ScriptedProvider([
    toolReply('write_file', { path: 'a.txt', content: 'A' }),
    textReply("I've created a.txt. Next I will create b.txt."),
    toolReply('write_file', { path: 'b.txt', content: 'B' }),
    textReply('Both files have been created.'),
  ]);
  await withHarness(provider, { settings: { toolProtocol: 'native' } }, async (h) => {
    const outcome = await h.run('Create a.txt and b.txt');
    assert.equal(outcome.reason, 'completed');
    assert.equal(outcome.result, 'Both files have been created.');
    assert.equal(await h.read('b.txt'), 'B');
    assert.equal(h.notices().length, 1);
    assert.match(h.notices()[0]!, /Nudged the model to continue \(1\/3\)/);
    const third = provider.requests[2]!.messages;
    assert.equal(third[third.length - 1]!.content, DEFAULT_POLICY_MESSAGES.continuation);
    assert.equal(provider.remaining, 0);
  });
});

test('a model that deflects is told to use its tools', async () => {
  const provider = new ScriptedProvider([
    textReply("I'm sorry, but I can't access your files."),
    toolReply('write_file', { path: 'hello.txt', content: 'hi' }),
    textReply('I created hello.txt.'),
  ]);
  await withHarness(provider, { settings: { toolProtocol: 'native' } }, async (h) => {
    const outcome = await h.run('Create hello.txt');
    assert.equal(outcome.reason, 'completed');
    assert.equal(await h.read('hello.txt'), 'hi');
    assert.match(h.notices()[0]!, /declined to use its tools/);
    assert.equal(provider.requests[1]!.messages.at(-1)!.content, DEFAULT_POLICY_MESSAGES.deflection);
  });
});

test('empty replies: two retries, then a summary request without tools; the user gets an answer', async () => {
  const provider = new ScriptedProvider([
    toolReply('write_file', { path: 'a.txt', content: 'A' }),
    textReply(''),
    textReply('<think>…</think>'),
    textReply(''),
    textReply('I created a.txt; b.txt is not done yet.'),
  ]);
  await withHarness(provider, { settings: { toolProtocol: 'native' } }, async (h) => {
    const outcome = await h.run('Create a.txt and b.txt');
    assert.equal(outcome.reason, 'completed');
    assert.equal(outcome.result, 'I created a.txt; b.txt is not done yet.');
    assert.deepEqual(
      provider.requests.map((r) => r.tools.length > 0),
      [true, true, true, true, false],
      'only the final summary request goes without tools',
    );
    assert.equal(provider.requests[4]!.messages.at(-1)!.content, DEFAULT_POLICY_MESSAGES.summary);
    assert.equal(h.notices().length, 3);
    assert.match(h.notices()[2]!, /summary of what it did, without tools/);
  });
});

test('a stream cut mid-reply is retried: text shown once, the tool runs once', async () => {
  const provider = new ScriptedProvider([
    { deltas: [{ type: 'text', text: 'Writing the file' }, { type: 'tool_call', call: { id: 'lost', name: 'write_file', arguments: '{"path":"n.txt","content":"1"}' } }], error: streamCut() },
    { deltas: [{ type: 'text', text: 'Writing the file' }, { type: 'tool_call', call: { id: 'kept', name: 'write_file', arguments: '{"path":"n.txt","content":"1"}' } }, { type: 'done', finishReason: 'tool_calls' }] },
    { deltas: [], error: serverError() },
    textReply(' — done. I wrote n.txt.'),
  ]);
  await withHarness(provider, { settings: { toolProtocol: 'native' } }, async (h) => {
    const outcome = await h.run('Write n.txt');
    assert.equal(outcome.reason, 'completed');
    assert.equal(h.shownText(), 'Writing the file — done. I wrote n.txt.');
    assert.deepEqual(h.toolResults().map((r) => r.name), ['write_file']);
    const calls = h.events.flatMap((e) => (e.type === 'tool_call' ? [e.id] : []));
    assert.deepEqual(calls, ['kept']);
    assert.equal(h.notices().filter((n) => /retrying/.test(n)).length, 2);
  });
});

test('when the primary is down the turn continues on the fallback model, and says so', async () => {
  const primary = new ScriptedProvider([{ deltas: [], error: refused() }], { id: 'ollama', baseUrl: 'http://127.0.0.1:11434' });
  const fallback = new ScriptedProvider([toolReply('write_file', { path: 'f.txt', content: 'F' }), textReply('I wrote f.txt.')], { baseUrl: 'http://127.0.0.1:1234' });
  await withHarness(primary, { fallbacks: [{ provider: fallback, model: 'backup' }], settings: { toolProtocol: 'native' } }, async (h) => {
    const outcome = await h.run('Write f.txt');
    assert.equal(outcome.reason, 'completed');
    assert.equal(await h.read('f.txt'), 'F');
    assert.match(h.notices()[0]!, /Continuing with backup on the OpenAI-compatible server/);
    assert.equal(primary.requests.length, 1);
    assert.equal(fallback.requests.length, 2);
  });
});

test('when every model fails the turn ends with a plain error, not a rejection', async () => {
  const provider = new ScriptedProvider([{ deltas: [], error: serverError() }, { deltas: [], error: serverError() }, { deltas: [], error: serverError() }], { id: 'ollama', baseUrl: 'http://x' });
  await withHarness(provider, { settings: { toolProtocol: 'native' } }, async (h) => {
    const outcome = await h.run('Anything');
    assert.equal(outcome.reason, 'error');
    assert.match(outcome.error!, /^The model did not answer\. Tried scripted-model on Ollama at http:\/\/x: the server failed \(HTTP 500\) \(3 attempts\)\./);
    assert.equal(h.events.at(-1)!.type, 'turn_end');
    assert.ok(h.events.some((e) => e.type === 'error'));
  });
});

test('a model without tool support does a multi-step file task entirely through <tool> text', async () => {
  const provider = new ScriptedProvider(
    [
      textReply('I will create the file.\n', block('write_file', { path: 'notes.md', content: '# Notes\nold line\n' })),
      textReply('<think>Now check it.</think>', block('read_file', { path: 'notes.md' })),
      textReply('Fixing the line.\n<tool>{"server_name": "local", "tool_name": "edit_file", ', '"arguments": {"path": "notes.md", "old_text": "old line", "new_text": "new line"}}</tool>'),
      textReply(block('task_completion', { result: 'Created notes.md and replaced the old line.' })),
    ],
    { id: 'ollama', modelInfo: { name: 'tiny', capabilities: ['completion'] } },
  );
  await withHarness(provider, {}, async (h) => {
    const outcome = await h.run('Create notes.md, then change "old line" to "new line"');
    assert.equal(outcome.reason, 'task_completion');
    assert.equal(outcome.result, 'Created notes.md and replaced the old line.');
    assert.equal(await h.read('notes.md'), '# Notes\nnew line\n');
    const protocolNotice = h.events.findIndex((e) => e.type === 'notice' && /using text-based tool calls/.test(e.message));
    assert.ok(protocolNotice > h.events.findIndex((e) => e.type === 'turn_start'), 'the protocol notice comes inside the turn');
    assert.equal(h.shownText().includes('<tool>'), false, 'markup is hidden from the user');
    assert.equal(h.shownText().includes('Now check it'), false, 'thinking is not shown as answer text');
    for (const request of provider.requests) {
      assert.deepEqual(request.tools, [], 'no native tools are sent');
      assert.ok(request.messages[0]!.content.includes(TEXT_PROTOCOL_HEADER));
      assert.equal(request.messages.some((m) => m.role === 'tool' || m.toolCalls), false);
    }
    const second = provider.requests[1]!.messages;
    assert.match(second.at(-2)!.content, /<tool>\{"server_name":"local","tool_name":"write_file"/);
    assert.match(second.at(-1)!.content, /^\[Result of write_file\]\n/);
    assert.deepEqual(h.toolResults().map((r) => [r.name, r.ok]), [['write_file', true], ['read_file', true], ['edit_file', true], ['task_completion', true]]);
  });
});

test('xml mode: a broken call gets precise feedback and the loop goes on', async () => {
  const provider = new ScriptedProvider([
    textReply('<tool>{"server_name": "local", "tool_name": "write_file", "arguments": {"path": "a.txt", content: "x"}}</tool>'),
    textReply(block('writefile', { path: 'a.txt', content: 'x' })),
    textReply('<tool>{"server_name": "local", "arguments": {"path": "a.txt"}}</tool>'),
    textReply(block('write_file', { path: 'a.txt', content: 'x' })),
    textReply('I created a.txt.'),
  ]);
  // plainPrompt: the system prompt lacks the tool part, so callModel must add it.
  await withHarness(provider, { settings: { toolProtocol: 'xml' }, plainPrompt: true }, async (h) => {
    const outcome = await h.run('Create a.txt');
    assert.equal(outcome.reason, 'completed');
    assert.equal(await h.read('a.txt'), 'x');
    const feedback = provider.requests.slice(1, 4).map((r) => r.messages.at(-1)!.content);
    assert.match(feedback[0]!, /not valid JSON/);
    assert.match(feedback[1]!, /There is no tool "writefile".*Available tools: list_directory, read_file/);
    assert.match(feedback[2]!, /missing "tool_name"/);
    assert.ok(provider.requests[0]!.messages[0]!.content.includes(TEXT_PROTOCOL_HEADER));
    assert.equal(h.notices().filter((n) => /could not be read/.test(n)).length, 3);
  });
});

test('native mode: a tool call printed as JSON text is run', async () => {
  const provider = new ScriptedProvider([
    textReply('```json\n{"name": "write_file", "arguments": {"path": "j.txt", "content": "J"}}\n```'),
    textReply('I wrote j.txt.'),
  ]);
  await withHarness(provider, { settings: { toolProtocol: 'native' } }, async (h) => {
    const outcome = await h.run('Write j.txt');
    assert.equal(outcome.reason, 'completed');
    assert.equal(await h.read('j.txt'), 'J');
    assert.match(h.notices()[0]!, /wrote a tool call as text.*write_file/);
    const assistant = h.history.find((m) => m.role === 'assistant' && m.toolCalls)!;
    assert.equal(assistant.content, '', 'the JSON is not kept as text next to the call');
  });
});

test('the same call over and over: a warning at three, the turn stops at four', async () => {
  const same = () => toolReply('read_file', { path: 'loop.txt' });
  const provider = new ScriptedProvider([toolReply('write_file', { path: 'loop.txt', content: 'x' }), same(), same(), same(), same(), textReply('never reached')]);
  await withHarness(provider, { settings: { toolProtocol: 'native' } }, async (h) => {
    const outcome = await h.run('Read loop.txt');
    assert.equal(outcome.reason, 'error');
    assert.match(outcome.error!, /kept repeating the same read_file call \(4 times in a row\)/);
    assert.equal(h.toolResults().filter((r) => r.name === 'read_file').length, 3, 'the fourth call is not run');
    assert.match(provider.requests[4]!.messages.at(-1)!.content, /same arguments 3 times in a row/);
    // History stays valid for the next request: every call has a result.
    const last = h.history.at(-1)!;
    assert.equal(last.role, 'tool');
    assert.equal(last.content, 'Not run: the turn was stopped.');
    assert.equal(provider.remaining, 1);
  });
});

test('auto mode switches to <tool> text when the server refuses tools', async () => {
  const provider = new ScriptedProvider(
    [
      { deltas: [], error: new ProviderError('http', 'Ollama answered HTTP 400: registry.ollama.ai/library/tiny does not support tools.', { status: 400 }) },
      textReply(block('write_file', { path: 's.txt', content: 'S' })),
      textReply('I wrote s.txt.'),
    ],
    { id: 'ollama', modelInfo: new ProviderError('connection_refused', 'no /api/show') },
  );
  await withHarness(provider, {}, async (h) => {
    const outcome = await h.run('Write s.txt');
    assert.equal(outcome.reason, 'completed');
    assert.equal(await h.read('s.txt'), 'S');
    assert.ok(provider.requests[0]!.tools.length > 0);
    assert.deepEqual(provider.requests[1]!.tools, []);
    assert.ok(provider.requests[1]!.messages[0]!.content.includes(TEXT_PROTOCOL_HEADER));
    assert.ok(h.notices().some((n) => /does not support tool calling; switched/.test(n)));
  });
});

test('hooks reused across turns start each turn with fresh caps', async () => {
  const provider = new ScriptedProvider([
    textReply("I can't access your files."),
    textReply("I can't access your files."),
    textReply("I can't access your files."),
    textReply("I can't access your files."),
  ]);
  await withHarness(provider, { settings: { toolProtocol: 'native', policy: { maxDeflectionRetries: 1 } } }, async (h) => {
    assert.equal((await h.run('one')).rounds, 2);
    assert.equal((await h.run('two')).rounds, 2);
    assert.equal(h.notices().filter((n) => /declined/.test(n)).length, 2);
  });
});

test('invalid settings fail fast with a readable message', async () => {
  await assert.rejects(TurnHarness.create(new ScriptedProvider([]), { settings: { toolProtocol: 'json' as never } }), /Invalid agent settings: toolProtocol:/);
  await assert.rejects(TurnHarness.create(new ScriptedProvider([]), { settings: { retry: { maxRetries: 99 } } }), /retry\.maxRetries/);
});

test('in a read-only workspace a refusal to edit is the right answer and is not retried', async () => {
  const provider = new ScriptedProvider([
    toolReply('read_file', { path: 'config.txt' }),
    textReply('I cannot edit files here; trust the workspace and I will change the port.'),
  ]);
  await withHarness(provider, { settings: { toolProtocol: 'native' }, allowedRisks: ['read'] }, async (h) => {
    const outcome = await h.run('Change the port');
    // It only read before answering: the answer ends the turn, without a task_completion reminder (a model call saved).
    assert.equal(outcome.reason, 'completed');
    assert.equal(outcome.result, 'I cannot edit files here; trust the workspace and I will change the port.');
    assert.equal(provider.requests.length, 2);
    assert.equal(h.notices().some((n) => /Reminded the model/.test(n)), false);
    assert.ok(provider.requests[0]!.tools.every((t) => ['list_directory', 'read_file', 'search_files', 'todo_read', 'task_completion', 'ask_question', 'todo_write'].includes(t.name)));
    assert.equal(h.notices().some((n) => /declined/.test(n)), false);
  });
});

test("a setup check's finding decides auto for its provider and model, and says so; an explicit setting wins", async () => {
  const asked: string[] = [];
  const checkedProtocol = async (server: { id: string; baseUrl: string }, model: string) => {
    asked.push(`${server.id} ${model}`);
    return model === 'scripted-model' ? { protocol: 'xml' as const, notice: 'The setup check (2026-11-27) found that scripted-model does not call tools natively.' } : undefined;
  };
  const provider = new ScriptedProvider([textReply(block('write_file', { path: 'c.txt', content: 'C' })), textReply('I wrote c.txt.')], { id: 'ollama' });
  await withHarness(provider, { checkedProtocol }, async (h) => {
    assert.equal((await h.run('Write c.txt')).reason, 'completed');
    assert.equal(await h.read('c.txt'), 'C');
    assert.deepEqual(provider.requests[0]!.tools, [], 'no native tools from the first request');
    assert.deepEqual(h.notices().filter((n) => /setup check/.test(n)), ['The setup check (2026-11-27) found that scripted-model does not call tools natively.']);
    assert.deepEqual(asked, ['ollama scripted-model']);
  });

  const native = new ScriptedProvider([toolReply('write_file', { path: 'd.txt', content: 'D' }), textReply('I wrote d.txt.')], { id: 'ollama' });
  await withHarness(native, { checkedProtocol, settings: { toolProtocol: 'native' } }, async (h) => {
    assert.equal((await h.run('Write d.txt')).reason, 'completed');
    assert.ok(native.requests[0]!.tools.length > 0, 'the explicit setting wins');
    assert.equal(asked.length, 1, 'not consulted for an explicit setting');
  });

  const other = new ScriptedProvider([toolReply('write_file', { path: 'e.txt', content: 'E' }), textReply('I wrote e.txt.')], { id: 'ollama' });
  await withHarness(other, { checkedProtocol, model: 'other-model' }, async (h) => {
    assert.equal((await h.run('Write e.txt')).reason, 'completed');
    assert.ok(other.requests[0]!.tools.length > 0, 'another model without a finding goes by the server');
    assert.deepEqual(asked, ['ollama scripted-model', 'ollama other-model']);
  });
});
