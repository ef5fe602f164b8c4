// SessionStore against real sql.js files in temp directories: every test closes and reopens the
// database where it matters, so what is asserted is what actually reached the disk.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PersistenceError } from '../../../src/persistence/errors';
import { toChatMessage } from '../../../src/persistence/rows';
import { SessionStore, type SessionStoreOptions } from '../../../src/persistence/sessionStore';
import type { NewMessage } from '../../../src/persistence/types';
import { ManualClock, counterIds, tempDir } from './helpers';

function options(clock = new ManualClock()): SessionStoreOptions {
  return { clock, newId: counterIds(), foldIdleMs: 0 };
}

async function withStore<T>(file: string, fn: (store: SessionStore) => Promise<T>, opts = options()): Promise<T> {
  const store = await SessionStore.open(file, opts);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function isCode(code: PersistenceError['code']) {
  return (err: unknown) => err instanceof PersistenceError && err.code === code;
}

const conversation: NewMessage[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Read a.ts please' },
  {
    role: 'assistant',
    content: '',
    thinking: 'I should read the file.',
    toolCalls: [
      { id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } },
      { id: 'call_2', name: 'read_file', arguments: '{"path": "b.ts"' },
    ],
    tokens: { prompt: 120, completion: 17 },
  },
  { role: 'tool', content: 'export const a = 1;', toolCallId: 'call_1', toolName: 'read_file' },
  { role: 'tool', content: 'Error: invalid JSON arguments', toolCallId: 'call_2', toolName: 'read_file' },
  { role: 'assistant', content: 'Looking at the files…', displayOnly: true },
  { role: 'assistant', content: 'a.ts exports `a`.', tokens: { completion: 6 } },
];

test('messages round-trip through close and reopen, in order, with every field', async (t) => {
  const file = path.join(tempDir(t), 'nested', 'sessions.db');
  const clock = new ManualClock();
  const ids: number[] = [];
  const session = await withStore(
    file,
    async (store) => {
      const s = await store.createSession({ title: '  Fix the build  ', model: 'qwen3:8b', provider: 'ollama' });
      for (const message of conversation) {
        clock.advance(1000);
        ids.push(await store.appendMessage(s.id, message));
      }
      return s;
    },
    options(clock),
  );
  assert.equal(session.title, 'Fix the build');
  assert.deepEqual(ids, [1, 2, 3, 4, 5, 6, 7]);
  assert.ok(statSync(file).size > 0);

  await withStore(file, async (store) => {
    const all = await store.loadMessages(session.id, { includeDisplayOnly: true });
    assert.equal(all.length, conversation.length);
    all.forEach((stored, i) => {
      const original = conversation[i]!;
      assert.equal(stored.id, ids[i]);
      assert.equal(stored.seq, i + 1);
      assert.equal(stored.sessionId, session.id);
      assert.equal(stored.role, original.role);
      assert.equal(stored.content, original.content);
      assert.equal(stored.thinking, original.thinking);
      assert.deepEqual(stored.toolCalls, original.toolCalls);
      assert.equal(stored.toolCallId, original.toolCallId);
      assert.equal(stored.toolName, original.toolName);
      assert.deepEqual(stored.tokens, original.tokens);
      assert.equal(stored.displayOnly, original.displayOnly === true);
      assert.equal(stored.createdAt, Date.UTC(2025, 0, 2, 3, 4, 5) + (i + 1) * 1000);
    });
    // What a provider gets: exactly the ChatMessage that was saved, nothing more.
    assert.deepEqual(all.map(toChatMessage), conversation.map(({ displayOnly: _d, tokens: _t, ...chat }) => chat));
    // The model never sees display-only messages.
    const forModel = await store.loadMessages(session.id);
    assert.deepEqual(
      forModel.map((m) => m.id),
      [1, 2, 3, 4, 5, 7],
    );
    const [info] = await store.listSessions();
    assert.equal(info?.messageCount, 7);
    assert.equal(info?.model, 'qwen3:8b');
    assert.equal(info?.provider, 'ollama');
    assert.equal(info?.createdAt, Date.UTC(2025, 0, 2, 3, 4, 5));
    assert.equal(info?.updatedAt, Date.UTC(2025, 0, 2, 3, 4, 5) + 7000);
    assert.equal(info?.status, 'active');
  });
});

