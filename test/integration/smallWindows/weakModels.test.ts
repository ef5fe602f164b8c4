// The scripted weak models themselves: each reply follows from the request alone (same request, same reply,
// whatever came before), in both wire shapes; and the fake servers' window behaviour (/api/ps, silent cuts).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { FILE_TASK, kindOf, noteText } from '../../helpers/tasks/fileTask';
import { startFakeOllamaServer, type ChatBody, type FakeServerHandle } from '../../helpers/fakeLlm';
import {
  FORGOT_TEXT,
  GIVE_UP_TEXT,
  IGNORED_TEXT,
  TruncatingWindow,
  chatAnswer,
  chatModel,
  chatQuestion,
  followsCompression,
  ignoresCompression,
  isCompressionRequest,
  mcpRenameModel,
  renameTaskModel,
} from '../../helpers/weakModels';
import { proxyPromptTokens } from '../../helpers/fakeLlm/windowedScript';
import { COMPRESSION_REQUEST_HEAD } from '../../../src/core/compression/modelPass';

type Wire = 'openai' | 'ollama';
interface Step {
  call: { name: string; args: Record<string, unknown> };
  result: string;
}

const BUILTIN_TOOLS = ['list_directory', 'read_file', 'move_file', 'task_completion'];
const SYSTEM = 'You are Local Harness.\nEnvironment: Linux, shell /bin/sh. Workspace: /tmp/lh-x/ws.';

function tools(names: string[]): ChatBody['tools'] {
  return names.map((name) => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } }));
}

/** A request as the CLI sends it over `wire`: system, the user task, then each call with its result. */
function request(wire: Wire, steps: Step[], options: { task?: string | null; system?: string; tools?: string[] } = {}): ChatBody {
  const messages: Array<Record<string, unknown>> = [{ role: 'system', content: options.system ?? SYSTEM }];
  if (options.task !== null) messages.push({ role: 'user', content: options.task ?? FILE_TASK });
  steps.forEach((s, i) => {
    if (wire === 'openai') {
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: s.call.name, arguments: JSON.stringify(s.call.args) } }] });
      messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: s.result });
    } else {
      messages.push({ role: 'assistant', content: '', tool_calls: [{ function: { name: s.call.name, arguments: s.call.args } }] });
      messages.push({ role: 'tool', tool_name: s.call.name, content: s.result });
    }
  });
  return { model: 'm', messages, tools: tools(options.tools ?? BUILTIN_TOOLS) };
}

function listing(names: string[], total = names.length): string {
  return `Workspace root: 0 directories, ${total} files\n${names.map((n) => `[file] ${n} (2.0 KB)`).join('\n')}`;
}
const LIST: Step = { call: { name: 'list_directory', args: { path: '.' } }, result: listing(['note-01.txt', 'note-02.txt', 'note-03.txt']) };
const read = (n: number): Step => ({ call: { name: 'read_file', args: { path: `note-0${n}.txt` } }, result: `note-0${n}.txt (5 lines):\n${noteText(n)}` });
const move = (n: number, result = `Moved note-0${n}.txt to ${kindOf(n)}-0${n}.txt.`): Step => ({
  call: { name: 'move_file', args: { source: `note-0${n}.txt`, destination: `${kindOf(n)}-0${n}.txt` } },
  result,
});

function only(reply: ReturnType<ReturnType<typeof renameTaskModel>>): { name: string; args: unknown } {
  assert.equal(reply.toolCalls?.length, 1, JSON.stringify(reply));
  return { name: reply.toolCalls[0]!.name, args: reply.toolCalls[0]!.arguments };
}

