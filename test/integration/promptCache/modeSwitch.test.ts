// Issue 33: a mode switch is the user's, and it must not cost the server's prompt cache more than the tool list it
// changes. One AgentSession, both fake servers, native tool calls, with a skill in the workspace: turns in Agent,
// Plan, Ask and Agent again. Every request's system prompt is the same bytes; each request's messages extend the
// previous request's (the mode's note travels with the new user message); Plan offers read tools only and the
// write its model calls is refused; Ask offers none; the skill's body is sent only after load_skill.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtSession, workspacePorts } from '../../helpers/builtSession';
import { EventBus } from '../../../src/core/agent/events';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import type { ChatProvider } from '../../../src/core/provider';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';

const BODY = 'Always run the linter with --fix before committing.';
const READ_ONLY = new Set(['read_file', 'list_directory', 'search_files', 'todo_read', 'todo_write', 'task_completion', 'ask_question', 'load_skill']);

const replies: ScriptedReply[] = [
  // Agent: loads the skill, answers.
  { toolCalls: [{ name: 'load_skill', arguments: { name: 'lint' } }] },
  { text: 'Loaded.' },
  // Plan: a read, a write it may not do, the plan.
  { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
  { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'changed\n' } }] },
  { text: '1. Change a.txt.' },
  // Ask: a call it may not make, then the answer.
  { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
  { text: 'a.txt holds one line.' },
  // Agent again.
  { text: 'Back in Agent mode.' },
];

const names = (body: ChatBody) => (Array.isArray(body.tools) ? body.tools : []).map((t) => (t as { function: { name: string } }).function.name);
const wireMessages = (body: ChatBody) => (body.messages ?? []).map((m) => JSON.stringify(m));

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of ['ollama', 'openai'] as const) {
  describe(`mode switches in one session over ${wire}`, () => {
    test('system prompt identical, messages append-only, Plan read-only, Ask tool-less, skill body only after load_skill', async () => {
      const root = path.join(mkdtempSync(path.join(tmpdir(), 'lh-modes-')), 'ws');
      mkdirSync(path.join(root, '.localharness', 'skills', 'lint'), { recursive: true });
      writeFileSync(path.join(root, 'a.txt'), 'original\n');
      writeFileSync(path.join(root, '.localharness', 'skills', 'lint', 'SKILL.md'), `---\nname: lint\ndescription: The linting routine\n---\n${BODY}\n`);
      let i = 0;
      const script = () => replies[i++];
      const server = wire === 'openai' ? await startFakeOpenAIServer(script, { name: 'modes' }) : await startFakeOllamaServer(script, { name: 'modes' });
      servers.push(server);
      const provider: ChatProvider = wire === 'openai' ? new OpenAICompatibleProvider({ baseUrl: server.url }) : new OllamaProvider({ host: server.url });
      const registry = new ToolRegistry();
      registerBuiltinTools(registry);
      const session = builtSession(
        workspacePorts(root, { provider, model: 'm', registry, bus: new EventBus(), autoApprove: ['read', 'write', 'execute'] }),
        { skills: {}, agent: { toolProtocol: 'native' } },
      );
      const signal = new AbortController().signal;
      assert.equal((await session.send('Load the lint skill', signal)).reason, 'completed');
      assert.equal((await session.send('Plan a change to a.txt', signal, undefined, 'plan')).reason, 'completed');
      assert.equal((await session.send('What is in a.txt?', signal, undefined, 'ask')).reason, 'completed');
      assert.equal((await session.send('Now go on', signal, undefined, 'agent')).reason, 'completed');

      const requests = server.requests;
      assert.equal(requests.length, 8);
      const system = wireMessages(requests[0]!)[0]!;
      assert.match(system, /lint: The linting routine/);
      for (const [n, r] of requests.entries()) {
        assert.equal(wireMessages(r)[0], system, `request ${n + 1}: the same system prompt bytes`);
        if (n > 0) assert.deepEqual(wireMessages(r).slice(0, wireMessages(requests[n - 1]!).length), wireMessages(requests[n - 1]!), `request ${n + 1} only appends`);
      }
      assert.ok(!JSON.stringify(requests[0]!.messages).includes(BODY), 'no skill body before load_skill');
      assert.ok(JSON.stringify(requests[1]!.messages).includes(BODY), 'the body after load_skill');
      assert.ok(names(requests[0]!).includes('write_file'));
      for (const r of requests.slice(2, 5)) assert.deepEqual(names(r).filter((n) => !READ_ONLY.has(n)), [], 'Plan offers read tools only');
      assert.ok(names(requests[2]!).includes('read_file'));
      assert.match(JSON.stringify(requests[2]!.messages), /# Mode: Plan/);
      assert.match(JSON.stringify(requests[4]!.messages), /Not run: this is Plan mode/);
      assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'original\n');
      for (const r of requests.slice(5, 7)) assert.deepEqual(names(r), [], 'Ask offers no tools');
      assert.match(JSON.stringify(requests[6]!.messages), /Not run: this is Ask mode/);
      assert.ok(names(requests[7]!).includes('write_file'), 'Agent again offers everything');
      assert.match(wireMessages(requests[7]!).at(-1)!, /# Mode: Agent/);
    });
  });
}
