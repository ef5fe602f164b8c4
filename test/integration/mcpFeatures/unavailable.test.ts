// What a server cannot give is said plainly: blocked, stopped, no resources or prompts, or a client that lent
// no ports (then the capabilities are not declared and server-everything leaves out the tools that need them).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import { READ_RESOURCE_TOOL } from '../../../src/mcp/readResourceTool';
import { packageBin, stdioServer, tempDir } from '../../helpers/mcp/mcpHarness';

const dir = tempDir('unavailable');
after(() => dir.cleanup());

test('a blocked or stopped server is not running; one without resources or prompts says so', async () => {
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, isWorkspaceTrusted: () => false, defaultStartTimeoutMs: 20_000, features: { roots: () => [] } });
  try {
    await manager.setServers([
      stdioServer('repo', packageBin('@modelcontextprotocol/server-everything'), [], { source: { kind: 'workspaceFile', path: '/x/.vscode/mcp.json' } }),
      stdioServer('files', packageBin('@modelcontextprotocol/server-filesystem'), [realpathSync(dir.path)]),
      stdioServer('idle', packageBin('@modelcontextprotocol/server-everything')),
    ]);
    await manager.startAll();
    assert.equal(manager.status('repo').state, 'blocked');
    assert.equal(manager.status('files').state, 'ready', manager.status('files').message);
    await manager.stop('idle');

    await assert.rejects(manager.readResource('repo', 'demo://x'), /MCP server "repo" is not running \(blocked\)/);
    await assert.rejects(manager.getPrompt('idle', 'simple-prompt', {}), /MCP server "idle" is not running \(stopped\)/);
    await assert.rejects(manager.subscribeResource('repo', 'demo://x'), /is not running/);
    await assert.rejects(manager.readResource('files', 'file:///etc/passwd'), /MCP server "files" offers no resources\./);
    await assert.rejects(manager.getPrompt('files', 'p', {}), /MCP server "files" offers no prompts\./);
    await assert.rejects(manager.subscribeResource('files', 'file:///x'), /offers no resources/);
    for (const s of manager.statuses()) assert.deepEqual([s.resources, s.resourceTemplates, s.prompts], [[], [], []], s.name);
    assert.deepEqual([manager.resources(), manager.resourceTemplates(), manager.prompts()], [[], [], []]);
    assert.equal(registry.get(READ_RESOURCE_TOOL), undefined, 'no server lists resources, so the model is not offered read_resource');
  } finally {
    await manager.dispose();
  }
});

test('without ports nothing is declared: no roots, elicitation or sampling tools appear', async () => {
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, defaultStartTimeoutMs: 20_000 });
  try {
    await manager.setServers([stdioServer('everything', packageBin('@modelcontextprotocol/server-everything'))]);
    await manager.startAll();
    const status = manager.status('everything');
    assert.equal(status.state, 'ready', status.message);
    // Its conditional tools are registered after the handshake; give a list_changed the time to arrive.
    await new Promise((r) => setTimeout(r, 500));
    const names = manager.status('everything').tools.map((t) => t.mcpName);
    assert.ok(names.includes('echo'));
    for (const conditional of ['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request']) assert.ok(!names.includes(conditional), conditional);
    assert.ok(registry.get(READ_RESOURCE_TOOL), 'resources are still offered: they need no client capability');
    assert.equal(manager.prompts().length, 4);
  } finally {
    await manager.dispose();
  }
});
