// The editor-independent behaviour through ACP is the CLI's: the rename task in a 4,096-token window (compression,
// recovery, the server's measured window) and misbehaving models (HTTP 500s, a cut stream, a tool call written as
// text) pass through `localharness acp` as they do through `localharness run`, on both wire formats.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { compressionModel, renameTaskModel } from '../../helpers/weakModels';
import { FILE_COUNT, FILE_TASK, fileTaskWorkspace } from '../../helpers/tasks/fileTask';
import { WindowedScript } from '../../helpers/fakeLlm/windowedScript';
import { startAcpClient, agentText, type AcpTestClient } from '../../helpers/acp/acpClient';
import { assertAllRenamed, renamedCount } from '../smallWindows/smallWindowRuns';
import { appendCall, logLines, tempWorkspace } from '../weakModels/weakCli';

const WINDOW = 4096;

async function promptOnce(c: AcpTestClient, ws: string, text: string): Promise<{ sessionId: string; stopReason: acp.StopReason }> {
  await c.initialize();
  const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
  const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
  await c.settled();
  return { sessionId, stopReason };
}

for (const wire of WIRE_FORMATS) {
  describe(`CLI suites through ACP over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    const clients: AcpTestClient[] = [];
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(servers.map((s) => s.close()));
    });
    const client = (o: Parameters<typeof startAcpClient>[0]) => {
      const c = startAcpClient(o);
      clients.push(c);
      return c;
    };

    test(`12 notes renamed in a ${WINDOW}-token window; one "for this session" answer covers every move`, async (t) => {
      const ws = fileTaskWorkspace();
      const windowed = new WindowedScript({ window: WINDOW });
      const agent = renameTaskModel({ trustsTrimmed: false });
      const server = await wire.start(windowed.script(agent, compressionModel('follows')), `acp 4k rename (${wire.name})`);
      servers.push(server);
      const c = client({ args: [...wire.flags(server), '--num-ctx', String(WINDOW), '--max-rounds', '40'], cwd: ws, permission: 'session' });
      const { sessionId, stopReason } = await promptOnce(c, ws, FILE_TASK);
      const report = `${windowed.measured.length} requests, largest ${windowed.largest} of ${WINDOW}; ${renamedCount(ws, FILE_COUNT)}/${FILE_COUNT} renamed; ${stopReason}`;
      t.diagnostic(report);
      assert.deepEqual(windowed.overWindow, [], `requests over the window: ${report}`);
      assertAllRenamed(ws, FILE_COUNT, report);
      assert.equal(stopReason, 'end_turn', `${report}\n${c.stderr()}`);
      assert.deepEqual(agent.failures, [], report);
      // Moves are writes: the first was asked, "for this session" let the other eleven run without asking.
      assert.equal(c.log.permissions.length, 1, report);
      assert.equal(c.log.permissions[0]!.toolCall.kind, 'move');
      const moves = c.updatesOf(sessionId, 'tool_call').filter((u) => u.kind === 'move');
      assert.equal(moves.length, FILE_COUNT);
      const failed = c.updatesOf(sessionId, 'tool_call_update').filter((u) => u.status === 'failed' && moves.some((m) => m.toolCallId === u.toolCallId));
      assert.deepEqual(failed, [], 'no move failed');
    });

    test('HTTP 500s are retried: the command runs once and the answer is shown once', async () => {
      const ws = tempWorkspace('acp-500');
      const answer = 'I added "once" to log.txt.';
      const server = await wire.start([{ fault: 'http500' }, { text: 'Appending now.', toolCalls: [appendCall('once')] }, { fault: 'http500', status: 503 }, { text: answer }], 'acp-http-500');
      servers.push(server);
      const c = client({ args: [...wire.flags(server), '--approve', 'all'], cwd: ws });
      const { sessionId, stopReason } = await promptOnce(c, ws, 'Append "once" to log.txt');
      assert.equal(stopReason, 'end_turn', c.stderr());
      assert.equal(server.requests.length, 4);
      assert.deepEqual(logLines(ws), ['once']);
      assert.equal(agentText(c, sessionId), `Appending now.${answer}`);
      assert.equal((c.stderr().match(/retrying in/g) ?? []).length, 2, c.stderr());
    });

    test('a stream cut after text and a tool call is retried: no text twice, the tool runs once', async () => {
      const ws = tempWorkspace('acp-cut');
      const reply = { text: 'Appending the line to the log now.', toolCalls: [appendCall('cut-once')] };
      const server = await wire.start([{ ...reply, fault: 'cut' as const }, reply, { text: 'Done: log.txt has the new line.' }], 'acp-stream-cut');
      servers.push(server);
      const c = client({ args: [...wire.flags(server), '--approve', 'all'], cwd: ws });
      const { sessionId, stopReason } = await promptOnce(c, ws, 'Append "cut-once" to log.txt');
      assert.equal(stopReason, 'end_turn', c.stderr());
      assert.deepEqual(logLines(ws), ['cut-once']);
      assert.equal(agentText(c, sessionId), 'Appending the line to the log now.Done: log.txt has the new line.');
      assert.equal(c.updatesOf(sessionId, 'tool_call').length, 1);
    });

    test('a tool call printed as JSON text (fenced or bare) is run once, as a real tool call', async () => {
      const ws = tempWorkspace('acp-jsontext');
      const server = await wire.start(
        [
          { text: 'I will run it now.\n```json\n{"name": "run_command", "arguments": {"command": "echo json >> log.txt"}}\n```' },
          { text: '{"name": "read_file", "arguments": {"path": "log.txt"}}' },
          { text: 'Done: log.txt has the line "json".' },
        ],
        'acp-json-as-text',
      );
      servers.push(server);
      const c = client({ args: [...wire.flags(server), '--approve', 'all'], cwd: ws });
      const { sessionId, stopReason } = await promptOnce(c, ws, 'Append "json" to log.txt');
      assert.equal(stopReason, 'end_turn', c.stderr());
      assert.deepEqual(logLines(ws), ['json']);
      assert.deepEqual(c.updatesOf(sessionId, 'tool_call').map((u) => [u.kind, u.title]), [['execute', 'run_command: echo json >> log.txt'], ['read', 'read_file: log.txt']]);
      // The calls are tool calls in the client, never part of the answer.
      assert.equal(agentText(c, sessionId).replace(/\s+/g, ' '), 'I will run it now. Done: log.txt has the line "json".');
      assert.match(c.stderr(), /wrote a tool call as text instead of calling it; running it \(run_command\)/);
    });

    test('the round limit stops with max_turn_requests; the todo list arrives as a plan', async () => {
      const ws = tempWorkspace('acp-rounds');
      const todos = { todos: [{ text: 'Look around', status: 'done' }, { text: 'Fix the bug', status: 'in_progress' }, { text: 'Run the tests', status: 'pending' }] };
      const server = await wire.start((_, i) => (i === 0 ? { toolCalls: [{ name: 'todo_write', arguments: todos }] } : { toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }), 'acp-rounds');
      servers.push(server);
      const c = client({ args: [...wire.flags(server), '--max-rounds', '3'], cwd: ws });
      const { sessionId, stopReason } = await promptOnce(c, ws, 'Keep looking');
      assert.equal(stopReason, 'max_turn_requests', c.stderr());
      assert.equal(server.requests.length, 3);
      const plan = c.updatesOf(sessionId, 'plan').at(-1)!;
      assert.deepEqual(plan.entries.map((e) => [e.content, e.status]), [['Look around', 'completed'], ['Fix the bug', 'in_progress'], ['Run the tests', 'pending']]);
    });

    test('a model that keeps failing ends the prompt with a clear JSON-RPC error; the session stays usable', async () => {
      const ws = tempWorkspace('acp-down');
      let calls = 0;
      const server = await wire.start(() => (++calls <= 3 ? { fault: 'http500', errorMessage: 'CUDA error: out of memory' } : { text: 'Back again.' }), 'acp-down');
      servers.push(server);
      const c = client({ args: wire.flags(server), cwd: ws });
      await c.initialize();
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      await assert.rejects(
        c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Hello' }] }),
        (e: acp.RequestError) => e.code === -32603 && /HTTP 500/.test(e.message),
      );
      const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Hello again' }] });
      assert.equal(stopReason, 'end_turn');
      await c.settled();
      assert.match(agentText(c, sessionId), /Error: .*HTTP 500[\s\S]*Back again\./);
    });
  });
}