test('listSessions puts the most recently updated first; getSession finds one or returns undefined', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const clock = new ManualClock();
  await withStore(
    file,
    async (store) => {
      const a = await store.createSession({ title: 'A', model: 'm', provider: 'p' });
      clock.advance(10);
      const b = await store.createSession({ title: 'B', model: 'm', provider: 'p' });
      assert.deepEqual((await store.listSessions()).map((s) => s.title), ['B', 'A']);
      clock.advance(10);
      await store.appendMessage(a.id, { role: 'user', content: 'bump' });
      assert.deepEqual((await store.listSessions()).map((s) => s.title), ['A', 'B']);
      assert.equal((await store.getSession(b.id))?.title, 'B');
      assert.equal(await store.getSession('nope'), undefined);
    },
    options(clock),
  );
});

test('rename and delete persist; unknown ids and empty titles are refused', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const ids = await withStore(file, async (store) => {
    const keep = await store.createSession({ title: 'Keep', model: 'm', provider: 'p' });
    const drop = await store.createSession({ title: 'Drop', model: 'm', provider: 'p' });
    await store.appendMessage(drop.id, { role: 'user', content: 'bye' });
    await store.setSummary(drop.id, { text: 'gone soon' });
    await store.recordToolAudit({ sessionId: drop.id, toolCallId: 'c', name: 'x', arguments: {}, approval: 'auto', durationMs: 1, outcome: 'ok' });
    await store.pushCheckpoint(drop.id, '/w/a.ts', 'old');
    await store.renameSession(keep.id, ' Renamed ');
    await store.deleteSession(drop.id);
    await assert.rejects(store.renameSession(keep.id, '   '), isCode('invalid-input'));
    await assert.rejects(store.renameSession('missing', 'x'), isCode('not-found'));
    await assert.rejects(store.deleteSession(drop.id), isCode('not-found'));
    return { keep: keep.id, drop: drop.id };
  });
  await withStore(file, async (store) => {
    const sessions = await store.listSessions();
    assert.deepEqual(sessions.map((s) => [s.id, s.title]), [[ids.keep, 'Renamed']]);
    assert.equal(await store.getSummary(ids.drop), undefined);
    assert.deepEqual(await store.listToolAudit(ids.drop), []);
    await assert.rejects(store.loadMessages(ids.drop), isCode('not-found'));
    await assert.rejects(store.popCheckpoint(ids.drop), isCode('not-found'));
  });
});

test('ids are never handed out twice, even after the newest rows are deleted', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const first = await withStore(file, async (store) => {
    const a = await store.createSession({ title: 'A', model: 'm', provider: 'p' });
    const b = await store.createSession({ title: 'B', model: 'm', provider: 'p' });
    await store.appendMessage(a.id, { role: 'user', content: '1' });
    const last = await store.appendMessage(b.id, { role: 'user', content: '2' });
    await store.deleteSession(b.id);
    return { a: a.id, last };
  });
  await withStore(file, async (store) => {
    const id = await store.appendMessage(first.a, { role: 'user', content: '3' });
    assert.equal(id, first.last + 1);
  }, { ...options(), newId: counterIds('t') });
});

