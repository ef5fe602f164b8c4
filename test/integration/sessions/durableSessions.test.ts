// Durable sessions through the CLI: a real child process SIGKILLed in the middle of a turn loses nothing that
// existed before the kill, `sessions` shows the turn as interrupted, `run --session` resumes it with the whole
// history; a corrupt database file is moved aside (and the user told where) instead of crashing the CLI.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, messagesOf } from '../../helpers/cli/wire';
import type { FakeServerHandle, ScriptedReply } from '../../helpers/fakeLlm';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { startCli, waitFor } from './killableCli';

function workspace(): { ws: string; db: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-sessions-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'a.txt'), 'alpha file\n');
  writeFileSync(path.join(ws, 'b.txt'), 'beta file\n');
  return { ws, db: path.join(root, 'state', 'sessions.db') };
}

interface ListedSession {
  id: string;
  title: string;
  model: string;
  status: string;
  messageCount: number;
}

async function listSessions(db: string): Promise<{ sessions: ListedSession[]; stderr: string; text: string }> {
  const json = await runCli(['sessions', '--db', db, '--json']);
  assert.equal(json.code, 0, json.stderr);
  const text = await runCli(['sessions', '--db', db]);
  assert.equal(text.code, 0, text.stderr);
  return { sessions: json.events as unknown as ListedSession[], stderr: json.stderr, text: text.stdout };
}

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of WIRE_FORMATS) {
  describe(`durable sessions over ${wire.name}`, () => {
    test('SIGKILL mid-turn: nothing before the kill is lost, the session shows as interrupted, --session resumes it', async () => {
      const { ws, db } = workspace();
      const replies: ScriptedReply[] = [
        { toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] },
        { thinking: 'Read the first one.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { text: 'Reading b.txt next', fault: 'hang' }, // the CLI is killed while this reply streams
        { text: 'Both files are read: alpha and beta.' },
      ];
      const server = await wire.start((_request, index) => replies[index], `kill -9 ${wire.name}`);
      servers.push(server);
      const task = 'Read every file in the folder';

      const cli = startCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--json', task], ws);
      await waitFor(() => server.requests.length === 3, 'the third model request', 20_000).catch((e: Error) => {
        throw new Error(`${e.message}\n${cli.output().stderr}`);
      });
      await waitFor(() => cli.output().stdout.includes('"type":"text"'), 'the hanging reply to start streaming');
      const killed = await cli.kill9();
      assert.equal(killed.signal, 'SIGKILL');
      const sessionId = /session ([0-9a-f-]{36})/.exec(cli.output().stderr)?.[1];
      assert.ok(sessionId, cli.output().stderr);

      // `sessions` lists it as interrupted, with every message that existed before the kill.
      const listed = await listSessions(db);
      assert.equal(listed.sessions.length, 1);
      assert.deepEqual(
        { ...listed.sessions[0]!, ...{ id: listed.sessions[0]!.id } },
        { ...listed.sessions[0]!, id: sessionId, title: task, model: 'test-model', status: 'interrupted', messageCount: 5 },
      );
      assert.match(listed.text, new RegExp(`${sessionId}.*test-model.*5 messages.*${task}.*\\[interrupted\\]`));

      // The stored messages themselves: the user message, both assistant tool calls and both results.
      const store = await SessionStore.open(db);
      try {
        const messages = await store.loadMessages(sessionId);
        assert.deepEqual(
          messages.map((m) => [m.role, m.toolCalls?.map((c) => c.name) ?? [], m.toolName ?? '']),
          [
            ['user', [], ''],
            ['assistant', ['list_directory'], ''],
            ['tool', [], 'list_directory'],
            ['assistant', ['read_file'], ''],
            ['tool', [], 'read_file'],
          ],
        );
        assert.equal(messages[0]!.content, task);
        assert.equal(messages[3]!.thinking, 'Read the first one.');
        assert.match(messages[2]!.content, /a\.txt[\s\S]*b\.txt/);
        assert.match(messages[4]!.content, /alpha file/);
        assert.equal(messages[4]!.toolCallId, messages[3]!.toolCalls![0]!.id);
        // The partly streamed reply was never a message.
        assert.ok(messages.every((m) => !m.content.includes('Reading')));
      } finally {
        await store.close();
      }

      // Resume: the first request carries the whole history, then the new message.
      const resumed = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--session', sessionId, '--json', 'continue'], { cwd: ws });
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, new RegExp(`session ${sessionId} was interrupted in the middle of a turn; continuing it`));
      assert.equal(server.requests.length, 4);
      const sent = messagesOf(server.requests[3]!);
      assert.deepEqual(
        sent.map((m) => [m.role, m.toolCalls]),
        [
          ['system', []],
          ['user', []],
          ['assistant', ['list_directory']],
          ['tool', []],
          ['assistant', ['read_file']],
          ['tool', []],
          ['user', []],
        ],
      );
      assert.equal(sent[1]!.content, task);
      assert.match(sent[5]!.content, /alpha file/);
      assert.equal(sent[6]!.content, 'continue');
      assert.equal(resumed.events.at(-1)?.type, 'turn_end');

      const afterResume = await listSessions(db);
      assert.equal(afterResume.sessions[0]!.status, 'active');
      assert.equal(afterResume.sessions[0]!.messageCount, 7);
      assert.doesNotMatch(afterResume.text, /\[interrupted\]/);
    });
  });
}

