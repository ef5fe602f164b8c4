// Issue 19: what was sent once stays byte-identical. A real AgentSession in a 4,096-token window, against both fake
// servers, in native and xml tool mode, through a turn where everything that used to rewrite the start of the
// prompt happens: code is retrieved, files are read (the working context changes), the todo list changes, a tool
// is found with tool_search (more tools than fit, so the set is filtered) and a compression runs. Each request is
// compared with the one before, message by message as the server received it (same text, same key order, same
// ids): the system prompt and the tool list never change (tool_search adds at the end), everything else is
// appended — except once per compression, the one allowed break. The compression pass continues the
// conversation as the server holds it where there is room for it, else it is a small request of its own.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { AgentSession } from '../../../src/core/session/agentSession';
import { builtSession, workspacePorts } from '../../helpers/builtSession';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { defineTool, ok } from '../../../src/core/tools/tool';
import type { ChatProvider } from '../../../src/core/provider';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { followsCompression, isCompressionRequest } from '../../helpers/weakModels';
import { WordRetriever } from '../../helpers/knowledge/wordRetriever';

const WINDOW = 4096;
const TASK = 'Read alpha.txt and the six big files, and keep the todo list current.';
const BIG = 'This line of the report says what happened that week and who was there, in some detail. '.repeat(22);

type Mode = 'native' | 'xml';

function workspace(): string {
  const root = path.join(mkdtempSync(path.join(tmpdir(), 'lh-append-')), 'ws');
  mkdirSync(root);
  writeFileSync(path.join(root, 'alpha.txt'), 'export function alpha() {\n  return "zebras live in the zoo";\n}\n');
  for (let n = 1; n <= 6; n++) writeFileSync(path.join(root, `big-${n}.txt`), `Report ${n}\n${BIG}\n`);
  return root;
}

/** Thirty tools of a zoo server: together far more than a quarter of the window, so the set is filtered. */
function registerZoo(registry: ToolRegistry): void {
  const animals = ['lion', 'tiger', 'bear', 'wolf', 'otter', 'seal', 'crane', 'heron', 'moose', 'bison', 'lynx', 'hare', 'mole', 'newt', 'toad'];
  const names = [...animals.map((a) => `zoo__feed_${a}`), ...animals.map((a) => `zoo__weigh_${a}`), 'zoo__count_zebras'];
  for (const name of names) {
    registry.register(
      defineTool({
        name,
        description: `${name.replace('zoo__', '').replace('_', ' ')} in the zoo's records: keeper schedules, enclosure numbers, feeding times and the vet's notes for the day.`,
        schema: z.object({ enclosure: z.string().optional(), note: z.string().optional() }),
        risk: 'read',
        describeForApproval: () => ({ title: name, detail: name }),
        invoke: async () => ok(name === 'zoo__count_zebras' ? 'There are 7 zebras.' : 'ok'),
      }),
    );
  }
}

/** The agent's side: a fixed plan of calls, one per request, in the wire's native calls or as <tool> text. */
function agentModel(mode: Mode): (request: ChatBody) => ScriptedReply {
  const plan: Array<[string, Record<string, unknown>]> = [
    ['todo_write', { todos: [{ text: 'Read the files', status: 'in_progress' }, { text: 'Count the zebras', status: 'pending' }] }],
    ['read_file', { path: 'alpha.txt' }],
    ['tool_search', { query: 'count zebras' }],
    ['zoo__count_zebras', {}],
    ...Array.from({ length: 6 }, (_, i): [string, Record<string, unknown>] => ['read_file', { path: `big-${i + 1}.txt` }]),
    ['todo_write', { todos: [{ text: 'Read the files', status: 'done' }, { text: 'Count the zebras', status: 'done' }] }],
    ['task_completion', { result: 'Read everything; there are 7 zebras.' }],
  ];
  let step = 0;
  return (request) => {
    if (isCompressionRequest(request)) return followsCompression(request);
    const [name, args] = plan[Math.min(step++, plan.length - 1)]!;
    if (mode === 'native') return { toolCalls: [{ name, arguments: args }] };
    return { text: `<tool>${JSON.stringify({ server_name: 'local', tool_name: name, arguments: args })}</tool>` };
  };
}

interface Run {
  server: FakeServerHandle;
  events: AgentEvent[];
  outcome: Awaited<ReturnType<AgentSession['send']>>;
}

async function runTurn(wire: 'openai' | 'ollama', mode: Mode): Promise<Run> {
  const root = workspace();
  const model = agentModel(mode);
  const server =
    wire === 'openai'
      ? await startFakeOpenAIServer((r) => model(r), { name: `append-only ${mode}`, models: [{ id: 'tiny', maxContextLength: 32768, loadedContextLength: WINDOW }] })
      : await startFakeOllamaServer((r) => model(r), { name: `append-only ${mode}` });
  const provider: ChatProvider = wire === 'openai' ? new OpenAICompatibleProvider({ baseUrl: server.url }) : new OllamaProvider({ host: server.url });
  const registry = new ToolRegistry();
  registerBuiltinTools(registry);
  registerZoo(registry);
  const bus = new EventBus();
  const events: AgentEvent[] = [];
  bus.on((e) => events.push(e));
  // The builder adds the tool pre-filter and the context manager, as for the hosts.
  const session = builtSession(
    workspacePorts(root, { provider, model: 'tiny', registry, bus, autoApprove: ['read', 'write', 'execute'] }),
    { ...(wire === 'ollama' && { contextSize: WINDOW }), maxRounds: 20, agent: { toolProtocol: mode } },
    { knowledge: { retriever: await WordRetriever.fromFiles(root, ['alpha.txt'], 3, () => 'alpha') } },
  );
  const outcome = await session.send(TASK, new AbortController().signal);
  return { server, events, outcome };
}

