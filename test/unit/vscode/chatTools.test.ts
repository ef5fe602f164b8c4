// The chat's tool registry is a value made at activation: MCP and the session factory hold the same one, the
// built-in tools join it once when the engine loads (before any server's tools), and a failed load is tried again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import * as engine from '../../../src/editor/engine/turnEngine';
import { ChatTools } from '../../../src/editor/agent/chatTools';
import { defineTool, ok } from '../../../src/core/tools/tool';

const serverTool = defineTool({
  name: 'docs__search',
  description: 'Search the docs.',
  schema: z.object({}),
  risk: 'read',
  describeForApproval: () => ({ title: 'docs__search', detail: '' }),
  invoke: async () => ok('found'),
});

test('one registry: built-in tools once, first; a server tool added through MCP is in the session factory\'s registry', async () => {
  let loads = 0;
  const tools = new ChatTools(async () => (loads++, engine));
  assert.equal(tools.registry.list().length, 0, 'nothing is loaded at activation');
  const [forMcp, forFactory] = await Promise.all([tools.whole(), tools.whole()]);
  assert.equal(forMcp, tools.registry);
  assert.equal(forFactory, tools.registry);
  assert.equal(loads, 1);
  forMcp.register(serverTool);
  const names = (await tools.whole()).list().map((t) => t.name);
  assert.deepEqual(names, [...engine.createToolRegistry().list().map((t) => t.name), 'docs__search']);
});

test('a failed engine load is tried again on the next call', async () => {
  let attempt = 0;
  const tools = new ChatTools(async () => {
    if (attempt++ === 0) throw new Error('bundle missing');
    return engine;
  });
  await assert.rejects(tools.whole(), /bundle missing/);
  assert.ok((await tools.whole()).get('read_file'));
});
