// The published filesystem MCP server next to our built-ins, through the real MCP manager and registry:
// the fixture the unit tests rank is still what the server lists, the definitions overflow a 4k window's
// share, and the pre-filter (with embeddings from the fake Ollama server) offers the move tools for a rename
// and fits the share.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { estimateToolDefinitionTokens } from '../../../src/core/tokens';
import { registerBuiltinTools } from '../../../src/core/tools/builtin';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { createToolSearchTool } from '../../../src/core/tools/selection/toolSearchTool';
import { ToolSelector } from '../../../src/core/tools/selection/toolSelector';
import { CachedEmbedder } from '../../../src/indexing/embeddingClient';
import { MemoryVectorCache } from '../../../src/indexing/memoryVectorCache';
import { McpManager } from '../../../src/mcp/manager';
import { OllamaProvider } from '../../../src/providers/ollama';
import { startFakeOllamaServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { packageBin, stdioServer, tempDir } from '../../helpers/mcp/mcpHarness';
import { filesystemServerTools } from '../../helpers/tools/realisticTools';

const registry = new ToolRegistry();
const manager = new McpManager({ registry, defaultStartTimeoutMs: 20_000 });
const workspace = tempDir('toolselect');
let ollama: FakeServerHandle;

before(async () => {
  registerBuiltinTools(registry);
  await manager.setServers([stdioServer('files', packageBin('@modelcontextprotocol/server-filesystem'), [realpathSync(workspace.path)])]);
  await manager.startAll();
  const status = manager.status('files');
  assert.equal(status.state, 'ready', `${status.message}\n${manager.getLog('files').join('\n')}`);
  ollama = await startFakeOllamaServer([], { name: 'tool selection embeddings' });
});

after(async () => {
  await manager.dispose();
  await ollama.close();
  workspace.cleanup();
});

test('the fixture the unit tests use is still exactly what the server lists', () => {
  const live = registry
    .definitions()
    .filter((d) => d.name.startsWith('files__'))
    .map((d) => ({ name: d.name.slice('files__'.length), description: d.description, inputSchema: d.parameters }));
  const fixture = filesystemServerTools().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  assert.deepEqual(live, fixture);
});

test('built-ins plus the filesystem server: the pre-filter offers the move tools for a rename and fits 25 % of 4,096 tokens', async () => {
  const embedder = new CachedEmbedder({ provider: new OllamaProvider({ host: ollama.url }), model: 'nomic-embed-text', cache: new MemoryVectorCache() });
  const selector = new ToolSelector({ embedder });
  registry.register(createToolSearchTool(selector, () => registry.definitions()));
  const definitions = registry.definitions();
  assert.equal(definitions.length, 11 + 14 + 1);
  const tokensAll = estimateToolDefinitionTokens(definitions);
  assert.ok(tokensAll > 4096 * 0.25 * 3, `all definitions: ${tokensAll} tokens`);

  const selection = await selector.select({ definitions, query: 'rename the file notes.txt to todo.txt', window: 4096, signal: new AbortController().signal });
  console.log(`${selection.totalTools} tools, ${selection.tokensAll} tokens → ${selection.offered.length} offered, ${selection.tokensOffered} tokens (${selection.ranking}${selection.compacted ? ', compacted' : ''}): ${selection.offered.join(', ')}`);
  assert.equal(selection.ranking, 'embedding');
  assert.ok(selection.tokensOffered <= 1024, `${selection.tokensOffered}`);
  for (const name of ['task_completion', 'ask_question', 'tool_search', 'files__move_file', 'move_file']) {
    assert.ok(selection.offered.includes(name), `${name} in ${selection.offered.join(', ')}`);
  }
  // Every offered definition is still callable as the server defined it.
  for (const d of selection.tools.filter((t) => t.name.startsWith('files__'))) {
    const live = definitions.find((o) => o.name === d.name)!;
    assert.deepEqual((d.parameters as { required?: unknown }).required, (live.parameters as { required?: unknown }).required);
    assert.deepEqual(Object.keys((d.parameters as { properties: object }).properties), Object.keys((live.parameters as { properties: object }).properties));
  }
});
