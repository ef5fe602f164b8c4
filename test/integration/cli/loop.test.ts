// The agent loop through the real CLI process, against wire-faithful fake servers of both formats,
// on a real temp workspace.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, mkdirSync, symlinkSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, messagesOf, toolResults } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';

function tempWorkspace(): { root: string; ws: string; outside: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-cli-'));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'top secret\n');
  return { root, ws, outside };
}

function snapshot(dir: string): string {
  return readdirSync(dir)
    .sort()
    .map((n) => `${n}:${statSync(path.join(dir, n)).size}:${statSync(path.join(dir, n)).mtimeMs}`)
    .join('|');
}

for (const wire of WIRE_FORMATS) {
  describe(`CLI agent loop over ${wire.name}`, () => {
    let servers: FakeServerHandle[] = [];
    const start: typeof wire.start = async (script, name) => {
      const s = await wire.start(script, name);
      servers.push(s);
      return s;
    };
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
      servers = [];
    });

    test('multi-round task: list → read → write, history accumulates across rounds', async () => {
      const { ws } = tempWorkspace();
      writeFileSync(path.join(ws, 'notes.txt'), 'alpha\nbeta\n');
      const server = await start(
        [
          { thinking: 'First look around.', toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] },
          { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
          { toolCalls: [{ name: 'write_file', arguments: { path: 'out/summary.txt', content: 'two lines: alpha, beta\n' } }] },
          { text: 'I wrote out/summary.txt with a summary of notes.txt.' },
        ],
        'multi-round',
      );
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', '--json', 'Summarise notes.txt into out/summary.txt'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(path.join(ws, 'out/summary.txt'), 'utf8'), 'two lines: alpha, beta\n');
      // The model saw its own earlier calls and results in every later round (seed "Bug #1").
      assert.equal(server.requests.length, 4);
      assert.match(toolResults(server.requests[1]!)[0]!, /notes\.txt/);
      assert.equal(toolResults(server.requests[2]!).length, 2);
      assert.match(toolResults(server.requests[2]!)[1]!, /alpha/);
      assert.equal(toolResults(server.requests[3]!).length, 3);
      assert.deepEqual(messagesOf(server.requests[3]!).filter((m) => m.role === 'assistant').map((m) => m.toolCalls), [
        ['list_directory'],
        ['read_file'],
        ['write_file'],
      ]);
      // A `status` notice ("waiting for … to answer /api/show") may come first when a lookup is slow on a loaded
      // machine; it is not part of the turn. Every event of the turn comes after turn_start.
      const types = run.events.map((e) => e.type).filter((t) => t !== 'status');
      assert.equal(types[0], 'turn_start');
      assert.ok(types.includes('thinking'));
      assert.equal(types.filter((t) => t === 'round_start').length, 4);
      assert.equal(types.filter((t) => t === 'tool_call').length, 3);
      const results = run.events.filter((e) => e.type === 'tool_result');
      assert.deepEqual(results.map((e) => [e.name, e.ok]), [['list_directory', true], ['read_file', true], ['write_file', true]]);
      assert.deepEqual(run.events.at(-1), { type: 'turn_end', reason: 'completed', result: 'I wrote out/summary.txt with a summary of notes.txt.' });
    });

    test('max rounds ends with a clear error and exit code 1', async () => {
      const { ws } = tempWorkspace();
      const server = await start(() => ({ toolCalls: [{ name: 'todo_read', arguments: {} }] }), 'max-rounds');
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--max-rounds', '3', '--json', 'loop forever'], { cwd: ws });
      assert.equal(run.code, 1);
      assert.equal(server.requests.length, 3);
      const error = run.events.find((e) => e.type === 'error');
      assert.match(String(error?.message), /3 rounds/);
      assert.deepEqual(run.events.at(-1), { type: 'turn_end', reason: 'max_rounds' });
      assert.match(run.stderr, /3 rounds/);
    });

    test('a write without approval is denied (no TTY) and the model is told', async () => {
      const { ws } = tempWorkspace();
      const server = await start(
        [{ toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'nope' } }] }, { toolCalls: [{ name: 'task_completion', arguments: { result: 'The write was denied; nothing changed.' } }] }],
        'denial',
      );
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--json', 'write x.txt'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(existsSync(path.join(ws, 'x.txt')), false);
      const denied = toolResults(server.requests[1]!)[0]!;
      assert.match(denied, /denied/i);
      const result = run.events.find((e) => e.type === 'tool_result');
      assert.equal(result?.ok, false);
      assert.equal(result?.denied, true);
      assert.ok(run.events.some((e) => e.type === 'approval_result' && e.approved === false));
    });

    test('invalid arguments and unknown tools become tool results the model can act on', async () => {
      const { ws } = tempWorkspace();
      writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
      const server = await start(
        [
          {
            toolCalls: [
              { name: 'read_file', arguments: '{"path": "a.txt"' },
              { name: 'read_file', arguments: { path: 42 } },
              { name: 'delete_everything', arguments: {} },
            ],
          },
          { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
          { toolCalls: [{ name: 'task_completion', arguments: { result: 'The file says hello.' } }] },
        ],
        'invalid-args',
      );
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--json', 'read a.txt'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      const [badJson, badSchema, unknown] = toolResults(server.requests[1]!);
      if (wire.name === 'openai') assert.match(badJson!, /not valid JSON/);
      else assert.match(badJson!, /JSON|path/); // Ollama carries unparseable arguments wrapped; either way the model is told
      assert.match(badSchema!, /Invalid arguments for read_file: "path"/);
      assert.match(unknown!, /Unknown tool "delete_everything"\. Available tools: .*read_file/);
      assert.match(toolResults(server.requests[2]!)[3]!, /hello/);
    });

    test('path escapes are refused and nothing outside the workspace is touched', async () => {
      const { ws, outside } = tempWorkspace();
      symlinkSync(outside, path.join(ws, 'link-dir'));
      symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link-file'));
      const before = snapshot(outside);
      const attempts = [
        { name: 'read_file', arguments: { path: '../outside/secret.txt' } },
        { name: 'read_file', arguments: { path: path.join(outside, 'secret.txt') } },
        { name: 'read_file', arguments: { path: 'link-file' } },
        { name: 'read_file', arguments: { path: 'link-dir/secret.txt' } },
        { name: 'write_file', arguments: { path: '../outside/pwned.txt', content: 'x' } },
        { name: 'write_file', arguments: { path: 'link-dir/pwned.txt', content: 'x' } },
        { name: 'write_file', arguments: { path: path.join(outside, 'pwned.txt'), content: 'x' } },
        { name: 'edit_file', arguments: { path: 'link-file', old_text: 'top', new_text: 'bottom' } },
        { name: 'move_file', arguments: { source: 'link-file', destination: 'stolen.txt' } },
        { name: 'run_command', arguments: { command: 'ls', cwd: '../outside' } },
      ];
      const server = await start([{ toolCalls: attempts }, { toolCalls: [{ name: 'task_completion', arguments: { result: 'All refused.' } }] }], 'escapes');
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', '--json', 'escape'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      const results = run.events.filter((e) => e.type === 'tool_result' && e.name !== 'task_completion');
      assert.equal(results.length, attempts.length);
      for (const r of results) {
        assert.equal(r.ok, false, `${r.name} should have been refused: ${r.content}`);
        assert.match(String(r.content), /outside the workspace|not allowed|symbolic link/);
        assert.doesNotMatch(String(r.content), /top secret/);
      }
      assert.equal(snapshot(outside), before);
      assert.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'top secret\n');
      assert.equal(existsSync(path.join(ws, 'stolen.txt')), false);
    });

    test('cancellation (SIGINT) mid-stream closes the request and ends the turn as cancelled', async () => {
      const { ws } = tempWorkspace();
      const server = await start([{ text: 'This will take a while', fault: 'hang' }], 'cancel');
      const { spawn } = await import('node:child_process');
      const { CLI } = await import('../../helpers/cli/runCli');
      const dbPath = path.join(ws, '..', 'cancel.db');
      const child = spawn(process.execPath, [CLI, 'run', ...wire.flags(server), '--workspace', ws, '--db', dbPath, '--json', 'slow'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      // Wait until the model started answering, then interrupt (a loaded machine may take seconds to start the CLI).
      for (let i = 0; i < 800 && !stdout.includes('"type":"text"'); i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(stdout.includes('"type":"text"'), 'the stream should have started');
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      await server.waitForClientAbort(1, 5000);
      assert.equal(code, 1);
      const last = JSON.parse(stdout.trim().split('\n').at(-1)!);
      // With --db the event names the stored session (for --session).
      assert.match(String(last.sessionId), /^[0-9a-f-]{36}$/);
      assert.deepEqual(last, { type: 'turn_end', reason: 'cancelled', sessionId: last.sessionId });
      // What the user saw of the cut-off reply is kept in the stored history, marked as cut off.
      const { SessionStore } = await import('../../../src/persistence/sessionStore');
      const store = await SessionStore.open(dbPath);
      try {
        const [session] = await store.listSessions();
        const messages = await store.loadMessages(session!.id);
        assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant']);
        assert.match(messages[1]!.content, /^This will take a while[\s\S]*\[Reply cut off: the turn was cancelled\.\]$/);
      } finally {
        await store.close();
      }
    });
  });
}

describe('CLI usage and server errors', () => {
  test('usage errors exit with code 2 and a one-line reason', async () => {
    const noTask = await runCli(['run']);
    assert.equal(noTask.code, 2);
    assert.match(noTask.stderr, /missing TASK/);
    const badFlag = await runCli(['run', '--approve', 'maybe', 'x']);
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /--approve must be none, read or all/);
    const unknown = await runCli(['frobnicate']);
    assert.equal(unknown.code, 2);
  });

  test('connection refused names the URL and how to start the server; exit code 1', async () => {
    const { ws } = tempWorkspace();
    const run = await runCli(['run', '--provider', 'ollama', '--base-url', 'http://127.0.0.1:59999', '--model', 'm', '--workspace', ws, 'hello'], { cwd: ws });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /127\.0\.0\.1:59999/);
    assert.match(run.stderr, /ollama serve/);
    assert.equal(run.stderr.trim().split('\n').length, 1, 'one line on stderr');
  });
});