test('compression keeps the original and links the compressed copy to it', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const { sessionId, original, second } = await withStore(file, async (store) => {
    const s = await store.createSession({ title: 'Long', model: 'm', provider: 'p' });
    const original = await store.appendMessage(s.id, { role: 'tool', content: 'x'.repeat(5000), toolCallId: 'c1', toolName: 'read_file' });
    await store.appendMessage(s.id, { role: 'assistant', content: 'thinking out loud', thinking: 'hmm', toolCalls: [{ id: 'c2', name: 'ls', arguments: {} }] });
    const first = await store.updateMessage(original, { content: '[read_file result compressed: 5000 chars]' });
    const second = await store.updateMessage(first, { content: '[compressed again]' });
    await assert.rejects(store.updateMessage(first, { content: 'stale' }), isCode('invalid-input'));
    await assert.rejects(store.updateMessage(9999, { content: 'x' }), isCode('not-found'));
    return { sessionId: s.id, original, second };
  });
  await withStore(file, async (store) => {
    const view = await store.loadMessages(sessionId);
    assert.equal(view.length, 2);
    assert.equal(view[0]?.id, second);
    assert.equal(view[0]?.content, '[compressed again]');
    assert.equal(view[0]?.compressedFrom, original, 'links to the original, not the intermediate copy');
    assert.equal(view[0]?.toolCallId, 'c1');
    assert.equal(view[0]?.toolName, 'read_file');
    assert.equal(view[0]?.seq, 1, 'keeps its place in the conversation');
    const originals = await store.loadOriginalMessages(sessionId);
    assert.equal(originals[0]?.id, original);
    assert.equal(originals[0]?.content, 'x'.repeat(5000));
    assert.equal(originals[0]?.supersededBy !== undefined, true);
    assert.equal((await store.getSession(sessionId))?.messageCount, 2);
  });
});

test('updateMessage keeps tool calls and thinking unless told otherwise', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  await withStore(file, async (store) => {
    const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
    const calls = [{ id: 'c', name: 'grep', arguments: { q: 'x' } }];
    const id = await store.appendMessage(s.id, { role: 'assistant', content: 'long text', thinking: 'long thoughts', toolCalls: calls });
    const kept = await store.updateMessage(id, { content: 'short' });
    let [view] = await store.loadMessages(s.id);
    assert.equal(view?.id, kept);
    assert.equal(view?.thinking, 'long thoughts');
    assert.deepEqual(view?.toolCalls, calls);
    await store.updateMessage(kept, { content: 'shorter', thinking: null });
    [view] = await store.loadMessages(s.id);
    assert.equal(view?.thinking, undefined);
    assert.deepEqual(view?.toolCalls, calls);
  });
});

test('summaries, tool audit and key/value survive a reopen', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const sessionId = await withStore(file, async (store) => {
    const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
    await store.setSummary(s.id, { text: 'first', filesTouched: ['a.ts'] });
    await store.setSummary(s.id, { text: 'User wants the build fixed.', filesTouched: ['a.ts', 'b.ts', 'a.ts'] });
    await store.recordToolAudit({ sessionId: s.id, toolCallId: 'c1', name: 'run_command', arguments: { command: 'npm test' }, approval: 'once', durationMs: 1234.4, outcome: 'error' });
    await store.recordToolAudit({ sessionId: s.id, toolCallId: 'c2', name: 'write_file', arguments: '{"broken', approval: 'denied', durationMs: 0, outcome: 'denied' });
    await store.setKv('calibration:qwen3:8b', 1.17);
    await store.setKv('rules', [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }]);
    await store.setKv('gone', 'x');
    await store.setKv('gone', undefined);
    await assert.rejects(store.setKv('bad', Number.NaN), isCode('invalid-input'));
    await assert.rejects(store.recordToolAudit({ sessionId: s.id, toolCallId: 'c', name: 'x', arguments: {}, approval: 'auto', durationMs: 1, outcome: 'maybe' as 'ok' }), isCode('invalid-input'));
    return s.id;
  });
  await withStore(file, async (store) => {
    const summary = await store.getSummary(sessionId);
    assert.equal(summary?.text, 'User wants the build fixed.');
    assert.deepEqual(summary?.filesTouched, ['a.ts', 'b.ts']);
    const audit = await store.listToolAudit(sessionId);
    assert.deepEqual(
      audit.map(({ toolCallId, name, arguments: args, approval, durationMs, outcome }) => ({ toolCallId, name, args, approval, durationMs, outcome })),
      [
        { toolCallId: 'c1', name: 'run_command', args: { command: 'npm test' }, approval: 'once', durationMs: 1234, outcome: 'error' },
        { toolCallId: 'c2', name: 'write_file', args: '{"broken', approval: 'denied', durationMs: 0, outcome: 'denied' },
      ],
    );
    assert.equal(await store.getKv('calibration:qwen3:8b'), 1.17);
    assert.deepEqual(await store.getKv('rules'), [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }]);
    assert.equal(await store.getKv('gone'), undefined);
    assert.equal(await store.getKv('never-set'), undefined);
  });
});

