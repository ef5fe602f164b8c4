import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { defineTool, ok } from '../../../src/core/tools/tool';
import type { ToolCallOutput } from '../../../src/mcp/content';
import type { McpToolCaller } from '../../../src/mcp/toolAdapter';
import { McpToolRegistrar } from '../../../src/mcp/toolRegistrar';
import { checkToolDefinition } from '../../../src/mcp/toolSchema';
import type { McpServerConfig } from '../../../src/mcp/types';

/** Records calls and answers with a fixed result. */
class RecordingCaller implements McpToolCaller {
  readonly calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  constructor(readonly serverName: string) {}
  async call(name: string, args: Record<string, unknown>): Promise<ToolCallOutput> {
    this.calls.push({ name, args });
    return { content: [{ type: 'text', text: `${this.serverName}:${name}` }] };
  }
}

function server(name: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name, source: { kind: 'userSetting' }, transport: { type: 'stdio', command: 'x', args: [], env: {} }, tools: {}, ...extra };
}

const def = (name: string, readOnly = false) => ({
  name,
  description: `does ${name}`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  annotations: { readOnlyHint: readOnly },
});

test('tools join the registry as server__tool with the server schema and a risk from readOnlyHint', () => {
  const registry = new ToolRegistry();
  const registrar = new McpToolRegistrar(registry);
  const log: string[] = [];
  const result = registrar.sync(server('fs'), [def('read', true), def('write')].map(checkToolDefinition), new RecordingCaller('fs'), (l) => log.push(l));
  assert.deepEqual(result.tools, [
    { registeredName: 'fs__read', mcpName: 'read', risk: 'read' },
    { registeredName: 'fs__write', mcpName: 'write', risk: 'write' },
  ]);
  assert.ok(result.tokens > 20, `tokens: ${result.tokens}`);
  const definitions = registry.definitions();
  assert.deepEqual(definitions[0], { name: 'fs__read', description: 'does read', parameters: def('read').inputSchema });
});

test('names that collide with built-in tools or with each other are made unique; invalid and duplicate tools are skipped', () => {
  const registry = new ToolRegistry();
  registry.register(defineTool({ name: 'a_b__c', description: 'built-in', schema: z.object({}), risk: 'read', describeForApproval: () => ({ title: '', detail: '' }), invoke: async () => ok('') }));
  const registrar = new McpToolRegistrar(registry);
  const log: string[] = [];
  const result = registrar.sync(
    server('a.b'),
    [def('c'), def('c'), { name: 'broken', inputSchema: { type: 'array' } }, def('x.y'), def('x_y')].map(checkToolDefinition),
    new RecordingCaller('a.b'),
    (l) => log.push(l),
  );
  assert.deepEqual(result.tools.map((t) => t.registeredName), ['a_b__c_2', 'a_b__x_y', 'a_b__x_y_2']);
  assert.deepEqual(result.skipped.map((s) => s.name), ['c', 'broken']);
  assert.match(log.join('\n'), /tool "broken" skipped: inputSchema.type must be "object"/);
  assert.equal(registry.get('a_b__c')?.description, 'built-in');
});

test('re-syncing keeps names stable, drops tools that disappeared and adds new ones', () => {
  const registry = new ToolRegistry();
  const registrar = new McpToolRegistrar(registry);
  const caller = new RecordingCaller('s');
  registrar.sync(server('s'), [def('one'), def('two')].map(checkToolDefinition), caller, () => {});
  registrar.sync(server('s'), [def('two'), def('three')].map(checkToolDefinition), caller, () => {});
  assert.deepEqual(registry.list().map((t) => t.name).sort(), ['s__three', 's__two']);
  registrar.remove('s');
  assert.deepEqual(registry.list(), []);
});

test('server and per-tool risk overrides win over annotations; disabled tools stay out', () => {
  const registry = new ToolRegistry();
  const registrar = new McpToolRegistrar(registry);
  const config = server('m', { risk: 'read', tools: { danger: { risk: 'execute' }, hidden: { disabled: true } } });
  const result = registrar.sync(config, [def('plain'), def('danger', true), def('hidden')].map(checkToolDefinition), new RecordingCaller('m'), () => {});
  assert.deepEqual(result.tools.map((t) => [t.registeredName, t.risk]), [['m__plain', 'read'], ['m__danger', 'execute']]);
  assert.deepEqual(result.skipped, [{ name: 'hidden', reason: 'disabled in the configuration' }]);
});
