// The call-syntax table through the streamer: each family's call text becomes calls of offered tools whatever
// the chunking, is never streamed to the user, several calls per reply, raw values coerced to the schema, an
// unreadable call is one error, and a reply cut at the output limit runs nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamProtocolReply, type ReplySink } from '../../../src/core/toolProtocol/replyStreamer';
import { ToolIndex } from '../../../src/core/toolProtocol/toolIndex';
import type { ToolCall, ToolDefinition } from '../../../src/core/messages';
import type { StreamDelta } from '../../../src/core/provider';
import { ScriptedProvider } from '../resilience/scriptedProvider';

const TOOLS: ToolDefinition[] = [
  { name: 'read_file', description: 'Read.', parameters: { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'integer' } }, required: ['path'] } },
  {
    name: 'edit_file',
    description: 'Edit.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, old_text: { type: 'string' }, new_text: { type: 'string' }, all: { type: 'boolean' }, options: { type: 'object' } },
      required: ['path'],
    },
  },
];
const index = new ToolIndex(TOOLS);
const isValid = (call: ToolCall) => TOOLS.some((t) => t.name === call.name);

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

async function read(text: string, size: number, finishReason = 'stop', mode: 'native' | 'xml' = 'native') {
  const deltas: StreamDelta[] = [...chunks(text, size).map((t): StreamDelta => ({ type: 'text', text: t })), { type: 'done', finishReason }];
  const provider = new ScriptedProvider([{ deltas }]);
  let shown = '';
  const sink: ReplySink = { text: (t) => (shown += t), thinking: () => undefined, status: () => undefined };
  let n = 0;
  const reply = await streamProtocolReply(
    { provider, model: 'm', messages: [{ role: 'user', content: 'go' }], signal: new AbortController().signal },
    { mode, index, validate: isValid, newId: () => `c${++n}` },
    sink,
  );
  return { reply, shown };
}

const SIZES = [1, 2, 3, 5, 8, 13, 10_000];

const read1 = { path: 'a.txt' };
const read2 = { path: 'b.txt' };
const CASES: Array<{ syntax: string; one: string; two: string }> = [
  {
    syntax: 'qwen3-coder',
    one: '<tool_call>\n<function=read_file>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>',
    two: '<tool_call>\n<function=read_file>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=read_file>\n<parameter=path>\nb.txt\n</parameter>\n</function>\n</tool_call>',
  },
  {
    syntax: 'hermes',
    one: '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>',
    two: '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>\n<tool_call>\n{"name": "read_file", "arguments": {"path": "b.txt"}}\n</tool_call>',
  },
  {
    syntax: 'mistral',
    one: '[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a.txt"}, "id": "abc123def"}]',
    two: '[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a.txt"}, "id": "abc123def"}, {"name": "read_file", "arguments": {"path": "b.txt"}, "id": "xyz987uvw"}]',
  },
  {
    syntax: 'devstral',
    one: '[TOOL_CALLS]read_file[ARGS]{"path": "a.txt"}',
    two: '[TOOL_CALLS]read_file[ARGS]{"path": "a.txt"}[TOOL_CALLS]read_file[CALL_ID]k2[ARGS]{"path": "b.txt"}',
  },
  {
    syntax: 'harmony',
    one: '<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "a.txt"}<|call|>',
    two: '<|channel|>analysis<|message|>Two files to read.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "a.txt"}<|call|><|start|>assistant to=functions.read_file<|channel|>commentary json<|message|>{"path": "b.txt"}<|call|>',
  },
  {
    syntax: 'json',
    one: '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```',
    two: '[{"name": "read_file", "arguments": {"path": "a.txt"}}, {"name": "read_file", "arguments": {"path": "b.txt"}}]',
  },
  {
    syntax: 'text-protocol',
    one: '<tool>{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.txt"}}</tool>',
    two: '<tool>{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.txt"}}</tool>\n<tool>{"tool_name": "read_file", "arguments": {"path": "b.txt"}}</tool>',
  },
];

