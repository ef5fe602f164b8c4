// The planner's answer over both wire formats: a plain answer streams out; one that is a tool call (native, as
// `<tool>` markup or as JSON text, runnable or not) or says NOT DONE means work is left and none of it is shown;
// braces in a plain answer are held back only until the answer is known to be plain.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../../../src/core/agent/events';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { synthesize } from '../../../src/core/orchestrator/synthesize';
import type { FakeServerHandle, ScriptedReply } from '../../helpers/fakeLlm';
import { WIRES } from './harness';

const registry = new ToolRegistry();
registerBuiltinTools(registry);
const plan = { steps: [{ id: '1', goal: 'Rename a.txt to b.txt', dependsOn: [] }], doneWhen: 'b.txt exists' };
const records = [{ step: plan.steps[0]!, status: 'ok' as const, summary: 'Moved a.txt to b.txt.', result: 'move_file: Moved a.txt to b.txt.' }];

const CASES: Array<{ name: string; reply: ScriptedReply; shown?: string; workLeft?: RegExp }> = [
  { name: 'a plain answer', reply: { text: 'Renamed a.txt to b.txt.', chunkSize: 3 }, shown: 'Renamed a.txt to b.txt.' },
  { name: 'an answer with braces in its prose', reply: { text: 'Renamed a.txt; the config {name} is unchanged.', chunkSize: 3 }, shown: 'Renamed a.txt; the config {name} is unchanged.' },
  { name: 'tool markup', reply: { text: '<tool>{"server_name":"local","tool_name":"list_directory","arguments":{"path":"."}}</tool>', chunkSize: 5 }, workLeft: /it tried to call list_directory/ },
  { name: 'a JSON call in the text', reply: { text: 'Let me check. {"name": "read_file", "arguments": {"path": "b.txt"}}', chunkSize: 4 }, workLeft: /it tried to call read_file/ },
  { name: 'a JSON call to a tool that does not exist', reply: { text: '{"name": "rename_file", "arguments": {"from": "a.txt"}}', chunkSize: 4 }, workLeft: /tool markup/ },
  { name: 'a native tool call', reply: { toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, workLeft: /it tried to call list_directory/ },
  { name: 'a Devstral call in the text', reply: { text: '[TOOL_CALLS]list_directory[ARGS]{"path": "."}', chunkSize: 4 }, workLeft: /it tried to call list_directory/ },
  { name: 'a call cut at the output limit', reply: { text: '{"name": "read_file", "arguments": {"pa', finishReason: 'length', chunkSize: 4 }, workLeft: /tool markup/ },
  { name: 'an answer cut at the output limit', reply: { text: 'Renamed a.txt to', finishReason: 'length', chunkSize: 4 }, workLeft: /cut off at the output limit/ },
  { name: 'NOT DONE in bold', reply: { text: '**NOT DONE:** b.txt is still missing.', chunkSize: 2 }, workLeft: /^\*?\*?b\.txt is still missing\.$/ },
];

for (const wire of WIRES) {
  describe(`the planner's answer over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    for (const c of CASES) {
      test(`${c.name}: ${c.shown ? 'shown as it streams' : 'work left, nothing shown'}`, async () => {
        const server = await wire.start(() => c.reply, c.name);
        servers.push(server);
        const bus = new EventBus();
        const texts: string[] = [];
        bus.on((e) => {
          if (e.type === 'text') texts.push(e.text);
        });
        const answer = await synthesize({ provider: wire.provider(wire.urlOf(server)), model: 'planner', request: 'Rename a.txt to b.txt', plan, records, registry, signal: new AbortController().signal }, bus);
        const sent = JSON.stringify(server.requests[0]!.messages);
        assert.match(sent, /NOT DONE:/, 'the prompt asks for the mark');
        assert.match(sent, /Done when: b\.txt exists/);
        assert.deepEqual(server.requests[0]!.tools ?? [], [], 'the planner is offered no tools');
        if (c.shown) {
          assert.equal(answer.workLeft, undefined);
          assert.equal(answer.text, c.shown);
          assert.equal(texts.join(''), c.shown);
          if (!c.shown.includes('{')) assert.ok(texts.length > 1, 'a plain answer streams in pieces');
        } else {
          assert.match(answer.workLeft ?? '', c.workLeft!);
          assert.equal(answer.text, '');
          assert.doesNotMatch(texts.join(''), /<tool>|"name"|NOT DONE|tool_name/);
        }
      });
    }
  });
}
