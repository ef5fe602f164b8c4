// Agent/Plan/Ask and prompt files through `localharness acp`, on both wire formats: the modes a session offers,
// session/set_mode to Plan refusing a write the model makes anyway (the system prompt unchanged), and a prompt
// file of the workspace advertised as a command that `/name rest` runs with its own mode.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { WIRE_FORMATS, toolResults, messagesOf } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { startAcpClient, agentText, type AcpTestClient } from '../../helpers/acp/acpClient';

function workspace(): string {
  const ws = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), 'lh-acp-modes-'))), 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'notes.txt'), 'keep me\n');
  return ws;
}

const toolNames = (request: { tools?: unknown }) => ((request.tools as Array<{ function?: { name?: string } }> | undefined) ?? []).map((t) => t.function?.name);
const systemOf = (request: { messages?: Array<Record<string, unknown>> }) => messagesOf(request).filter((m) => m.role === 'system').map((m) => m.content);
/** The commands last advertised, once one list arrived: the first comes after session/new's answer, when the disk was read. */
async function advertised(c: AcpTestClient, sessionId: string): Promise<acp.AvailableCommand[]> {
  for (let waited = 0; waited < 10_000 && c.updatesOf(sessionId, 'available_commands_update').length === 0; waited += 50) await new Promise((r) => setTimeout(r, 50));
  await c.settled();
  return c.updatesOf(sessionId, 'available_commands_update').at(-1)?.availableCommands ?? [];
}

const PLAN = '1. Open notes.txt.\n2. Replace its line with "changed".\n3. Read it back to check.';