for (const c of CASES) {
  test(`${c.syntax}: one and two calls per reply, any chunking, prose around them shown, the call text never`, async () => {
    for (const size of SIZES) {
      for (const [body, expected] of [
        [c.one, [read1]],
        [c.two, [read1, read2]],
      ] as const) {
        const { reply, shown } = await read(`Reading now.\n${body}\nThen I will answer.`, size);
        const where = `${c.syntax}, chunks of ${size}`;
        assert.deepEqual(reply.toolCalls.map((call) => [call.name, call.arguments]), expected.map((a) => ['read_file', a]), where);
        assert.deepEqual(reply.protocolErrors, [], where);
        assert.deepEqual(reply.syntaxes, [c.syntax], where);
        assert.equal(shown.replace(/\s+/g, ' ').trim(), 'Reading now. Then I will answer.', where);
        assert.doesNotMatch(shown, /read_file|a\.txt|TOOL_CALLS|<\||<tool|<function/, where);
      }
    }
  });
}

test('Qwen3-Coder raw values become the schema types; strings stay exact, with their inner newlines and tags', async () => {
  const content = 'line one\n</parameter> is data here\nline three';
  const text =
    '<tool_call>\n<function=edit_file>\n<parameter=path>\nsrc/a.ts\n</parameter>\n<parameter=new_text>\n' +
    content +
    '\n</parameter>\n<parameter=all>\ntrue\n</parameter>\n<parameter=options>\n{"mode": "fast", "n": 2}\n</parameter>\n</function>\n</tool_call>\n' +
    '<tool_call>\n<function=read_file>\n<parameter=path>\n42\n</parameter>\n<parameter=offset>\n10\n</parameter>\n</function>\n</tool_call>';
  for (const size of [3, 10_000]) {
    const { reply } = await read(text, size);
    assert.deepEqual(reply.toolCalls.map((c) => c.arguments), [
      { path: 'src/a.ts', new_text: content, all: true, options: { mode: 'fast', n: 2 } },
      { path: '42', offset: 10 },
    ]);
  }
});

test('JSON that is data, code fences and prose with brackets are shown as they are', async () => {
  for (const text of [
    'Config: {"name": "app", "version": "1.0"}',
    '```ts\nconst x = {"name": "read_file", "arguments": {"path": "a"}};\n```',
    'Use a list [1, 2] and a map {a: 1}; see `code` and <b>bold</b>.',
    'The template token [TOOL_CALLS] is described in the docs, as is <tool_call>.',
  ]) {
    for (const size of SIZES) {
      const { reply, shown } = await read(text, size);
      assert.equal(reply.toolCalls.length, 0, `${text} / ${size}`);
      assert.equal(shown, text, `${text} / ${size}`);
    }
  }
});

test('an unknown tool in a family syntax is one error naming the offered tools; a broken one says what broke', async () => {
  const unknown = await read('[TOOL_CALLS]delete_all[ARGS]{}', 4);
  assert.equal(unknown.reply.toolCalls.length, 0);
  assert.equal(unknown.reply.protocolErrors.length, 1);
  assert.match(unknown.reply.protocolErrors[0]!.message, /There is no tool "delete_all"\. Available tools: read_file, edit_file/);
  assert.equal(unknown.shown, '');
  const broken = await read('<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": a.txt}<|call|>', 4);
  assert.equal(broken.reply.toolCalls.length, 0);
  assert.deepEqual(broken.reply.protocolErrors.map((e) => e.kind), ['parse_error']);
  assert.equal(broken.shown, '');
  const json = await read('{"name": "read_file", "arguments": {"path": "a.txt"', 4);
  assert.match(json.reply.protocolErrors[0]!.message, /read_file written as JSON text could not be read: it stopped before its end/);
  assert.equal(json.shown, '');
});

