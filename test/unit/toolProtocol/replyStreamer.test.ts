import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamProtocolReply, type ReplySink } from '../../../src/core/toolProtocol/replyStreamer';
import { ToolIndex } from '../../../src/core/toolProtocol/toolIndex';
import type { ToolCall, ToolDefinition } from '../../../src/core/messages';
import { ScriptedProvider, textReply } from '../resilience/scriptedProvider';

const TOOLS: ToolDefinition[] = [
  { name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
];
const index = new ToolIndex(TOOLS);
const isValid = (call: ToolCall) => call.name === 'read_file';

/** Collects what a reply streamed; `sink` is what the streamer writes to. */
class RecordingSink {
  text = '';
  thinking = '';
  statuses: string[] = [];
  textChunks: string[] = [];
  // Arrow properties so the sink can be handed around unbound.
  readonly sink: ReplySink = {
    text: (t) => {
      this.text += t;
      this.textChunks.push(t);
    },
    thinking: (t) => (this.thinking += t),
    status: (m) => this.statuses.push(m),
  };
}

async function call(provider: ScriptedProvider, mode: 'native' | 'xml', idx = index) {
  const out = new RecordingSink();
  const reply = await streamProtocolReply(
    { provider, model: 'm', messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal },
    { mode, index: idx, validate: isValid },
    out.sink,
  );
  return { reply, out };
}

test('xml mode: tool markup split across chunks is hidden and becomes a call', async () => {
  const provider = new ScriptedProvider([
    textReply('Let me look.\n<to', 'ol>{"server_name": "local", "tool_na', 'me": "read_file", "arguments": {"path": "a.txt"}}</t', 'ool>\n'),
  ]);
  const { reply, out } = await call(provider, 'xml');
  assert.equal(out.text.includes('<tool>'), false);
  assert.equal(out.text.includes('read_file'), false);
  assert.equal(reply.text, 'Let me look.');
  assert.deepEqual(reply.toolCalls.map((c) => [c.name, c.arguments]), [['read_file', { path: 'a.txt' }]]);
  assert.deepEqual(provider.requests[0]!.tools, [], 'xml mode sends no native tools');
});

test('native mode sends the tools and passes native calls through', async () => {
  const provider = new ScriptedProvider([
    { deltas: [{ type: 'tool_call', call: { id: 'c1', name: 'read_file', arguments: '{"path":"x"}' } }, { type: 'usage', promptTokens: 10, completionTokens: 2 }, { type: 'done', finishReason: 'tool_calls' }] },
  ]);
  const { reply } = await call(provider, 'native');
  assert.equal(provider.requests[0]!.tools.length, 1);
  assert.equal(reply.toolCalls[0]!.id, 'c1');
  assert.deepEqual(reply.usage, { promptTokens: 10, completionTokens: 2 });
  assert.equal(reply.finishReason, 'tool_calls');
});

test('<think> in content is separated in both modes, before tool parsing', async () => {
  for (const mode of ['native', 'xml'] as const) {
    const provider = new ScriptedProvider([textReply('<thi', 'nk>I should read <tool> a.txt</th', 'ink>Done reading.')]);
    const { reply, out } = await call(provider, mode);
    assert.equal(reply.thinking, 'I should read <tool> a.txt', mode);
    assert.equal(out.thinking, 'I should read <tool> a.txt', mode);
    assert.equal(reply.text, 'Done reading.', mode);
    assert.equal(reply.toolCalls.length, 0, mode);
    assert.deepEqual(reply.protocolErrors, [], mode);
  }
});

test('xml mode: a broken block yields a protocol error, not a call', async () => {
  const provider = new ScriptedProvider([textReply('<tool>{"tool_name": "read_file", "arguments": {path: 1}}</tool>')]);
  const { reply } = await call(provider, 'xml');
  assert.equal(reply.toolCalls.length, 0);
  assert.equal(reply.protocolErrors[0]?.kind, 'parse_error');
});

test('xml mode: a block cut off before </tool> is used when its JSON is complete', async () => {
  const ok = await call(new ScriptedProvider([textReply('<tool>{"tool_name": "read_file", "arguments": {"path": "a"}}')]), 'xml');
  assert.equal(ok.reply.toolCalls.length, 1);
  const cut = await call(new ScriptedProvider([textReply('<tool>{"tool_name": "read_file", "argu')]), 'xml');
  assert.equal(cut.reply.toolCalls.length, 0);
  assert.match(cut.reply.protocolErrors[0]!.message, /not closed with <\/tool>/);
});

test('native mode: a call printed as JSON is recovered', async () => {
  const provider = new ScriptedProvider([textReply('```json\n{"name": "read_file", "arguments": {"path": "a"}}\n```')]);
  const { reply } = await call(provider, 'native');
  assert.deepEqual(reply.recovered, ['read_file']);
  assert.equal(reply.toolCalls.length, 1);
  assert.equal(reply.text, '');
});

test('a request without tools drops stray tool markup and recovers nothing', async () => {
  const provider = new ScriptedProvider([textReply('Summary: done. <tool>{"tool_name": "read_file", "arguments": {"path": "a"}}</tool>')]);
  const { reply } = await call(provider, 'xml', new ToolIndex([]));
  assert.equal(reply.toolCalls.length, 0);
  assert.deepEqual(reply.protocolErrors, []);
  assert.equal(reply.text, 'Summary: done.');
});

test('status deltas reach the sink', async () => {
  const provider = new ScriptedProvider([{ deltas: [{ type: 'status', message: 'Loading model…' }, { type: 'text', text: 'ok' }, { type: 'done', finishReason: 'stop' }] }]);
  const { out } = await call(provider, 'native');
  assert.deepEqual(out.statuses, ['Loading model…']);
});

test('a filtered request sends only the offered tools, yet a call may name any known tool (native and xml)', async () => {
  const move: ToolDefinition = { name: 'move_file', description: 'Move a file.', parameters: { type: 'object', properties: { source: { type: 'string' } } } };
  const known = new ToolIndex([...TOOLS, move]);
  for (const mode of ['native', 'xml'] as const) {
    const provider = new ScriptedProvider([textReply('<tool>{"server_name": "local", "tool_name": "move_file", "arguments": {"source": "a.txt"}}</tool>')]);
    const out = new RecordingSink();
    const reply = await streamProtocolReply(
      { provider, model: 'm', messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal },
      { mode, index, known, validate: isValid },
      out.sink,
    );
    assert.deepEqual(provider.requests[0]!.tools.map((t) => t.name), mode === 'native' ? ['read_file'] : [], mode);
    if (mode === 'xml') assert.deepEqual(reply.toolCalls.map((c) => c.name), ['move_file']);
  }
});
