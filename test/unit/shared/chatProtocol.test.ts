// The host <-> webview schemas: well-formed messages pass unchanged, malformed or dangerous ones are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ChatViewStateSchema,
  MAX_USER_MESSAGE,
  isWebLink,
  parseHostMessage,
  parseWebviewMessage,
  summarizeMessage,
  type ChatViewState,
  type HostToWebview,
  type WebviewToHost,
} from '../../../src/shared/protocol';
import { initialChatState, reduceAll } from '../../../src/shared/chatState';

const busyState: ChatViewState = reduceAll(initialChatState(8192), [
  { type: 'turn_start', text: 'fix the bug' },
  { type: 'thinking', text: 'let me look' },
  { type: 'text', text: 'Reading **a.ts**' },
  { type: 'tool_call', callId: 'c1', name: 'read_file', args: '{"path":"a.ts"}' },
  { type: 'approval_request', callId: 'c1', title: 'Read a.ts', detail: 'a.ts', risk: 'read' },
  { type: 'error', text: 'Ollama is not running', actions: ['openSettings', 'showLogs'] },
  { type: 'notice', text: 'Edited a.ts' },
  { type: 'usage', used: 1234 },
]);

test('every webview -> host message the panel sends is accepted as is', () => {
  const messages: WebviewToHost[] = [
    { type: 'ready' },
    { type: 'send', text: 'hello\nworld' },
    { type: 'stop' },
    { type: 'newChat' },
    { type: 'selectModel', name: 'qwen3:8b' },
    { type: 'refreshModels' },
    { type: 'hotContext', open: true },
    { type: 'openLink', url: 'https://example.com/a?b=c' },
    { type: 'copy', text: 'const a = 1;' },
    { type: 'runCommand', command: 'openSettings' },
    { type: 'perf', name: 'snapshot', ms: 12.5, count: 2000 },
  ];
  for (const message of messages) {
    const parsed = parseWebviewMessage(message);
    assert.deepEqual(parsed, { ok: true, message }, JSON.stringify(message));
  }
});

test('webview -> host: malformed and dangerous messages are refused with a readable reason', () => {
  const bad: Array<[unknown, RegExp]> = [
    [null, /root/],
    ['ready', /root/],
    [{}, /type/],
    [{ type: 'launchMissiles' }, /type: Invalid discriminator/],
    [{ type: 'send' }, /text/],
    [{ type: 'send', text: '   \n ' }, /text: the message is empty/],
    [{ type: 'send', text: 'x'.repeat(MAX_USER_MESSAGE + 1) }, /text/],
    [{ type: 'send', text: 42 }, /expected string/],
    [{ type: 'openLink', url: 'javascript:alert(1)' }, /only http and https/],
    [{ type: 'openLink', url: 'command:workbench.action.terminal.new' }, /only http and https/],
    [{ type: 'openLink', url: 'file:///etc/passwd' }, /only http and https/],
    [{ type: 'selectModel', name: '' }, /name/],
    [{ type: 'runCommand', command: 'workbench.action.quit' }, /command/],
    [{ type: 'perf', name: 'x', ms: -1 }, /ms/],
    [{ type: 'hotContext' }, /open/],
  ];
  for (const [raw, reason] of bad) {
    const parsed = parseWebviewMessage(raw);
    assert.equal(parsed.ok, false, JSON.stringify(raw)?.slice(0, 80));
    if (!parsed.ok) assert.match(parsed.error, reason, JSON.stringify(raw)?.slice(0, 80));
  }
});

test('host -> webview: a snapshot with a partial turn round-trips through JSON and the schema', () => {
  const message: HostToWebview = { type: 'snapshot', seq: 9, state: busyState };
  const parsed = parseHostMessage(JSON.parse(JSON.stringify(message)));
  assert.deepEqual(parsed, { ok: true, message });
  assert.equal(ChatViewStateSchema.safeParse(busyState).success, true);
});

test('host -> webview: the other messages are accepted', () => {
  const messages: HostToWebview[] = [
    { type: 'events', base: 3, seq: 5, events: [{ type: 'text', text: 'a' }, { type: 'round_start' }] },
    { type: 'models', models: ['a', 'b'], selected: 'a' },
    { type: 'models', models: [], selected: null, error: 'Is Ollama running at http://127.0.0.1:11434?' },
    {
      type: 'hotContext',
      reveal: true,
      view: { text: '# Working context', filesRead: [{ path: 'a.ts', ranges: '1-20' }], filesModified: [], todos: [{ text: 't', status: 'done' }], activeFile: 'a.ts', selection: null },
    },
    { type: 'focus' },
    { type: 'prefill', text: 'explain this' },
  ];
  for (const message of messages) assert.deepEqual(parseHostMessage(message), { ok: true, message });
});

test('host -> webview: malformed messages are refused', () => {
  const bad: unknown[] = [
    { type: 'events', base: 0, seq: 1, events: [] },
    { type: 'events', base: -1, seq: 1, events: [{ type: 'round_start' }] },
    { type: 'events', base: 0, seq: 1.5, events: [{ type: 'round_start' }] },
    { type: 'events', base: 0, seq: 1, events: [{ type: 'text', text: 5 }] },
    { type: 'events', base: 0, seq: 1, events: [{ type: 'tool_result', callId: 'c', ok: true, content: 'x' }] },
    { type: 'snapshot', seq: 1, state: { ...busyState, items: [{ kind: 'robot', id: 'i1' }] } },
    { type: 'snapshot', seq: 1, state: { ...busyState, items: [{ ...busyState.items[0], id: '' }] } },
    { type: 'snapshot', seq: 1, state: { ...busyState, busy: 'yes' } },
    { type: 'models', models: 'a,b', selected: null },
    { type: 'script', code: 'alert(1)' },
  ];
  for (const raw of bad) assert.equal(parseHostMessage(raw).ok, false, JSON.stringify(raw).slice(0, 120));
});

test('a tool card status outside running/done/error/denied is refused', () => {
  const tool = busyState.items.find((i) => i.kind === 'tool')!;
  const state = { ...busyState, items: [{ ...tool, status: 'exploded' }] };
  assert.equal(ChatViewStateSchema.safeParse(state).success, false);
});

test('isWebLink accepts only absolute http(s) URLs', () => {
  assert.equal(isWebLink('https://a.b/c'), true);
  assert.equal(isWebLink('HTTP://A.B'), true);
  for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', '//evil.com', '/relative', 'https://', 'vscode://x', 'https://a b']) {
    assert.equal(isWebLink(url), false, url);
  }
});

test('summarizeMessage never dumps the payload into the log', () => {
  assert.equal(summarizeMessage({ type: 'send', text: 'secret'.repeat(1000) }), 'type=send');
  assert.equal(summarizeMessage('x'.repeat(10_000)), 'string');
  assert.equal(summarizeMessage(null), 'object');
});
