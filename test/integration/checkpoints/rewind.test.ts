// Checkpoints through the real CLI (dist/cli.js, npm run build first) and a wire-faithful fake server, on both wire
// formats: three turns edit a CRLF file, create files (one in a new folder), move a Latin-1 file away (its old path is
// deleted) and overwrite another. `sessions rewind` brings back the exact bytes and the conversation, is itself undoable,
// refuses to overwrite a file the user changed since (listing it) unless --force, and a continued session sends
// the model only the conversation that is left. Also: what run_command changed, and the text tool protocol.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, messagesOf } from '../../helpers/cli/wire';
import type { FakeServerHandle, ScriptedReply } from '../../helpers/fakeLlm';
import { SessionStore } from '../../../src/persistence/sessionStore';

const CRLF = Buffer.from('line one\r\nline two\r\nline three\r\n', 'utf8');
const LATIN1 = Buffer.from('café naïve façade über\n', 'latin1');
const KEEP = Buffer.from('keep me exactly\n', 'utf8');

function workspace() {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-rewind-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'crlf.txt'), CRLF);
  writeFileSync(path.join(ws, 'latin1.txt'), LATIN1);
  writeFileSync(path.join(ws, 'keep.txt'), KEEP);
  return { ws, db: path.join(root, 'sessions.db'), at: (p: string) => path.join(ws, p) };
}

function done(result: string): ScriptedReply {
  return { toolCalls: [{ name: 'task_completion', arguments: { result } }] };
}

// Each turn: its tool calls, then a closing answer.
const TURNS: ScriptedReply[][] = [
  [
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'crlf.txt', old_text: 'line two', new_text: 'line 2' } }] },
    { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: '# notes\n' } }] },
    done('Turn one done.'),
  ],
  [
    { toolCalls: [{ name: 'write_file', arguments: { path: 'made/created.txt', content: 'brand new\n' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'crlf.txt', old_text: 'line three', new_text: 'line 3' } }] },
    done('Turn two done.'),
  ],
  [
    { toolCalls: [{ name: 'move_file', arguments: { source: 'latin1.txt', destination: 'moved/latin1.txt' } }] },
    { toolCalls: [{ name: 'write_file', arguments: { path: 'keep.txt', content: 'replaced\n' } }] },
    done('Turn three done.'),
  ],
];

const TASKS = ['first: edit two files', 'second: add a file', 'third: move and replace'];

/**
 * The reply to a request: the turn is the newest task the request carries, the step how many assistant replies
 * follow it (so an extra request the harness makes, a nudge or a retry, gets the next step or the closing answer).
 */
