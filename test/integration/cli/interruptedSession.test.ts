// An interrupted command must not leave a session that cannot continue. Ctrl-C while a command that ignores
// signals runs (a real CLI process, a real shell): the stored history still has a result for the call, and
// resuming with --session passes a server that validates the conversation as vLLM / OpenAI do (the fake
// servers' `strict` mode answers 400 otherwise), on both wire formats. Needs `npm run build`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CLI, runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, messagesOf } from '../../helpers/cli/wire';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { SessionStore } from '../../../src/persistence/sessionStore';

const STUBBORN = `trap '' INT TERM; echo started; sleep 30`;

function strictServer(wire: 'ollama' | 'openai', script: Array<ScriptedReply | ((r: ChatBody) => ScriptedReply)>): Promise<FakeServerHandle> {
  return wire === 'ollama' ? startFakeOllamaServer(script, { name: 'strict', strict: true }) : startFakeOpenAIServer(script, { name: 'strict', strict: true });
}

/** Runs the CLI and sends one SIGINT once the command is running; resolves with the exit code and output. */
function runAndInterrupt(args: string[], cwd: string, server: FakeServerHandle): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, LOCALHARNESS_DB: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let sent = false;
    const onData = (d: Buffer) => {
      out += d.toString();
      // The command printed "started": it runs, with SIGINT and SIGTERM ignored.
      if (!sent && /"type":"tool_call"/.test(out) && server.requests.length >= 1) {
        sent = true;
        setTimeout(() => child.kill('SIGINT'), 700);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`did not stop:\n${out}`));
    }, 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

for (const wire of WIRE_FORMATS) {
  test(`Ctrl-C during a command that ignores signals leaves a session that resumes against a validating server (${wire.name})`, async (t) => {
    const ws = mkdtempSync(path.join(tmpdir(), 'lh-intr-'));
    t.after(() => rmSync(ws, { recursive: true, force: true }));
    const db = path.join(ws, 'sessions.db');
    const first = await strictServer(wire.name, [{ toolCalls: [{ name: 'run_command', arguments: { command: STUBBORN }, id: 'call_stubborn' }] }]);
    t.after(() => first.close());
    const started = Date.now();
    const stopped = await runAndInterrupt(['run', ...wire.flags(first), '--workspace', ws, '--db', db, '--approve', 'all', '--sandbox', 'off', '--json', 'run the slow thing'], ws, first);
    assert.ok(Date.now() - started < 10_000, `stopping took ${Date.now() - started} ms`);
    assert.notEqual(stopped.code, 0, stopped.out);

    const store = await SessionStore.open(db);
    const [session] = await store.listSessions();
    const stored = await store.loadMessages(session!.id);
    await store.close();
    const calls = stored.filter((m) => m.role === 'assistant' && m.toolCalls?.length);
    assert.equal(calls.length, 1);
    // Written on the way out: the call already has its result on disk.
    const at = stored.findIndex((m) => m.role === 'assistant' && m.toolCalls?.length);
    assert.equal(stored[at + 1]?.role, 'tool', JSON.stringify(stored.map((m) => m.role)));
    assert.equal(stored[at + 1]?.toolCallId, calls[0]!.toolCalls![0]!.id);

    const second = await strictServer(wire.name, [{ text: 'Resumed fine.' }]);
    t.after(() => second.close());
    const resumed = await runCli(['run', ...wire.flags(second), '--workspace', ws, '--db', db, '--session', session!.id, '--approve', 'all', '--sandbox', 'off', 'carry on'], { cwd: ws, env: { LOCALHARNESS_DB: '' } });
    assert.equal(resumed.code, 0, resumed.stderr + resumed.stdout);
    assert.match(resumed.stdout, /Resumed fine\./);
    const sent = messagesOf(second.requests[0]!);
    const callAt = sent.findIndex((m) => m.toolCalls.includes('run_command'));
    assert.ok(callAt >= 0);
    assert.equal(sent[callAt + 1]?.role, 'tool', 'the call is followed by its result');
    assert.match(sent[callAt + 1]!.content, /interrupted|cancelled|Not finished/i);

    // And the result is on disk now: the next load needs no repair.
    const again = await SessionStore.open(db);
    const after = await again.loadMessages(session!.id);
    await again.close();
    const i = after.findIndex((m) => m.role === 'assistant' && m.toolCalls?.length);
    assert.equal(after[i + 1]?.role, 'tool');
  });
}