test('checkpoints pop newest first, once each, and the undone mark survives a reopen', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const sessionId = await withStore(file, async (store) => {
    const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
    const other = await store.createSession({ title: 'Other', model: 'm', provider: 'p' });
    await store.pushCheckpoint(s.id, '/w/a.ts', 'a v1');
    await store.pushCheckpoint(s.id, '/w/new.ts', null);
    await store.pushCheckpoint(other.id, '/w/other.ts', 'other');
    await store.pushCheckpoint(s.id, '/w/a.ts', 'a v2');
    const popped = await store.popCheckpoint(s.id);
    assert.deepEqual([popped?.path, popped?.before], ['/w/a.ts', 'a v2']);
    return s.id;
  });
  await withStore(file, async (store) => {
    assert.deepEqual((await store.listCheckpoints(sessionId)).map((c) => c.path), ['/w/new.ts', '/w/a.ts']);
    const created = await store.popCheckpoint(sessionId);
    assert.deepEqual([created?.path, created?.before], ['/w/new.ts', null]);
    const first = await store.popCheckpoint(sessionId);
    assert.deepEqual([first?.path, first?.before], ['/w/a.ts', 'a v1']);
    assert.equal(await store.popCheckpoint(sessionId), undefined);
    await store.pushCheckpoint(sessionId, '/w/c.ts', 'c');
    assert.equal((await store.popCheckpoint(sessionId))?.path, '/w/c.ts');
  });
});

test('a turn left open when the process stopped shows as interrupted on the next open', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const ids = await withStore(file, async (store) => {
    const running = await store.createSession({ title: 'Running', model: 'm', provider: 'p' });
    const finished = await store.createSession({ title: 'Finished', model: 'm', provider: 'p' });
    await store.beginTurn(running.id);
    await store.beginTurn(finished.id);
    await store.endTurn(finished.id);
    assert.equal((await store.getSession(running.id))?.turnOpen, true);
    return { running: running.id, finished: finished.id };
  });
  const heard: string[] = [];
  await withStore(file, async (store) => {
    assert.deepEqual(store.interruptedOnOpen.map((s) => s.id), [ids.running]);
    assert.equal((await store.getSession(ids.running))?.status, 'interrupted');
    assert.equal((await store.getSession(ids.running))?.turnOpen, false);
    assert.equal((await store.getSession(ids.finished))?.status, 'active');
    assert.equal(store.notices.length, 1);
    assert.equal(store.notices[0]?.kind, 'sessions-interrupted');
    assert.match(store.notices[0]?.message ?? '', /"Running"/);
    await store.markActive(ids.running);
    await store.markInterrupted(ids.finished);
  }, { ...options(), onNotice: (n) => heard.push(n.kind) });
  assert.deepEqual(heard, ['sessions-interrupted']);
  await withStore(file, async (store) => {
    assert.deepEqual(store.interruptedOnOpen, [], 'reported once, not on every open');
    assert.equal((await store.getSession(ids.running))?.status, 'active');
    assert.equal((await store.getSession(ids.finished))?.status, 'interrupted');
  });
});