function replyFor(messages: Array<Record<string, unknown>>): ScriptedReply {
  const texts = messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
  let turn = -1;
  let at = -1;
  texts.forEach((t, i) => {
    if (messages[i]!.role !== 'user') return;
    const found = TASKS.findIndex((task) => t.includes(task));
    if (found >= 0) [turn, at] = [found, i];
    else if (t.includes('take two')) [turn, at] = [-1, i];
  });
  if (turn < 0) return { text: 'Continued after the rewind.' };
  const step = messages.slice(at + 1).filter((m) => m.role === 'assistant').length;
  const steps = TURNS[turn]!;
  return steps[Math.min(step, steps.length - 1)]!;
}

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of WIRE_FORMATS) {
  describe(`checkpoints over ${wire.name}`, () => {
    test('three turns, rewind to a message, undo, conflicts, --force, and a continued session', async () => {
      const { ws, db, at } = workspace();
      const server = await wire.start((request) => replyFor(request.messages ?? []), `rewind ${wire.name}`);
      servers.push(server);
      const run = async (task: string, session?: string) => {
        const args = ['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--approve', 'all', ...(session ? ['--session', session] : []), task];
        const result = await runCli(args, { cwd: ws });
        assert.equal(result.code, 0, result.stderr);
        return /session ([0-9a-f-]{36})/.exec(result.stderr)![1]!;
      };
      const sessions = (...args: string[]) => runCli(['sessions', '--db', db, ...args], { cwd: ws });
      const sid = await run(TASKS[0]!);
      await run(TASKS[1]!, sid);
      await run(TASKS[2]!, sid);

      const afterTurn3 = { crlf: readFileSync(at('crlf.txt')) };
      assert.equal(afterTurn3.crlf.toString('utf8').includes('line 3'), true);
      assert.equal(existsSync(at('latin1.txt')), false, 'the move deleted the old path');
      assert.equal(readFileSync(at('moved/latin1.txt')).equals(LATIN1), true);
      assert.equal(readFileSync(at('keep.txt'), 'utf8'), 'replaced\n');

      // The user's messages, numbered, with how many files each turn changed.
      const listed = await sessions('messages', '--session', sid, '--json');
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        listed.events.map((m) => [m.number, m.text, m.changedFiles]),
        [
          [1, TASKS[0], 2],
          [2, TASKS[1], 2],
          [3, TASKS[2], 3],
        ],
      );
      const text = await sessions('messages', '--session', sid);
      assert.match(text.stdout, /^\s+1 .*first: edit two files\s+\(2 files changed\)$/m);

      // Rewind to before message 2: the files as turn 1 left them, the conversation of turn 1 only.
      const toTwo = await sessions('rewind', '--session', sid, '--to', '2');
      assert.equal(toTwo.code, 0, toTwo.stderr);
      assert.match(toTwo.stdout, /restored\s+\S*crlf\.txt/);
      assert.match(toTwo.stdout, /deleted\s+\S*created\.txt/);
      assert.match(toTwo.stdout, /restored\s+\S*latin1\.txt/);
      assert.match(toTwo.stdout, /deleted\s+\S*moved\/latin1\.txt/);
      assert.equal(readFileSync(at('crlf.txt')).toString('utf8'), 'line one\r\nline 2\r\nline three\r\n');
      assert.equal(readFileSync(at('notes.md'), 'utf8'), '# notes\n', 'turn 1 made it; it stays');
      assert.equal(readFileSync(at('latin1.txt')).equals(LATIN1), true, 'Latin-1 bytes back in place');
      assert.equal(existsSync(at('made/created.txt')), false);
      assert.equal(existsSync(at('moved/latin1.txt')), false);
      assert.equal(readFileSync(at('keep.txt')).equals(KEEP), true);
      await assertConversation(db, sid, TASKS.slice(0, 1));

      // Undo the rewind: everything of turns 2 and 3 is back, files and messages.
      const undo = await sessions('rewind', '--session', sid, '--undo');
      assert.equal(undo.code, 0, undo.stderr);
      assert.equal(readFileSync(at('crlf.txt')).equals(afterTurn3.crlf), true);
      assert.equal(readFileSync(at('made/created.txt'), 'utf8'), 'brand new\n');
      assert.equal(existsSync(at('latin1.txt')), false);
      assert.equal(readFileSync(at('keep.txt'), 'utf8'), 'replaced\n');
      await assertConversation(db, sid, TASKS);

      // Rewind to before message 1: the exact original bytes (Latin-1, CRLF), nothing the agent made, no conversation.
      const toOne = await sessions('rewind', '--session', sid, '--to', '1', '--json');
      assert.equal(toOne.code, 0, toOne.stderr);
      assertOriginal(at);
      await assertConversation(db, sid, []);
      assert.equal((await sessions('rewind', '--session', sid, '--undo')).code, 0);

      // The user edits a file the agent changed; a rewind now lists it and changes nothing.
      writeFileSync(at('crlf.txt'), 'my own edit\r\n');
      const refused = await sessions('rewind', '--session', sid, '--to', '1');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /1 file\(s\) changed since the agent last wrote them: \S*crlf\.txt\. Nothing was changed\. Run again with --force/);
      assert.equal(refused.stderr.trim().split('\n').length, 1, 'one line');
      assert.equal(readFileSync(at('crlf.txt'), 'utf8'), 'my own edit\r\n');
      assert.equal(readFileSync(at('keep.txt'), 'utf8'), 'replaced\n');
      await assertConversation(db, sid, TASKS);

      // --force restores everything; undoing it brings the user's edit back too.
      const forced = await sessions('rewind', '--session', sid, '--to', '1', '--force');
      assert.equal(forced.code, 0, forced.stderr);
      assert.match(forced.stdout, /crlf\.txt\s+\(overwrote changes made since\)/);
      assertOriginal(at);
      assert.equal((await sessions('rewind', '--session', sid, '--undo')).code, 0);
      assert.equal(readFileSync(at('crlf.txt'), 'utf8'), 'my own edit\r\n');

      // Rewind to 2 again and continue the session: the model sees turn 1 and the new message, nothing else.
      assert.equal((await sessions('rewind', '--session', sid, '--to', '2', '--force')).code, 0);
      await run('second, take two', sid);
      const sent = messagesOf(server.requests[server.requests.length - 1]!).filter((m) => m.role === 'user').map((m) => m.content);
      assert.equal(sent.length, 2, JSON.stringify(sent));
      assert.match(sent[0]!, /first: edit two files/);
      assert.match(sent[1]!, /second, take two/);
      const blocked = await sessions('rewind', '--session', sid, '--undo');
      assert.equal(blocked.code, 1);
      assert.match(blocked.stderr, /the conversation went on after the restore/);
    });
  });
}

test('usage errors of sessions rewind are one line and exit 2', async () => {
  const { db } = workspace();
  for (const [args, message] of [
    [['rewind', '--to', '1'], /sessions rewind needs --session ID/],
    [['rewind', '--session', 'x'], /needs --to MESSAGE/],
    [['rewind', '--session', 'x', '--to', 'two'], /--to must be a message number/],
    [['messages', '--session', 'x', '--force'], /--force only works with `sessions rewind`/],
    [['--to', '1'], /--to only works with/],
  ] as const) {
    const result = await runCli(['sessions', '--db', db, ...args]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr.split('\n')[0]!, message);
  }
  const missing = await runCli(['sessions', '--db', db, 'messages', '--session', 'nope']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no session "nope"/);
});