describe('session database problems', () => {
  const wire = WIRE_FORMATS[0]!;

  test('a corrupt database is moved aside, the CLI runs on a new one and says where the old file is', async () => {
    const { ws, db } = workspace();
    mkdirSync(path.dirname(db), { recursive: true });
    const garbage = Buffer.concat([Buffer.from('definitely not SQLite '), randomBytes(8192)]);
    writeFileSync(db, garbage);
    const server = await wire.start([{ text: 'Hello again.' }], 'corrupt db');
    servers.push(server);

    const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--json', 'say hello'], { cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.events.at(-1)?.result, 'Hello again.');
    const moved = /The old files were kept as (\S+?)\.?(?: and |\n|$)/m.exec(run.stderr)?.[1];
    assert.ok(moved, `stderr names the moved file:\n${run.stderr}`);
    assert.match(run.stderr, new RegExp(`The session database ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be read`));
    assert.notEqual(moved, db);
    assert.ok(existsSync(moved));
    assert.deepEqual(readFileSync(moved), garbage, 'the old bytes are kept, not lost');

    // The new database works and holds the new session; the notice is not repeated.
    const listed = await listSessions(db);
    assert.equal(listed.sessions.length, 1);
    assert.equal(listed.sessions[0]!.title, 'say hello');
    assert.equal(listed.sessions[0]!.messageCount, 2);
    assert.doesNotMatch(listed.stderr, /could not be read/);
  });

  test('sessions --json lists title, model and message count, most recent first', async () => {
    const { ws, db } = workspace();
    const server = await wire.start(
      [{ text: 'First answer.' }, { toolCalls: [{ name: 'read_file', arguments: { path: 'b.txt' } }] }, { toolCalls: [{ name: 'task_completion', arguments: { result: 'It says beta.' } }] }],
      'sessions list',
    );
    servers.push(server);
    const flags = wire.flags(server).filter((f, i, all) => f !== '--model' && all[i - 1] !== '--model');
    const first = await runCli(['run', ...flags, '--model', 'model-one', '--workspace', ws, '--db', db, 'first task'], { cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    const second = await runCli(['run', ...flags, '--model', 'model-two', '--workspace', ws, '--db', db, 'what does b.txt say?'], { cwd: ws });
    assert.equal(second.code, 0, second.stderr);

    const { sessions, text } = await listSessions(db);
    assert.deepEqual(
      sessions.map((s) => ({ title: s.title, model: s.model, messageCount: s.messageCount, status: s.status })),
      [
        { title: 'what does b.txt say?', model: 'model-two', messageCount: 5, status: 'active' },
        { title: 'first task', model: 'model-one', messageCount: 2, status: 'active' },
      ],
    );
    assert.match(text, /model-two\s+5 messages\s+what does b\.txt say\?/);
  });

  test('--session with an unknown id is a usage error that names the fix', async () => {
    const { ws, db } = workspace();
    const server = await wire.start([{ text: 'unused' }], 'unknown session');
    servers.push(server);
    const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--session', 'no-such-id', 'hello'], { cwd: ws });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no session "no-such-id"/);
    assert.match(run.stderr, /localharness sessions --db/);
    assert.equal(server.requests.length, 0);
  });
});