test('bad input is refused with a clear error and writes nothing', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  await withStore(file, async (store) => {
    const s = await store.createSession({ title: 'T', model: 'm', provider: 'p' });
    await store.appendMessage(s.id, { role: 'user', content: 'ok' });
    const before = store.notices.length;
    await assert.rejects(store.appendMessage(s.id, { role: 'robot' as 'user', content: 'x' }), /Unknown message role "robot"/);
    await assert.rejects(store.appendMessage(s.id, { role: 'user', content: 42 as unknown as string }), isCode('invalid-input'));
    await assert.rejects(store.appendMessage(s.id, { role: 'user', content: 'x', tokens: { prompt: -1 } }), /whole number/);
    await assert.rejects(
      store.appendMessage(s.id, { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'x', arguments: 5 as unknown as string }] }),
      /arguments must be a string or an object/,
    );
    await assert.rejects(store.appendMessage('missing', { role: 'user', content: 'x' }), isCode('not-found'));
    await assert.rejects(store.createSession({ title: '', model: 'm', provider: 'p' }), /cannot be empty/);
    await assert.rejects(store.pushCheckpoint(s.id, '', 'x'), isCode('invalid-input'));
    await assert.rejects(store.exportSession(s.id, 'pdf' as 'json'), /Unknown export format/);
    assert.equal((await store.loadMessages(s.id)).length, 1);
    assert.equal((await store.listSessions()).length, 1);
    assert.equal(store.notices.length, before);
  });
});

test('a closed store refuses calls; a second opener of the same file is told who holds it', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await SessionStore.open(file, options());
  await assert.rejects(SessionStore.open(file, options()), (err: unknown) => isCode('locked')(err) && /this process/.test((err as Error).message));
  await store.close();
  await store.close(); // twice is fine
  await assert.rejects(store.listSessions(), isCode('closed'));
  const again = await SessionStore.open(file, options());
  await again.close();
});

test('open honours an aborted signal', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(SessionStore.open(file, { ...options(), signal: controller.signal }), { name: 'AbortError' });
  // Nothing was left locked.
  const store = await SessionStore.open(file, options());
  await store.close();
});

test('exportSession returns Markdown and JSON built from the stored session', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  await withStore(file, async (store) => {
    const s = await store.createSession({ title: 'Export me', model: 'llama3.1', provider: 'lmstudio' });
    for (const message of conversation) await store.appendMessage(s.id, message);
    const compressed = await store.updateMessage(4, { content: '[compressed]' });
    await store.setSummary(s.id, { text: 'Read two files.', filesTouched: ['a.ts'] });

    const markdown = await store.exportSession(s.id, 'markdown');
    assert.match(markdown, /^# Export me\n/);
    assert.match(markdown, /- Model: llama3\.1 \(lmstudio\)/);
    assert.match(markdown, /## Tool result: read_file \(call_1\)\n\n```\nexport const a = 1;\n```/);
    assert.match(markdown, /\*\*Tool call\*\* `read_file` \(call_1\)\n\n```json\n\{\n  "path": "a\.ts"\n\}\n```/);
    assert.match(markdown, /```json\n\{"path": "b\.ts"\n```/, 'invalid JSON arguments are shown as the model sent them');
    assert.match(markdown, /<details><summary>Thinking<\/summary>/);
    assert.match(markdown, /## Assistant \(shown only, not sent to the model\)/);
    assert.match(markdown, /## Summary\n\nRead two files\./);
    assert.doesNotMatch(markdown, /\[compressed\]/, 'the Markdown shows the conversation as it happened');

    const json = JSON.parse(await store.exportSession(s.id, 'json')) as {
      format: string;
      session: { id: string; title: string };
      summary: { text: string };
      messages: Array<{ id: number; content: string; compressedFrom?: number }>;
    };
    assert.equal(json.format, 'localharness-session');
    assert.equal(json.session.id, s.id);
    assert.equal(json.summary.text, 'Read two files.');
    assert.equal(json.messages.length, conversation.length + 1);
    assert.deepEqual(json.messages.find((m) => m.id === compressed), {
      ...json.messages.find((m) => m.id === compressed),
      content: '[compressed]',
      compressedFrom: 4,
    });
    await assert.rejects(store.exportSession('missing', 'json'), isCode('not-found'));
  });
});