for (const wire of ['openai', 'ollama'] as const) {
  describe(`renameTaskModel over ${wire} requests`, () => {
    test('decides from the request alone: list, read, rename, then report', () => {
      const model = renameTaskModel({ trustsTrimmed: false });
      const steps = [LIST, read(1), move(1), read(2), move(2), read(3), move(3)];
      const expected = [
        { name: 'list_directory', args: { path: '.' } },
        { name: 'read_file', args: { path: 'note-01.txt' } },
        { name: 'move_file', args: { source: 'note-01.txt', destination: `${kindOf(1)}-01.txt` } },
        { name: 'read_file', args: { path: 'note-02.txt' } },
        { name: 'move_file', args: { source: 'note-02.txt', destination: `${kindOf(2)}-02.txt` } },
        { name: 'read_file', args: { path: 'note-03.txt' } },
        { name: 'move_file', args: { source: 'note-03.txt', destination: `${kindOf(3)}-03.txt` } },
        { name: 'task_completion', args: { result: 'Renamed 3 notes after their kind.' } },
      ];
      // Asked out of order and twice, it answers the same: nothing is remembered between calls.
      for (const k of [7, 0, 3, 3, 5, 1, 6, 2, 4, 7]) assert.deepEqual(only(model(request(wire, steps.slice(0, k)))), expected[k], `after ${k} steps`);
      assert.deepEqual(only(renameTaskModel({ trustsTrimmed: false })(request(wire, steps.slice(0, 4)))), expected[4]);
      assert.deepEqual(model.failures, []);
    });

    test('a move reported in the session summary or a later listing counts as done', () => {
      const model = renameTaskModel({ trustsTrimmed: false });
      const system = `${SYSTEM}\n\n# Session summary\nEarlier messages left the context window to make room. What happened in them:\n- User: ${FILE_TASK}\n- Tool move_file note-01.txt → ${kindOf(1)}-01.txt: ok`;
      assert.deepEqual(only(model(request(wire, [LIST], { system, task: null }))).args, { path: 'note-02.txt' });
      const relisted: Step = { call: LIST.call, result: listing([`${kindOf(1)}-01.txt`, `${kindOf(2)}-02.txt`, 'note-03.txt']) };
      assert.deepEqual(only(model(request(wire, [relisted]))).args, { path: 'note-03.txt' });
    });

    test('a cut listing: believed when trustsTrimmed, listed again otherwise', () => {
      const cut: Step = { call: LIST.call, result: `[Compressed] list_directory . (700 chars, 13 lines)\n${listing(['note-01.txt', 'note-02.txt'], 12)}\n[file] no…` };
      const steps = [cut, read(1), move(1), read(2), move(2)];
      assert.equal(only(renameTaskModel({ trustsTrimmed: true })(request(wire, steps))).name, 'task_completion');
      assert.deepEqual(only(renameTaskModel({ trustsTrimmed: false })(request(wire, steps))), { name: 'list_directory', args: { path: '.' } });
      // With work left it does not re-list first: it carries on with what it knows.
      assert.equal(only(renameTaskModel({ trustsTrimmed: false })(request(wire, steps.slice(0, 3)))).name, 'read_file');
    });

    test('forgets a task that is not in the request; records failed and repeated moves once', () => {
      const model = renameTaskModel({ trustsTrimmed: false });
      const forgot = model(request(wire, [LIST, read(1)], { task: null }));
      assert.equal(forgot.text, FORGOT_TEXT);
      assert.equal(forgot.toolCalls, undefined);
      assert.equal(model.failures.length, 1);
      assert.match(model.failures[0]!, /forgot the task/);

      const failed = [LIST, read(1), move(1, 'Source "note-01.txt" does not exist. Check the path with list_directory.')];
      model(request(wire, failed));
      model(request(wire, [...failed, read(2)]));
      assert.equal(model.failures.length, 2, model.failures.join('\n'));
      assert.match(model.failures[1]!, /move of note-01\.txt failed/);
    });
  });

  describe(`compression models over ${wire} requests`, () => {
    // The pass continues the conversation: the same messages, then its request listing what to summarise.
    const passRequest = (listed: string, earlier: Array<{ role: string; content: string }> = []): ChatBody => {
      const body = request(wire, [LIST, read(1), read(2)]);
      body.messages!.push(
        ...earlier,
        {
          role: 'user',
          content:
            `${COMPRESSION_REQUEST_HEAD}\nReply with only a JSON object…\nContext: 3,000 of 4,096 tokens (73%), target ≤ 1,638; 1,362 tokens to go.\nMessages (oldest first):\n${listed}`,
        },
      );
      return body;
    };
    const LISTED =
      '#2 tool result ~120 tok: list_directory . (400 chars, 13 lines)\n' +
      '#4 tool result ~560 tok: read_file note-01.txt lines all 5 (1,990 chars, 5 lines)\n' +
      '#6 tool result ~560 tok: read_file note-02.txt lines all 5 (1,990 chars, 5 lines)';

    test('follows: answers the first request clumsily (an object for a list, an id as text, a stray field), then as asked', () => {
      assert.ok(isCompressionRequest(passRequest(LISTED)));
      assert.ok(!isCompressionRequest(request(wire, [LIST, read(1)])), 'the agent’s own requests are not the pass’s');
      const clumsy = followsCompression(passRequest(LISTED)).text!;
      assert.match(clumsy, /^Here are the summaries:\n```json\n/);
      const body = JSON.parse(clumsy.split('\n').slice(2, -1).join('\n')) as { summaries: Record<string, unknown> };
      assert.ok(!Array.isArray(body.summaries), 'one object where a list was asked for');
      assert.equal(body.summaries.id, '#2', 'the id as a string');
      assert.equal(body.summaries.ok, true, 'a field nobody asked for');

      const next = followsCompression(
        passRequest('#6 tool result ~560 tok: read_file note-02.txt lines all 5 (1,990 chars, 5 lines)', [
          { role: 'user', content: `${COMPRESSION_REQUEST_HEAD}\n…` },
          { role: 'assistant', content: clumsy },
        ]),
      ).text!;
      assert.deepEqual(JSON.parse(next), { summaries: [{ id: 6, summary: 'read_file note-02.txt lines all 5 (1,990 chars, 5 lines)' }] });
    });

    test('ignores: prose without JSON, then an empty reply', () => {
      assert.deepEqual(ignoresCompression(passRequest(LISTED)), { text: IGNORED_TEXT });
      assert.deepEqual(ignoresCompression(passRequest(LISTED, [{ role: 'user', content: `${COMPRESSION_REQUEST_HEAD}\n…` }, { role: 'assistant', content: IGNORED_TEXT }])), { text: '' });
    });
  });

  describe(`chatModel over ${wire} requests`, () => {
    test('reads the note it is asked about, answers from the read result, finishes when reminded', () => {
      const model = chatModel();
      const ask = { task: chatQuestion(2) };
      assert.deepEqual(model(request(wire, [], ask)).toolCalls, [{ name: 'read_file', arguments: { path: 'note-02.txt' } }]);
      const answer = chatAnswer('note-02.txt', kindOf(2));
      assert.deepEqual(model(request(wire, [read(2)], ask)), { text: answer });
      const reminded = request(wire, [read(2)], ask);
      reminded.messages!.push({ role: 'assistant', content: answer }, { role: 'user', content: 'If the task is finished, call the task_completion tool.' });
      assert.deepEqual(model(reminded).toolCalls, [{ name: 'task_completion', arguments: { result: answer } }]);
      // Another note's read result does not answer this question.
      assert.equal(model(request(wire, [read(1)], ask)).toolCalls?.[0]?.name, 'read_file');
      assert.deepEqual(model.failures, []);
    });
  });

  describe(`mcpRenameModel over ${wire} requests`, () => {
    test('prefers the built-ins, else the MCP tools with absolute paths, else tool_search, else gives up', () => {
      const model = mcpRenameModel();
      const first = model(request(wire, []));
      assert.deepEqual(first.toolCalls, [{ name: 'list_directory', arguments: { path: '.', recursive: true } }], 'an extra argument on the first call');
      const mcpOnly = ['files__list_directory', 'files__read_text_file', 'files__move_file', 'task_completion'];
      const mcpList: Step = { call: { name: 'files__list_directory', args: { path: '/tmp/lh-x/ws' } }, result: '[FILE] note-01.txt\n[FILE] note-02.txt' };
      assert.deepEqual(model(request(wire, [mcpList], { tools: mcpOnly })).toolCalls, [{ name: 'files__read_text_file', arguments: { path: '/tmp/lh-x/ws/note-01.txt' } }]);
      const mcpRead: Step = { call: { name: 'files__read_text_file', args: { path: '/tmp/lh-x/ws/note-01.txt' } }, result: noteText(1) };
      assert.deepEqual(model(request(wire, [mcpList, mcpRead], { tools: mcpOnly })).toolCalls, [
        { name: 'files__move_file', arguments: { source: '/tmp/lh-x/ws/note-01.txt', destination: `/tmp/lh-x/ws/${kindOf(1)}-01.txt` } },
      ]);
      assert.deepEqual(model(request(wire, [mcpList, mcpRead], { tools: ['files__read_text_file', 'tool_search'] })).toolCalls, [
        { name: 'tool_search', arguments: { query: 'move file' } },
      ]);
      assert.deepEqual(model.failures, []);
      const searched: Step = { call: { name: 'tool_search', args: { query: 'move file' } }, result: 'No tools match "move file".' };
      assert.deepEqual(model(request(wire, [mcpList, mcpRead, searched], { tools: ['files__read_text_file', 'tool_search'] })), { text: GIVE_UP_TEXT });
      assert.equal(model.failures.length, 1);
    });
  });
}

describe('fake servers that run a small window', () => {
  const servers: FakeServerHandle[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  test('TruncatingWindow drops the oldest messages, hands the model the rest, reports what it kept (≈ the window)', () => {
    const window = new TruncatingWindow(1000);
    const seen: ChatBody[] = [];
    const script = window.script(
      (r) => (seen.push(r), { text: 'ok' }),
      () => ({ text: 'compressor' }),
    ) as (r: ChatBody, i: number) => { usage?: { prompt: number } };
    const big = request('openai', [LIST, read(1), move(1), read(2)], { tools: [] });
    assert.ok(proxyPromptTokens(big) > 1000);
    const reply = script(big, 0);
    const record = window.records[0]!;
    assert.equal(record.cut, true);
    assert.ok(record.droppedMessages > 0);
    assert.equal(seen[0]!.messages![0]!.role, 'system', 'the system message stays');
    assert.deepEqual(seen[0]!.messages!.at(-1), big.messages!.at(-1), 'the newest message stays');
    assert.ok(!seen[0]!.messages!.some((m) => m.content === FILE_TASK), 'the oldest (the task) went first');
    assert.match(String(seen[0]!.messages![1]!.content), /^…/, 'the cut message keeps only its end');
    assert.equal(reply.usage?.prompt, record.keptTokens);
    assert.equal(record.keptTokens, proxyPromptTokens(seen[0]!));
    assert.ok(record.keptTokens <= 1000 && record.keptTokens >= 990, `the count is the window, give or take: ${JSON.stringify(record)}`);

    const small = request('openai', [LIST], { tools: [] });
    script(small, 1);
    assert.equal(window.records[1]!.cut, false);
    assert.deepEqual(seen[1]!.messages, small.messages, 'an uncut request reaches the model whole');
  });

  test("TruncatingWindow with cut 'messages' drops whole messages only", () => {
    const window = new TruncatingWindow(1000, 'messages');
    const seen: ChatBody[] = [];
    const script = window.script((r) => (seen.push(r), { text: 'ok' }), () => undefined) as (r: ChatBody, i: number) => unknown;
    const big = request('ollama', [LIST, read(1), move(1), read(2)], { tools: [] });
    script(big, 0);
    const kept = seen[0]!.messages!;
    for (const m of kept) assert.ok(big.messages!.includes(m), 'every kept message is one that was sent, whole');
    assert.equal(kept.length, big.messages!.length - window.records[0]!.droppedMessages);
    assert.ok(window.records[0]!.keptTokens <= 1000);
  });

  test('/api/ps lists a model only once a chat used it, with context_length when the server reports one', async () => {
    const reply = () => ({ text: 'hi' });
    const reporting = await startFakeOllamaServer([reply], { runningContext: (m) => (m === 'small:latest' ? 4096 : undefined) });
    const old = await startFakeOllamaServer([reply]);
    servers.push(reporting, old);
    const ps = async (s: FakeServerHandle) => (await (await fetch(`${s.origin}/api/ps`)).json()) as { models: Array<Record<string, unknown>> };
    assert.deepEqual((await ps(reporting)).models, []);
    const chat = (s: FakeServerHandle, model: string) =>
      fetch(`${s.origin}/api/chat`, { method: 'POST', body: JSON.stringify({ model, stream: false, messages: [{ role: 'user', content: 'hi' }] }) }).then((r) => r.json());
    await chat(reporting, 'small:latest');
    await chat(old, 'small');
    const [entry] = (await ps(reporting)).models;
    assert.equal(entry?.name, 'small:latest');
    assert.equal(entry?.model, 'small:latest');
    assert.equal(entry?.context_length, 4096);
    assert.ok(typeof entry?.expires_at === 'string' && typeof entry?.size_vram === 'number' && typeof entry?.details === 'object');
    const [oldEntry] = (await ps(old)).models;
    assert.equal(oldEntry?.name, 'small:latest');
    assert.equal('context_length' in oldEntry!, false, 'older Ollama does not report it');
  });
});