for (const wire of WIRE_FORMATS) {
  describe(`ACP modes and prompt files over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    const clients: AcpTestClient[] = [];
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(servers.map((s) => s.close()));
    });
    const connect = async (server: FakeServerHandle, ws: string, extra: string[] = []) => {
      const c = startAcpClient({ args: [...wire.flags(server), ...extra], cwd: ws, permission: 'once' });
      clients.push(c);
      await c.initialize();
      return c;
    };
    const setup = async (script: Parameters<typeof wire.start>[0], name: string, ws: string, extra: string[] = []) => {
      const server = await wire.start(script, name);
      servers.push(server);
      return { server, c: await connect(server, ws, extra) };
    };

    test('session/new offers Agent, Plan and Ask; in Plan a write the model makes anyway is refused and the plan returned', async () => {
      const ws = workspace();
      const { server, c } = await setup(
        [
          { text: 'It says "keep me".' },
          { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }] },
          { text: PLAN },
          { text: 'It still says "keep me".' },
        ],
        'plan-mode',
        ws,
      );
      const created = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const { sessionId } = created;
      assert.equal(created.modes?.currentModeId, 'agent');
      assert.deepEqual(created.modes?.availableModes.map((m) => m.id), ['agent', 'plan', 'ask']);
      assert.ok(created.modes?.availableModes.every((m) => m.name && m.description), 'every mode is named and described');

      const first = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'What does notes.txt say?' }] });
      assert.equal(first.stopReason, 'end_turn', c.stderr());
      await assert.rejects(
        c.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'yolo' }),
        (e: acp.RequestError) => e.code === -32602 && /unknown mode "yolo"/.test(e.message),
      );
      await c.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'plan' });
      const second = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Change notes.txt to "changed"' }] });
      assert.equal(second.stopReason, 'end_turn', c.stderr());
      await c.settled();

      assert.equal(readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'keep me\n');
      assert.deepEqual(c.log.writes, [], 'nothing written through the client');
      assert.deepEqual(c.log.permissions, [], 'a refused call is not even asked about');
      assert.equal(server.requests.length, 3, 'the plan was the last answer');
      assert.match(toolResults(server.requests[2]!).join('\n'), /Not run: this is Plan mode/);
      assert.ok(agentText(c, sessionId).endsWith(PLAN), agentText(c, sessionId));
      // The plan turn offers no writing tool, tells the model in its message, and keeps the system prompt's bytes.
      assert.ok(toolNames(server.requests[0]!).includes('write_file'), 'Agent offers write_file');
      assert.ok(!toolNames(server.requests[1]!).includes('write_file'), `Plan offers ${toolNames(server.requests[1]!).join(', ')}`);
      assert.match(messagesOf(server.requests[1]!).filter((m) => m.role === 'user').at(-1)!.content, /Mode: Plan/);
      assert.deepEqual(systemOf(server.requests[1]!), systemOf(server.requests[0]!));
      assert.equal(systemOf(server.requests[0]!).length > 0, true);

      // Ask: no tools offered at all, the same system prompt still.
      await c.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'ask' });
      const third = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Does notes.txt still say it?' }] });
      assert.equal(third.stopReason, 'end_turn', c.stderr());
      assert.deepEqual(toolNames(server.requests[3]!), []);
      assert.match(messagesOf(server.requests[3]!).filter((m) => m.role === 'user').at(-1)!.content, /Mode: Ask/);
      assert.deepEqual(systemOf(server.requests[3]!), systemOf(server.requests[0]!));
    });

    test('prompt files are advertised as commands; `/name rest` runs one with its own mode, the session keeps its mode', async () => {
      const ws = workspace();
      mkdirSync(path.join(ws, '.github', 'prompts'), { recursive: true });
      writeFileSync(
        path.join(ws, '.github', 'prompts', 'review.prompt.md'),
        '---\ndescription: Review a file for bugs\nmode: plan\n---\nReview ${input:file} for off-by-one bugs and list each with its line (REVIEW-PROMPT-7).\n',
      );
      mkdirSync(path.join(ws, '.localharness', 'prompts'), { recursive: true });
      writeFileSync(path.join(ws, '.localharness', 'prompts', 'tidy.md'), 'Tidy the imports.\n');
      const { server, c } = await setup(
        [{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'fixed\n' } }] }, { text: 'No off-by-one bugs found in notes.txt.' }, { text: 'Hello.' }],
        'prompt-file',
        ws,
      );
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      assert.deepEqual((await advertised(c, sessionId)).map((a) => [a.name, a.description]), [['review', 'Review a file for bugs'], ['tidy', 'Prompt file .localharness/prompts/tidy.md']]);

      const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/review notes.txt' }] });
      assert.equal(stopReason, 'end_turn', c.stderr());
      const user = messagesOf(server.requests[0]!).filter((m) => m.role === 'user').at(-1)!.content;
      assert.match(user, /Review notes\.txt for off-by-one bugs and list each with its line \(REVIEW-PROMPT-7\)\./);
      assert.doesNotMatch(user, /\/review/);
      // The file's `mode: plan` held for its turn: the write was refused.
      assert.match(toolResults(server.requests[1]!).join('\n'), /Not run: this is Plan mode/);
      assert.equal(readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'keep me\n');
      // The next plain prompt is in the session's mode again (Agent: write_file offered, no mode note).
      await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/nope is not a prompt file' }] });
      assert.ok(toolNames(server.requests[2]!).includes('write_file'));
      assert.match(messagesOf(server.requests[2]!).filter((m) => m.role === 'user').at(-1)!.content, /\/nope is not a prompt file/);
    });

    test('a prompt file the turn writes is offered after it; session/load offers the modes, starting in --mode', async () => {
      const ws = workspace();
      const db = path.join(path.dirname(ws), 'sessions.db');
      const { server, c } = await setup(
        // With --db other requests (the session's title) come too: each gets the reply for what it asks.
        (request) => {
          const messages = messagesOf(request);
          if (messages.some((m) => m.role === 'tool')) return { text: 'Wrote the prompt file.' };
          if (messages.at(-1)?.content.includes('Write a prompt file "later"')) {
            return { toolCalls: [{ name: 'write_file', arguments: { path: '.localharness/prompts/later.md', content: '---\ndescription: Say it later\n---\nSay it later.\n' } }] };
          }
          return { text: 'Prompt file' };
        },
        'prompt-file-later',
        ws,
        ['--db', db],
      );
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      await c.settled();
      assert.deepEqual(c.updatesOf(sessionId, 'available_commands_update'), [], 'no commands: nothing advertised');
      const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Write a prompt file "later"' }] });
      assert.equal(stopReason, 'end_turn', c.stderr());
      assert.equal(readFileSync(path.join(ws, '.localharness', 'prompts', 'later.md'), 'utf8'), '---\ndescription: Say it later\n---\nSay it later.\n');
      await c.settled();
      const updates = c.updatesOf(sessionId, 'available_commands_update');
      assert.deepEqual(updates.map((u) => u.availableCommands.map((a) => [a.name, a.description])), [[['later', 'Say it later']]]);
      assert.equal(await c.close(), 0, c.stderr());

      const again = await connect(server, ws, ['--db', db, '--mode', 'ask']);
      const loaded = await again.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws, mcpServers: [] });
      assert.equal(loaded.modes?.currentModeId, 'ask');
      assert.deepEqual(loaded.modes?.availableModes.map((m) => m.id), ['agent', 'plan', 'ask']);
      assert.deepEqual((await advertised(again, sessionId)).map((a) => a.name), ['later']);
    });
  });
}
