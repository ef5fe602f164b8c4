import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import { mcpSdkLoadCount } from '../../../src/mcp/sdk';

test('a manager without servers never loads the MCP SDK', async () => {
  const manager = new McpManager({ registry: new ToolRegistry() });
  await manager.setServers([]);
  await manager.startAll();
  assert.deepEqual(manager.statuses(), []);
  assert.equal(manager.totalToolTokens(), 0);
  await manager.dispose();
  assert.equal(mcpSdkLoadCount(), 0);
});

test('unknown server names get a clear error; a disposed manager refuses work', async () => {
  const manager = new McpManager({ registry: new ToolRegistry() });
  assert.throws(() => manager.status('nope'), /there is no MCP server named "nope" \(none are configured\)/);
  await manager.dispose();
  await assert.rejects(manager.setServers([]), /disposed/);
});