/** Each message exactly as the server received it (its JSON, keys in wire order). */
const wireMessages = (body: ChatBody) => (body.messages ?? []).map((m) => JSON.stringify(m));
const wireTools = (body: ChatBody) => (Array.isArray(body.tools) ? body.tools : []).map((t) => JSON.stringify(t));

function isPrefix(shorter: readonly string[], longer: readonly string[]): boolean {
  return shorter.length <= longer.length && shorter.every((m, i) => m === longer[i]);
}

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of ['openai', 'ollama'] as const) {
  for (const mode of ['native', 'xml'] as const) {
    describe(`requests over ${wire}, ${mode} tools`, () => {
      test('only append: the system prompt and tools never change, earlier messages stay byte-identical, one break per compression', async () => {
        const { server, events, outcome } = await runTurn(wire, mode);
        servers.push(server);
        assert.equal(outcome.reason, 'task_completion', outcome.error);
        const all = server.requests as ChatBody[];
        const main = all.filter((r) => !isCompressionRequest(r));
        const compressions = events.filter((e) => e.type === 'compression').length;
        assert.ok(compressions >= 1, 'the window forced a compression');
        assert.ok(all.length > main.length, 'the compression pass asked the model');

        // Everything that used to change the start of the prompt happened.
        assert.ok(events.some((e) => e.type === 'retrieval'), 'code was retrieved');
        assert.ok(events.some((e) => e.type === 'tools_offered'), 'the tools were filtered');
        const firstUser = wireMessages(main[0]!).find((m) => m.includes(TASK))!;
        assert.match(firstUser, /Retrieved from the workspace index/, 'the retrieved code came with the request');
        const updates = main.map((r) => wireMessages(r).at(-1)!).filter((m) => m.includes('# Working context (update)'));
        assert.ok(updates.some((m) => m.includes('Todos:')), 'a todo change was told at the tail');
        assert.ok(updates.some((m) => m.includes('Read: alpha.txt')), 'a file read was told at the tail');

        let breaks = 0;
        let toolsGrew = false;
        for (let i = 1; i < main.length; i++) {
          const before = main[i - 1]!;
          const now = main[i]!;
          assert.equal(wireMessages(now)[0], wireMessages(before)[0], `request ${i + 1}: the system prompt is byte-identical`);
          const [toolsBefore, toolsNow] = [wireTools(before), wireTools(now)];
          assert.ok(isPrefix(toolsBefore, toolsNow), `request ${i + 1}: the tool list only grows at its end`);
          if (toolsNow.length > toolsBefore.length) toolsGrew = true;
          if (!isPrefix(wireMessages(before), wireMessages(now))) breaks++;
        }
        assert.ok(breaks <= compressions, `${breaks} rewrites of earlier messages for ${compressions} compressions`);
        if (mode === 'native') assert.ok(toolsGrew, 'the tool found with tool_search was added at the end');
        else {
          assert.ok(main.every((r) => wireTools(r).length === 0), 'xml mode sends no tool definitions');
          assert.ok(main.some((r) => wireMessages(r).at(-1)!.includes('More tools you can call now')), 'new tools are described at the tail');
        }
        assert.ok(events.some((e) => e.type === 'tool_result' && e.name === 'zoo__count_zebras' && e.ok), 'the found tool ran');

        // The compression pass continues the conversation where the conversation leaves it room: the request before
        // it is its prefix, with the same tools. In this tight window compression starts only where the answer's room
        // begins (answerReserve.ts), so the pass is mostly a small request of its own instead: no tools, its own
        // system prompt, shorter than the conversation. (In a large window it continues: llmCompression.test.ts.)
        for (const [i, request] of all.entries()) {
          if (!isCompressionRequest(request) || isCompressionRequest(all[i - 1]!)) continue;
          const previous = all[i - 1]!;
          if (isPrefix(wireMessages(previous), wireMessages(request))) {
            assert.deepEqual(wireTools(request), wireTools(previous), 'a continuing pass keeps the conversation’s tools');
            continue;
          }
          assert.deepEqual(wireTools(request), [], 'a pass of its own offers no tools');
          assert.notEqual(wireMessages(request)[0], wireMessages(previous)[0], 'a pass of its own has its own system prompt');
          assert.ok(JSON.stringify(request.messages).length < JSON.stringify(previous.messages).length, 'a pass of its own is smaller than the conversation');
        }
      });
    });
  }
}