test('a reply cut at the output limit runs nothing: native deltas, JSON text, <tool> text, family syntax', async () => {
  for (const [text, mode] of [
    ['Writing it.\n{"name": "edit_file", "arguments": {"path": "a.txt", "new_text": "half', 'native'],
    ['<tool>{"tool_name": "edit_file", "arguments": {"path": "a.txt", "new_text": "ha', 'xml'],
    ['[TOOL_CALLS]edit_file[ARGS]{"path": "a.txt", "new_te', 'native'],
    // Whole calls in a cut reply do not run either: the reply as a whole was not finished.
    ['<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>\nNow the ed', 'native'],
  ] as const) {
    const { reply, shown } = await read(text, 5, 'length', mode);
    assert.deepEqual(reply.toolCalls, [], text);
    assert.deepEqual(reply.protocolErrors, [], text);
    assert.equal(reply.cut?.partialCall, true, text);
    assert.doesNotMatch(shown, /edit_file|read_file/, text);
  }
  const native = new ScriptedProvider([
    { deltas: [{ type: 'tool_call', call: { id: 'x', name: 'edit_file', arguments: '{"path": "a.txt", "new_te' } }, { type: 'done', finishReason: 'length' }] },
  ]);
  const reply = await streamProtocolReply(
    { provider: native, model: 'm', messages: [{ role: 'user', content: 'go' }], signal: new AbortController().signal },
    { mode: 'native', index, validate: isValid },
    { text: () => undefined, thinking: () => undefined, status: () => undefined },
  );
  assert.deepEqual(reply.toolCalls, []);
  assert.deepEqual(reply.cut, { calls: ['edit_file'], partialCall: true });
  const prose = await read('The answer is that the', 4, 'length');
  assert.deepEqual(prose.reply.cut, { calls: [], partialCall: false });
});

// The cases the JSON-as-text recovery was first written for (test/unit/toolProtocol/jsonRecovery.test.ts before
// the table), now read by the table's JSON and Hermes rows.
test('JSON as text: bare, fenced, OpenAI-shaped with string arguments, Hermes with "parameters"; data stays text', async () => {
  const bare = await read('Reading it now.\n{"name": "read_file", "arguments": {"path": "a.txt"}}', 4);
  assert.deepEqual(bare.reply.toolCalls.map((c) => [c.name, c.arguments]), [['read_file', { path: 'a.txt' }]]);
  assert.equal(bare.reply.text, 'Reading it now.');
  const fenced = await read('```json\n{"name": "read_file", "arguments": {"path": "b"}}\n```', 4);
  assert.equal(fenced.reply.toolCalls.length, 1);
  assert.equal(fenced.reply.text, '');
  const openai = await read('{"type": "function", "function": {"name": "read_file", "arguments": "{\\"path\\": \\"c\\"}"}}', 4);
  assert.deepEqual(openai.reply.toolCalls.map((c) => c.arguments), ['{"path": "c"}']);
  const hermes = await read('<tool_call>{"name": "read_file", "parameters": {"path": "d"}}</tool_call>', 4);
  assert.deepEqual(hermes.reply.toolCalls.map((c) => c.arguments), [{ path: 'd' }]);
  assert.equal(hermes.reply.text, '');
  const strict = (call: ToolCall) => {
    const args = typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments;
    return call.name === 'read_file' && typeof args.path === 'string';
  };
  for (const text of [
    'Config: {"name": "app", "version": "1.0"}',
    '{"name": "read_file", "arguments": {"file": "a"}}', // invalid arguments
    '{"name": "delete_all", "arguments": {}}', // not offered
    'Use read_file like this: {"name": "read_file"}', // no arguments: data, not a call
    '```ts\nconst x = {"name": "read_file", "arguments": {"path": "a"}};\n```',
    'Not JSON: {name: read_file}',
  ]) {
    const provider = new ScriptedProvider([{ deltas: [{ type: 'text', text }, { type: 'done', finishReason: 'stop' }] }]);
    let shown = '';
    const reply = await streamProtocolReply(
      { provider, model: 'm', messages: [{ role: 'user', content: 'go' }], signal: new AbortController().signal },
      { mode: 'native', index, validate: strict },
      { text: (t) => (shown += t), thinking: () => undefined, status: () => undefined },
    );
    assert.equal(reply.toolCalls.length, 0, text);
    assert.deepEqual(reply.protocolErrors, [], text);
    assert.equal(shown, text);
  }
});
