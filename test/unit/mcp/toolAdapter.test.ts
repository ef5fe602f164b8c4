import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolContext } from '../../../src/core/tools/tool';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import type { ToolCallOutput } from '../../../src/mcp/content';
import { createMcpTool, type McpToolCaller } from '../../../src/mcp/toolAdapter';
import { checkToolDefinition } from '../../../src/mcp/toolSchema';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';

/** Answers from a script: a result, or an error to throw. */
class ScriptedCaller implements McpToolCaller {
  readonly serverName = 'srv';
  calls = 0;
  constructor(private readonly answer: ToolCallOutput | Error) {}
  async call(_name: string, _args: Record<string, unknown>, options: { onProgress?: (m: string) => void }): Promise<ToolCallOutput> {
    this.calls++;
    options.onProgress?.('halfway (1/2)');
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

function context(onProgress?: (m: string) => void): ToolContext {
  const fs = new NodeFileSystem();
  return { roots: new WorkspaceRoots([{ name: 'ws', path: process.cwd() }], fs), fs, runner: new NodeProcessRunner(), tracker: new ContextTracker(), signal: new AbortController().signal, ...(onProgress && { onProgress }) };
}

function tool(caller: McpToolCaller) {
  const checked = checkToolDefinition({ name: 'get', description: 'Get a thing.', inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } });
  assert.ok(checked.ok);
  return createMcpTool({ registeredName: 'srv__get', definition: checked.tool, validate: checked.validate, risk: 'read', caller });
}

test('invalid arguments fail before approval and before the server is called', async () => {
  const caller = new ScriptedCaller({ content: [] });
  const t = tool(caller);
  const registry = new ToolRegistry();
  registry.register(t);
  const parsed = registry.parse({ id: '1', name: 'srv__get', arguments: '{"id": "seven"}' });
  assert.ok(parsed.ok, 'the registry accepts any object; the JSON Schema check is the tool\'s');
  assert.throws(() => t.describeForApproval({ id: 'seven' }, context()), /Invalid arguments for srv__get: "id": Invalid input: expected (int|number), received string/);
  const result = await t.invoke({}, context());
  assert.equal(result.ok, false);
  assert.match(result.content, /"id" is required/);
  assert.equal(caller.calls, 0);
});

test('a good call returns the text and forwards progress; the approval text shows the arguments', async () => {
  const caller = new ScriptedCaller({ content: [{ type: 'text', text: 'the thing' }] });
  const progress: string[] = [];
  const t = tool(caller);
  const description = await t.describeForApproval({ id: 7 }, context());
  assert.match(description.title, /Run MCP tool "get" of server "srv"/);
  assert.match(description.detail, /"id": 7/);
  const result = await t.invoke({ id: 7 }, context((m) => progress.push(m)));
  assert.deepEqual(result, { ok: true, content: 'the thing' });
  assert.deepEqual(progress, ['halfway (1/2)']);
});

test('isError results and thrown errors both become tool errors', async () => {
  const isError = await tool(new ScriptedCaller({ isError: true, content: [{ type: 'text', text: 'no such id' }] })).invoke({ id: 1 }, context());
  assert.deepEqual(isError, { ok: false, content: 'The MCP tool "get" of server "srv" reported an error: no such id' });
  const thrown = await tool(new ScriptedCaller(new Error('MCP server "srv" is restarting after a crash'))).invoke({ id: 1 }, context());
  assert.deepEqual(thrown, { ok: false, content: 'MCP server "srv" is restarting after a crash' });
});
