// `localharness acp` driven by the official SDK's client side over the child's stdio, against the wire-faithful
// fake model servers of both formats: edits through the client's fs after its permission dialog, a denial,
// cancel in the middle of a command, a stored session loaded again, an MCP server the client hands over, and
// malformed input that gets a clear JSON-RPC error while the process stays up.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { WIRE_FORMATS, toolResults, messagesOf } from '../../helpers/cli/wire';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { startAcpClient, agentText, type AcpTestClient } from '../../helpers/acp/acpClient';
import { packageBin } from '../../helpers/mcp/mcpCliHelpers';
import { runCli } from '../../helpers/cli/runCli';

function workspace(): { root: string; ws: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'lh-acp-')));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  return { root, ws };
}

for (const wire of WIRE_FORMATS) {
  describe(`ACP agent over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    const clients: AcpTestClient[] = [];
    const start: typeof wire.start = async (script, name) => {
      const s = await wire.start(script, name);
      servers.push(s);
      return s;
    };
    const client = (o: Parameters<typeof startAcpClient>[0]) => {
      const c = startAcpClient(o);
      clients.push(c);
      return c;
    };
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(servers.map((s) => s.close()));
    });

    test('initialize answers with honest capabilities', async () => {
      const { ws } = workspace();
      const server = await start([], 'initialize');
      const c = client({ args: wire.flags(server), cwd: ws });
      const init = await c.initialize();
      assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
      assert.equal(init.agentCapabilities?.loadSession, false, 'no --db: nothing can be loaded');
      assert.deepEqual(init.agentCapabilities?.promptCapabilities, { image: true, audio: false, embeddedContext: true });
      assert.equal(init.agentInfo?.name, 'localharness');
    });

    test('an embedded text resource reaches the model as an attached block; a binary one is a clear error', async () => {
      const { ws } = workspace();
      const server = await start([{ text: 'Seen it.' }], 'embedded');
      const c = client({ args: wire.flags(server), cwd: ws });
      await c.initialize();
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const uri = pathToFileURL(path.join(ws, 'src', 'util.ts')).href;
      await assert.rejects(
        c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'resource', resource: { uri, blob: 'AAEC', mimeType: 'application/octet-stream' } }] }),
        (e: acp.RequestError) => e.code === -32602 && /binary/.test(e.message),
      );
      const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: 'text', text: 'What does this do?' },
          { type: 'resource', resource: { uri, text: 'export const twice = (n: number) => n * 2;\n', mimeType: 'text/x-typescript' } },
        ],
      });
      assert.equal(stopReason, 'end_turn');
      const user = messagesOf(server.requests[0]!).filter((m) => m.role === 'user').at(-1)!.content;
      assert.match(user, /src\/util\.ts/);
      assert.match(user, /export const twice = \(n: number\) => n \* 2;/);
      assert.match(user, /What does this do\?/);
    });

    test('an edit goes through session/request_permission, then fs/write_text_file; updates stream in order', async () => {
      const { ws } = workspace();
      writeFileSync(path.join(ws, 'notes.txt'), 'alpha\n');
      const server = await start(
        [
          { thinking: 'Read it first.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
          { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'alpha\nbeta\n' } }] },
          { toolCalls: [{ name: 'task_completion', arguments: { result: 'Added beta to notes.txt.' } }] },
        ],
        'edit',
      );
      const c = client({ args: wire.flags(server), cwd: ws, permission: 'once' });
      await c.initialize();
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Add beta to notes.txt' }] });
      assert.equal(stopReason, 'end_turn', c.stderr());
      await c.settled();
      assert.equal(readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'alpha\nbeta\n');
      // Read through the client (its buffer), asked, then written through the client (its undo).
      const firstAsk = c.log.calls.indexOf('session/request_permission');
      const firstWrite = c.log.calls.indexOf('fs/write_text_file');
      assert.ok(firstAsk >= 0 && firstWrite > firstAsk, `asked before writing: ${c.log.calls.join(', ')}`);
      assert.equal(c.log.writes.length, 1);
      assert.equal(c.log.writes[0]!.path, path.join(ws, 'notes.txt'));
      assert.equal(c.log.writes[0]!.content, 'alpha\nbeta\n');
      assert.ok(c.log.reads.some((r) => r.path === path.join(ws, 'notes.txt')));
      // The dialog offered the editor's four choices and named the call and its file.
      const ask = c.log.permissions[0]!;
      assert.deepEqual(ask.options.map((o) => o.optionId), ['once', 'session', 'workspace', 'deny']);
      assert.equal(ask.toolCall.kind, 'edit');
      assert.deepEqual(ask.toolCall.locations?.map((l) => l.path), [path.join(ws, 'notes.txt')]);
      // Tool calls with kinds, locations and their final status.
      const calls = c.updatesOf(sessionId, 'tool_call');
      assert.deepEqual(calls.map((u) => [u.kind, u.status]), [['read', 'pending'], ['edit', 'pending'], ['other', 'pending']]);
      assert.equal(calls[1]!.toolCallId, ask.toolCall.toolCallId);
      assert.deepEqual(calls[1]!.locations?.map((l) => l.path), [path.join(ws, 'notes.txt')]);
      const finals = c.updatesOf(sessionId, 'tool_call_update').filter((u) => u.status === 'completed' || u.status === 'failed');
      assert.deepEqual(finals.map((u) => [u.toolCallId, u.status]), calls.map((u) => [u.toolCallId, 'completed']));
      assert.equal(c.updatesOf(sessionId, 'agent_thought_chunk').map((u) => (u.content.type === 'text' ? u.content.text : '')).join(''), 'Read it first.');
      assert.equal(agentText(c, sessionId), 'Added beta to notes.txt.');
    });

    test('a denied permission leaves the file unchanged and tells the model; an error or no answer is a no too', async () => {
      for (const answer of ['deny', 'error', 'never'] as const) {
        const { ws } = workspace();
        writeFileSync(path.join(ws, 'notes.txt'), 'keep me\n');
        const server = await start(
          [{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'overwritten\n' } }] }, { toolCalls: [{ name: 'task_completion', arguments: { result: 'I could not change it.' } }] }],
          `deny-${answer}`,
        );
        const c = client({ args: wire.flags(server), cwd: ws, permission: answer, env: { LOCALHARNESS_APPROVAL_TIMEOUT_MS: '500' } });
        await c.initialize();
        const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
        const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Overwrite notes.txt' }] });
        assert.equal(stopReason, 'end_turn', `${answer}: ${c.stderr()}`);
        assert.equal(readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'keep me\n', answer);
        assert.deepEqual(c.log.writes, [], answer);
        assert.equal(c.log.permissions.length, 1, answer);
        const told = toolResults(server.requests[1]!).join('\n');
        assert.match(told, /denied|not approved|no answer|approval failed/i, `${answer}: the model is told: ${told}`);
        await c.settled();
        const write = c.updatesOf(sessionId, 'tool_call').find((u) => u.kind === 'edit')!;
        const final = c.updatesOf(sessionId, 'tool_call_update').filter((u) => u.toolCallId === write.toolCallId).at(-1)!;
        assert.equal(final.status, 'failed', answer);
        assert.ok(!c.updatesOf(sessionId, 'tool_call_update').some((u) => u.toolCallId === write.toolCallId && u.status === 'in_progress'), `${answer}: never ran`);
      }
    });

    test('"always in this workspace" is kept in the database: a later process on the folder does not ask again', async () => {
      const { root, ws } = workspace();
      const db = path.join(root, 'rules.db');
      const write = (content: string) => [{ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content } }] }, { toolCalls: [{ name: 'task_completion', arguments: { result: 'Wrote a.txt.' } }] }];
      const first = client({ args: [...wire.flags(await start(write('one\n'), 'always-1')), '--db', db], cwd: ws, permission: 'workspace' });
      await first.initialize();
      const s1 = await first.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      assert.equal((await first.agent.request(acp.methods.agent.session.prompt, { sessionId: s1.sessionId, prompt: [{ type: 'text', text: 'Write one' }] })).stopReason, 'end_turn');
      assert.equal(first.log.permissions.length, 1);
      assert.equal(await first.close(), 0, first.stderr());

      const second = client({ args: [...wire.flags(await start(write('two\n'), 'always-2')), '--db', db], cwd: ws, permission: 'deny' });
      await second.initialize();
      const s2 = await second.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      assert.equal((await second.agent.request(acp.methods.agent.session.prompt, { sessionId: s2.sessionId, prompt: [{ type: 'text', text: 'Write two' }] })).stopReason, 'end_turn');
      assert.deepEqual(second.log.permissions, [], 'not asked again (the client would have denied)');
      assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'two\n');
    });

    test('session/cancel in the middle of a slow command stops it and answers cancelled; the next prompt works', async () => {
      const { ws } = workspace();
      // A sleep of an odd length nothing else runs, so the test can see that this very process is gone.
      const marker = `30.${process.pid}${wire.name.length}`;
      const running = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').some((l) => l.trim() === `sleep ${marker}`);
      const server = await start(
        [{ toolCalls: [{ name: 'run_command', arguments: { command: `sleep ${marker}` } }] }, { text: 'After the cancel.' }],
        'cancel',
      );
      const c = client({ args: [...wire.flags(server), '--approve', 'all'], cwd: ws });
      await c.initialize();
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const started = Date.now();
      const prompt = c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Wait a while' }] });
      // Cancel once the command is running.
      for (let i = 0; i < 200 && !c.updatesOf(sessionId, 'tool_call_update').some((u) => u.status === 'in_progress'); i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(c.updatesOf(sessionId, 'tool_call_update').some((u) => u.status === 'in_progress'), `the command started: ${c.stderr()}`);
      for (let i = 0; i < 100 && !running(); i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(running(), 'the sleep is running before the cancel');
      await c.agent.notify(acp.methods.agent.session.cancel, { sessionId });
      const { stopReason } = await prompt;
      assert.equal(stopReason, 'cancelled');
      assert.ok(Date.now() - started < 10_000, `stopped well before the command's 30 s (${Date.now() - started} ms)`);
      for (let i = 0; i < 100 && running(); i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(running(), false, 'the command was killed, not left running');
      const second = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Say something' }] });
      assert.equal(second.stopReason, 'end_turn', c.stderr());
      await c.settled();
      assert.match(agentText(c, sessionId), /After the cancel\./);
    });

    test('cancel while the permission dialog is open: the dialog is withdrawn, nothing is written, cancelled', async () => {
      const { ws } = workspace();
      writeFileSync(path.join(ws, 'notes.txt'), 'keep\n');
      const server = await start([{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }] }, { text: 'unused' }], 'cancel-ask');
      const c = client({ args: wire.flags(server), cwd: ws, permission: 'never' });
      await c.initialize();
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const prompt = c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Change notes.txt' }] });
      for (let i = 0; i < 200 && c.log.permissions.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(c.log.permissions.length, 1, 'the dialog is open');
      await c.agent.notify(acp.methods.agent.session.cancel, { sessionId });
      assert.equal((await prompt).stopReason, 'cancelled');
      assert.equal(c.log.withdrawn, 1, 'the agent withdrew its request ($/cancel_request)');
      assert.equal(readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'keep\n');
      assert.deepEqual(c.log.writes, []);
    });

    test('a stored session loads again in a new process: history replayed, the model sees it', async () => {
      const { root, ws } = workspace();
      const db = path.join(root, 'sessions.db');
      const server = await start(
        [{ text: 'Hello! The answer is 42.' }, (request) => ({ text: messagesOf(request).some((m) => m.content.includes('The answer is 42')) ? 'I remember: 42.' : 'I forgot.' })],
        'load',
      );
      const first = client({ args: [...wire.flags(server), '--db', db], cwd: ws });
      const init = await first.initialize();
      assert.equal(init.agentCapabilities?.loadSession, true);
      const { sessionId } = await first.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      await first.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'What is the answer?' }] });
      assert.equal(await first.close(), 0, first.stderr());

      const second = client({ args: [...wire.flags(server), '--db', db], cwd: ws });
      await second.initialize();
      await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws, mcpServers: [] });
      await second.settled();
      assert.deepEqual(
        second.log.updates.filter((n) => n.sessionId === sessionId).map((n) => [n.update.sessionUpdate, 'content' in n.update && !Array.isArray(n.update.content) && n.update.content?.type === 'text' ? n.update.content.text : '']),
        [
          ['user_message_chunk', 'What is the answer?'],
          ['agent_message_chunk', 'Hello! The answer is 42.'],
        ],
      );
      const { stopReason } = await second.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Do you remember?' }] });
      assert.equal(stopReason, 'end_turn');
      await second.settled();
      assert.match(agentText(second, sessionId), /I remember: 42\./);
      // An unknown id is a clear error, not a new session.
      await assert.rejects(second.agent.request(acp.methods.agent.session.load, { sessionId: 'no-such-session', cwd: ws, mcpServers: [] }), (e: acp.RequestError) => e.code === -32002);
    });

    test('several sessions in one process record into the one database (an editor keeps threads open)', async () => {
      const { root, ws } = workspace();
      const db = path.join(root, 'threads.db');
      const server = await start(() => ({ text: 'An answer.' }), 'threads');
      const c = client({ args: [...wire.flags(server), '--db', db], cwd: ws });
      await c.initialize();
      const a = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const b = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      assert.notEqual(a.sessionId, b.sessionId);
      for (const [id, text] of [[a.sessionId, 'first A'], [b.sessionId, 'first B'], [a.sessionId, 'second A']] as const) {
        assert.equal((await c.agent.request(acp.methods.agent.session.prompt, { sessionId: id, prompt: [{ type: 'text', text }] })).stopReason, 'end_turn', c.stderr());
      }
      assert.equal(await c.close(), 0, c.stderr());
      const listed = await runCli(['sessions', '--db', db, '--json']);
      const sessions = listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; messageCount: number });
      assert.deepEqual(
        sessions.map((x) => [x.id, x.messageCount]).sort(),
        [[a.sessionId, 4], [b.sessionId, 2]].sort(),
      );
    });

    test('the model choice lists the server\'s chat models; switching keeps the conversation', async () => {
      const { ws } = workspace();
      const script = (request: { model?: string; messages?: Array<Record<string, unknown>> }) =>
        ({ text: `${request.model} saw ${messagesOf(request).filter((m) => m.role === 'user').length} user message(s).` });
      const server =
        wire.name === 'ollama'
          ? await startFakeOllamaServer((r) => script(r), {
              name: 'models',
              models: ['test-model', 'other-model', 'nomic-embed-text'].map((name) => ({ name, contextLength: 32768, capabilities: name.includes('embed') ? ['embedding'] : ['completion', 'tools'] })),
            })
          : await startFakeOpenAIServer((r) => script(r), { name: 'models', models: [{ id: 'test-model' }, { id: 'other-model' }, { id: 'nomic-embed-text' }] });
      servers.push(server);
      const c = client({ args: wire.flags(server), cwd: ws });
      await c.initialize();
      const created = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const option = created.configOptions?.[0];
      assert.ok(option && option.type === 'select', JSON.stringify(created));
      assert.equal(option.category, 'model');
      assert.equal(option.currentValue, 'test-model');
      assert.deepEqual((option.options as acp.SessionConfigSelectOption[]).map((o) => o.value), ['test-model', 'other-model'], 'embedding models are not offered');
      const { sessionId } = created;
      await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'one' }] });
      const set = await c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'other-model' });
      assert.equal(set.configOptions[0]!.currentValue, 'other-model');
      await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'two' }] });
      await c.settled();
      assert.equal(agentText(c, sessionId), 'test-model saw 1 user message(s).other-model saw 2 user message(s).');
      await assert.rejects(c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'no-such-model' }), (e: acp.RequestError) => e.code === -32602);
    });

    test('an MCP server the client hands over starts and its tools are called', async () => {
      const { ws } = workspace();
      writeFileSync(path.join(ws, 'data.txt'), 'from the mcp server\n');
      const server = await start(
        [{ toolCalls: [{ name: 'files__read_text_file', arguments: { path: path.join(ws, 'data.txt') } }] }, { text: 'Read it over MCP.' }],
        'mcp',
      );
      const c = client({ args: [...wire.flags(server), '--max-tools', '40'], cwd: ws });
      await c.initialize();
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, {
        cwd: ws,
        mcpServers: [{ name: 'files', command: process.execPath, args: [packageBin('@modelcontextprotocol/server-filesystem'), ws], env: [] }],
      });
      const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Read data.txt with the files server' }] });
      assert.equal(stopReason, 'end_turn', c.stderr());
      await c.settled();
      const tools = ((server.requests[0]!.tools as Array<{ function: { name: string } }> | undefined) ?? []).map((t) => t.function.name);
      assert.ok(tools.includes('files__read_text_file'), `offered: ${tools.join(', ')}`);
      assert.match(toolResults(server.requests[1]!).join('\n'), /from the mcp server/);
      const call = c.updatesOf(sessionId, 'tool_call')[0]!;
      assert.equal(call.title.startsWith('files__read_text_file'), true);
      assert.equal(c.updatesOf(sessionId, 'tool_call_update').at(-1)!.status, 'completed');
    });

    test('malformed client input gets a clear JSON-RPC error; the process stays up and the next prompt works', async () => {
      const { ws } = workspace();
      const server = await start([{ text: 'Still here.' }], 'malformed');
      const c = client({ args: wire.flags(server), cwd: ws });
      await c.initialize();
      c.child.stdin.write('{"jsonrpc":"2.0","id":99,"method":"session/new",\n');
      c.child.stdin.write('this is not json\n');
      await assert.rejects(c.agent.request('session/new', { cwd: 42 }), (e: acp.RequestError) => e.code === -32602);
      await assert.rejects(c.agent.request('session/new', { cwd: path.join(ws, 'missing'), mcpServers: [] }), (e: acp.RequestError) => e.code === -32602 && /absolute path to a folder/.test(e.message));
      await assert.rejects(c.agent.request(acp.methods.agent.session.prompt, { sessionId: 'nope', prompt: [{ type: 'text', text: 'x' }] }), (e: acp.RequestError) => e.code === -32002);
      const parseErrors = c.rawLines.map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number } }).filter((m) => m.error?.code === -32700);
      assert.equal(parseErrors.length, 2, c.rawLines.join('\n'));
      assert.ok(parseErrors.every((m) => m.id === null));
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Are you there?' }] });
      assert.equal(stopReason, 'end_turn');
      await c.settled();
      assert.equal(agentText(c, sessionId), 'Still here.');
      assert.equal(c.child.exitCode, null, 'the process is still running');
    });
  });
}
