// Compression survives in a stored CLI session: each compressed copy is a new version of its stored message
// (linked by compressed_from, the original kept whole for the panel and exports), the session summary is
// stored, and the context state (eviction point + summary) is saved and restored by `run --session`, so the
// continued session starts from the prompt the model last saw instead of the whole history.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, messagesOf } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { decodeContextState } from '../../../src/cli/storedContext';
import { FILE_COUNT, FILE_TASK, TOOL_ROUNDS, fileTaskModel, fileTaskWorkspace, kindOf } from '../../helpers/tasks/fileTask';
import { WindowedScript } from '../../helpers/fakeLlm/windowedScript';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** user + (assistant + its results) per round; the last round moves a note and reports. */
const MESSAGES = 1 + TOOL_ROUNDS + TOOL_ROUNDS + 1;

for (const wire of WIRE_FORMATS) {
  describe(`compression in a stored session over ${wire.name}`, () => {
    test('compressed copies link to their originals; summary and eviction point are restored by --session', async () => {
      const ws = fileTaskWorkspace();
      const db = path.join(ws, '..', 'sessions.db');
      const windowed = new WindowedScript({ window: 4096 });
      const server = await wire.start(windowed.script(fileTaskModel()), `stored compression ${wire.name}`);
      servers.push(server);
      const run = await runCli(
        ['run', ...wire.flags(server), '--num-ctx', '4096', '--workspace', ws, '--db', db, '--max-rounds', String(TOOL_ROUNDS), '--json', FILE_TASK],
        { cwd: ws, timeoutMs: 60_000 },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(windowed.overWindow, []);
      const compressions = run.events.filter((e) => e.type === 'compression');
      assert.ok(compressions.some((c) => c.method === 'eviction'), JSON.stringify(compressions));
      const sessionId = /session ([0-9a-f-]{36})/.exec(run.stderr)![1]!;

      let summaryText: string;
      const store = await SessionStore.open(db);
      try {
        const info = (await store.getSession(sessionId))!;
        assert.equal(info.messageCount, MESSAGES, 'compressed copies are not counted twice');

        // The conversation as it happened: every read result whole.
        const originals = await store.loadOriginalMessages(sessionId);
        assert.equal(originals.length, MESSAGES);
        assert.equal(originals.filter((m) => m.role === 'tool' && /Document kind: \w+\./.test(m.content)).length, FILE_COUNT);

        // The conversation as the model sees it: compressed copies in place of their originals.
        const current = await store.loadMessages(sessionId);
        assert.equal(current.length, MESSAGES);
        const copies = current.filter((m) => m.compressedFrom !== undefined);
        assert.ok(copies.length >= 1, 'at least one compressed copy was stored');
        for (const copy of copies) {
          const original = originals.find((m) => m.id === copy.compressedFrom)!;
          assert.ok(original, `copy ${copy.id} links to a stored original`);
          assert.equal(original.supersededBy !== undefined, true);
          assert.deepEqual([copy.seq, copy.role, copy.toolCallId], [original.seq, original.role, original.toolCallId]);
          assert.match(copy.content, /^\[Compressed\]/);
          assert.ok(copy.content.length < original.content.length);
        }

        const summary = await store.getSummary(sessionId);
        assert.ok(summary, 'the session summary is stored');
        assert.ok(summary.filesTouched.some((f) => /^note-\d\d\.txt$/.test(f)), summary.filesTouched.join(', '));
        summaryText = summary.text;
        const state = decodeContextState(await store.getKv(`contextState:${sessionId}`));
        assert.ok(state && state.evictedThrough > 0, 'the eviction point is stored');
        assert.ok(state.summary && state.summary.lines.length > 0);
      } finally {
        await store.close();
      }

      // Continue with a larger window: the restored view fits without compressing again, the summary is back
      // (opening the first message after the system prompt), and what was evicted stays out.
      const resumeScript = new WindowedScript({ window: 8192 });
      const resumeServer = await wire.start(
        resumeScript.script(() => ({ toolCalls: [{ name: 'task_completion', arguments: { result: `I renamed ${FILE_COUNT} notes.` } }] })),
        `resume ${wire.name}`,
      );
      servers.push(resumeServer);
      const resumed = await runCli(
        ['run', ...wire.flags(resumeServer), '--num-ctx', '8192', '--workspace', ws, '--db', db, '--session', sessionId, '--json', 'Which notes did you rename?'],
        { cwd: ws, timeoutMs: 30_000 },
      );
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.deepEqual(resumed.events.filter((e) => e.type === 'compression'), [], 'the restored state needed no new compression');
      assert.equal(resumeServer.requests.length, 1);
      const sent = messagesOf(resumeServer.requests[0]!);
      assert.equal(sent[0]!.role, 'system');
      // The restored summary opens the conversation (rendered for the larger window, so possibly with more of its
      // lines): the same newest line and the same files. The system prompt stays free of it.
      const summaryLines = summaryText.split('\n');
      const files = summaryLines.at(-1)!;
      assert.match(files, /^Files touched: /);
      assert.doesNotMatch(sent[0]!.content, /# Session summary/);
      assert.match(sent[1]!.content, /^# Session summary\n/);
      assert.ok(sent[1]!.content.includes(files), `${files}\nnot in\n${sent[1]!.content}`);
      assert.ok(sent[1]!.content.includes(summaryLines.at(-2)!), 'the newest summary line');
      assert.ok(sent.length < MESSAGES / 2, `${sent.length} messages sent of ${MESSAGES + 1} stored`);
      assert.equal(sent.at(-1)!.content, 'Which notes did you rename?');
      assert.ok(sent.some((m) => m.content.startsWith('[Compressed]')), 'compressed copies come back compressed');
      // The first notes' read results were evicted; the last note's is still there, whole.
      assert.ok(!sent.some((m) => m.content.includes(`Document kind: ${kindOf(1)}.`) && m.content.includes('Note 1\n')));
      assert.ok(sent.some((m) => m.role === 'tool' && m.content.includes(`Note ${FILE_COUNT}\n`)));
      assert.ok(resumeScript.largest < 8192 * 0.7);
    });
  });
}

describe('a damaged context state', () => {
  test('is ignored with a warning: the session continues from its whole stored history', async () => {
    const wire = WIRE_FORMATS[0]!;
    const ws = fileTaskWorkspace(1);
    const db = path.join(ws, '..', 'sessions.db');
    const server = await wire.start(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'note-01.txt' } }] },
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'Read it.' } }] },
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'Still here.' } }] },
      ],
      'damaged state',
    );
    servers.push(server);
    const first = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, 'read note 1'], { cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    const sessionId = /session ([0-9a-f-]{36})/.exec(first.stderr)![1]!;
    const store = await SessionStore.open(db);
    await store.setKv(`contextState:${sessionId}`, '{"evictedThrough": "lots"');
    await store.close();

    const resumed = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--session', sessionId, 'still there?'], { cwd: ws });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /saved context state of session .* is unreadable; continuing from the whole stored history/);
    const sent = messagesOf(server.requests[2]!);
    assert.deepEqual(
      sent.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'user'],
    );
    assert.match(sent[3]!.content, /Document kind/);
  });
});