function assertOriginal(at: (p: string) => string): void {
  assert.equal(readFileSync(at('crlf.txt')).equals(CRLF), true, 'CRLF bytes');
  assert.equal(readFileSync(at('latin1.txt')).equals(LATIN1), true, 'Latin-1 bytes');
  assert.equal(readFileSync(at('keep.txt')).equals(KEEP), true);
  assert.equal(existsSync(at('made/created.txt')), false);
  assert.equal(existsSync(at('moved/latin1.txt')), false);
  assert.equal(existsSync(at('notes.md')), false);
}

/** The stored conversation: the user messages that are left, and nothing of the removed turns. */
async function assertConversation(db: string, sid: string, userTexts: string[]): Promise<void> {
  const store = await SessionStore.open(db, { readOnly: true });
  try {
    const messages = await store.loadMessages(sid);
    assert.deepEqual(messages.filter((m) => m.role === 'user').map((m) => m.content), userTexts);
    const answers = messages.flatMap((m) => m.toolCalls ?? []).filter((c) => c.name === 'task_completion').map((c) => (typeof c.arguments === 'string' ? (JSON.parse(c.arguments) as { result: string }) : (c.arguments as { result: string })).result);
    assert.deepEqual(answers, ['Turn one done.', 'Turn two done.', 'Turn three done.'].slice(0, userTexts.length));
  } finally {
    await store.close();
  }
}

test('what run_command changes is checkpointed too: rewind undoes a command\'s edit, new file and deletion', async () => {
  const { ws, db, at } = workspace();
  writeFileSync(at('gone.txt'), LATIN1);
  const task = 'run the script';
  const replies: ScriptedReply[] = [
    { toolCalls: [{ name: 'run_command', arguments: { command: "printf 'made by a command\\n' > cmd.txt && rm gone.txt && printf 'appended\\r\\n' >> crlf.txt" } }] },
    done('Ran it.'),
  ];
  const wire = WIRE_FORMATS[0]!;
  const server = await wire.start((request) => {
    const assistants = (request.messages ?? []).filter((m) => m.role === 'assistant').length;
    return replies[Math.min(assistants, replies.length - 1)];
  }, 'rewind run_command');
  servers.push(server);
  const result = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--approve', 'all', task], { cwd: ws });
  assert.equal(result.code, 0, result.stderr);
  const sid = /session ([0-9a-f-]{36})/.exec(result.stderr)![1]!;
  assert.equal(readFileSync(at('cmd.txt'), 'utf8'), 'made by a command\n', 'the command ran');
  assert.equal(existsSync(at('gone.txt')), false);

  const listed = await runCli(['sessions', '--db', db, 'messages', '--session', sid, '--json']);
  assert.deepEqual(listed.events.map((m) => [m.number, m.changedFiles]), [[1, 3]]);
  const rewound = await runCli(['sessions', '--db', db, 'rewind', '--session', sid, '--to', '1', '--workspace', ws]);
  assert.equal(rewound.code, 0, rewound.stderr);
  assert.match(rewound.stdout, /deleted\s+\S*cmd\.txt/);
  assert.equal(existsSync(at('cmd.txt')), false);
  assert.equal(readFileSync(at('gone.txt')).equals(LATIN1), true, 'the deleted Latin-1 file is back, byte for byte');
  assert.equal(readFileSync(at('crlf.txt')).equals(CRLF), true);
});

test('in the text tool protocol (<tool> blocks) the same edits are checkpointed and rewound', async () => {
  const { ws, db, at } = workspace();
  const block = (tool: string, args: Record<string, unknown>) => `<tool>${JSON.stringify({ server_name: 'local', tool_name: tool, arguments: args })}</tool>`;
  const replies: ScriptedReply[] = [
    { text: `Editing.\n${block('edit_file', { path: 'crlf.txt', old_text: 'line one', new_text: 'LINE ONE' })}` },
    { text: `${block('write_file', { path: 'made/by-text.txt', content: 'text protocol\n' })}` },
    { text: `${block('run_command', { command: 'rm keep.txt' })}` },
    { text: 'All done.' },
  ];
  const wire = WIRE_FORMATS[1]!;
  const server = await wire.start((request) => {
    const assistants = (request.messages ?? []).filter((m) => m.role === 'assistant').length;
    return replies[Math.min(assistants, replies.length - 1)];
  }, 'rewind text protocol');
  servers.push(server);
  const result = await runCli(['run', ...wire.flags(server), '--tool-protocol', 'xml', '--workspace', ws, '--db', db, '--approve', 'all', 'edit through text'], { cwd: ws });
  assert.equal(result.code, 0, result.stderr);
  const sid = /session ([0-9a-f-]{36})/.exec(result.stderr)![1]!;
  assert.match(readFileSync(at('crlf.txt'), 'utf8'), /LINE ONE/);
  assert.equal(existsSync(at('keep.txt')), false);
  const rewound = await runCli(['sessions', '--db', db, 'rewind', '--session', sid, '--to', '1', '--workspace', ws]);
  assert.equal(rewound.code, 0, rewound.stderr);
  assert.equal(readFileSync(at('crlf.txt')).equals(CRLF), true);
  assert.equal(readFileSync(at('keep.txt')).equals(KEEP), true);
  assert.equal(existsSync(at('made/by-text.txt')), false);
});
