// A stored session whose tool calls lost their results (a crash, kill -9, a full disk, Ctrl-C during a stubborn
// command, or a turn sent after such a break) is whole again when loaded: every call gets an "interrupted"
// result in place, the ones at the end are written back, and the request passes a validating server on both
// wire formats. The fake servers' strict mode is shown to refuse the broken history, with its reason.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { ChatMessage } from '../../../src/core/messages';
import { ProviderError } from '../../../src/core/provider';
import { createProvider } from '../../../src/providers';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { startRecording } from '../../../src/persistence/sessionRecorder';
import { INTERRUPTED_RESULT, answerUnansweredCalls } from '../../../src/persistence/unansweredCalls';
import { startFakeOllamaServer, startFakeOpenAIServer } from '../../helpers/fakeLlm';

const BROKEN: ChatMessage[] = [
  { role: 'user', content: 'build it' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a' } }, { id: 'c2', name: 'run_command', arguments: { command: 'make' } }] },
  { role: 'tool', content: 'file a', toolCallId: 'c1', toolName: 'read_file' },
  // c2 never answered; the user went on anyway (the broken state the issue found).
  { role: 'user', content: 'and now?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c3', name: 'run_command', arguments: { command: 'make test' } }] },
  // c3: the process died while it ran.
];

async function storeWith(t: import('node:test').TestContext, messages: ChatMessage[]): Promise<{ file: string; id: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-unanswered-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'sessions.db');
  const store = await SessionStore.open(file);
  const s = await store.createSession({ title: 'broken', model: 'm', provider: 'p' });
  for (const m of messages) await store.appendMessage(s.id, m);
  await store.close();
  return { file, id: s.id };
}

for (const wire of ['ollama', 'openai'] as const) {
  test(`a validating server refuses the broken history with its reason, and takes the repaired one (${wire})`, async (t) => {
    const start = wire === 'ollama' ? startFakeOllamaServer : startFakeOpenAIServer;
    const server = await start([{ text: 'fine' }], { name: 'strict', strict: true });
    t.after(() => server.close());
    const provider = createProvider({ provider: wire, baseUrl: wire === 'ollama' ? server.origin : server.url });
    const ask = async (messages: ChatMessage[]) => {
      let text = '';
      for await (const d of provider.chat({ model: 'tiny', messages: [...messages, { role: 'user', content: 'go on' }], tools: [], signal: new AbortController().signal })) {
        if (d.type === 'text') text += d.text;
      }
      return text;
    };
    await assert.rejects(ask(BROKEN), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.options.status, 400);
      assert.match(err.message, /HTTP 400: messages\[1\]: an assistant message with 'tool_calls' must be followed by tool messages/);
      return true;
    });

    const { file, id } = await storeWith(t, BROKEN);
    const store = await SessionStore.open(file);
    const warned: string[] = [];
    const recorder = await startRecording(store, { sessionId: id, meta: { title: 'x', model: 'm', provider: 'p' }, warn: (m) => warned.push(m) });
    assert.deepEqual(
      recorder.history.map((m) => `${m.role}${m.toolCallId ? `:${m.toolCallId}` : ''}`),
      ['user', 'assistant', 'tool:c1', 'tool:c2', 'user', 'assistant', 'tool:c3'],
    );
    assert.equal(recorder.history[3]!.content, INTERRUPTED_RESULT);
    assert.match(warned.join('\n'), /2 tool call\(s\) .* had no result/);
    await recorder.settle();
    await store.close();
    assert.equal(await ask(recorder.history), 'fine');

    // The call at the end is answered on disk now; the one in the middle is answered again on every load.
    const reopened = await SessionStore.open(file);
    const rows = await reopened.loadMessages(id);
    await reopened.close();
    assert.deepEqual(rows.slice(-1).map((m) => [m.role, m.toolCallId]), [['tool', 'c3']]);
    assert.equal(answerUnansweredCalls(rows.map((r) => ({ role: r.role, content: r.content, ...(r.toolCalls && { toolCalls: r.toolCalls }), ...(r.toolCallId && { toolCallId: r.toolCallId }) }))).added.length, 1);
  });
}

test('a well-formed history is left exactly as it is', () => {
  const whole: ChatMessage[] = [...BROKEN.slice(0, 3), { role: 'tool', content: 'ok', toolCallId: 'c2', toolName: 'run_command' }, { role: 'user', content: 'thanks' }];
  const result = answerUnansweredCalls(whole);
  assert.deepEqual(result.added, []);
  assert.deepEqual(result.history, whole);
});
