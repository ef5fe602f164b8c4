// tool_search through the real registry, approval gate and executor, fed the way weak models fill schemas.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { estimateToolDefinitionTokens } from '../../../../src/core/tokens';
import { toDefinition } from '../../../../src/core/tools/registry';
import { createToolSearchTool } from '../../../../src/core/tools/selection/toolSearchTool';
import { ToolSelector } from '../../../../src/core/tools/selection/toolSelector';
import { TempWorkspace, ToolHarness } from '../../../helpers/tools/toolHarness';
import { filesystemServerTools, mcpDefinitions } from '../../../helpers/tools/realisticTools';

let ws: TempWorkspace;
before(async () => {
  ws = await TempWorkspace.create();
});
after(async () => ws.dispose());

/** A harness with our built-ins, tool_search, and the filesystem server's tools in the definitions. */
function setup(settings: { maxOffered?: number } = { maxOffered: 5 }) {
  const harness = new ToolHarness(ws);
  const selector = new ToolSelector({ settings });
  const all = () => [...harness.registry.definitions(), ...mcpDefinitions('files', filesystemServerTools())];
  harness.registry.register(createToolSearchTool(selector, all));
  return { harness, selector, all };
}

const lines = (content: string) => content.split('\n').filter((l) => l.startsWith('- '));

describe('tool_search', () => {
  it('is a short read-only tool with one required parameter', () => {
    const { harness } = setup();
    const tool = harness.registry.get('tool_search')!;
    assert.equal(tool.risk, 'read');
    const def = toDefinition(tool);
    assert.deepEqual((def.parameters as { required: string[] }).required, ['query']);
    const tokens = estimateToolDefinitionTokens([def]);
    assert.ok(tokens < 110, `${tokens} tokens`);
  });

  it('lists matching tools with one-line descriptions and offers them from the next select on', async () => {
    const { harness, selector, all } = setup();
    const window = 32768;
    const signal = new AbortController().signal;
    const first = await selector.select({ definitions: all(), query: 'tidy up', window, signal });
    assert.ok(!first.offered.includes('files__move_file'));
    const result = await harness.call('tool_search', { query: 'move rename file' });
    assert.ok(result.ok, result.content);
    assert.match(result.content, /You can call them from your next step\./);
    const found = lines(result.content);
    assert.ok(found.length > 0 && found.length <= 5, result.content);
    assert.ok(found.some((l) => l.startsWith('- files__move_file: Move or rename files and directories.')), result.content);
    assert.ok(found.every((l) => l.length < 200), 'one line each');
    assert.ok(selector.requestedTools.includes('files__move_file'));
    const next = await selector.select({ definitions: all(), query: 'tidy up', window, signal });
    assert.ok(next.offered.includes('files__move_file'), next.offered.join(', '));
    assert.ok(next.offered.includes('move_file'), next.offered.join(', '));
  });

  it('accepts a query given as a list of words (weak models)', async () => {
    const { harness } = setup();
    const result = await harness.call('tool_search', { query: ['directory', 'tree'] });
    assert.ok(result.ok, result.content);
    assert.match(lines(result.content)[0] ?? '', /^- files__directory_tree:/);
  });

  it('accepts an obvious other name for query, a limit as text, and ignores unknown fields', async () => {
    const { harness } = setup();
    const result = await harness.call('tool_search', { keywords: 'read file', limit: '2', verbose: true });
    assert.ok(result.ok, result.content);
    assert.equal(lines(result.content).length, 2);
  });

  it('caps the limit at 20', async () => {
    const { harness } = setup();
    const result = await harness.call('tool_search', { query: 'file directory path', limit: 500 });
    assert.ok(result.ok);
    assert.ok(lines(result.content).length <= 20);
  });

  it('marks tools that are already offered', async () => {
    const { harness, selector, all } = setup();
    await selector.select({ definitions: all(), query: 'rename the file', window: 32768, signal: new AbortController().signal });
    assert.ok(selector.lastOffered.includes('move_file'));
    const result = await harness.call('tool_search', { query: 'move_file' });
    assert.match(lines(result.content)[0]!, /^- move_file: .*\(already available\)$/);
  });

  it('says what to do when the query is missing or not words', async () => {
    const { harness } = setup();
    for (const args of [{}, { query: 42 }, { query: '   ' }, { query: [] }]) {
      const result = await harness.call('tool_search', args);
      assert.equal(result.ok, false, JSON.stringify(args));
      assert.match(result.content, /query must be a few words naming the tool you need, e\.g\. \{"query": "rename file"\}/);
    }
  });

  it('answers plainly when nothing matches', async () => {
    const { harness, selector } = setup();
    const result = await harness.call('tool_search', { query: 'zebra quokka' });
    assert.ok(result.ok);
    assert.match(result.content, /^No tool matches "zebra quokka"\. Try other words/);
    assert.deepEqual(selector.requestedTools, []);
  });

  it('never finds itself', async () => {
    const { harness } = setup();
    const result = await harness.call('tool_search', { query: 'tool_search find more tools keywords' });
    assert.ok(!lines(result.content).some((l) => l.startsWith('- tool_search:')), result.content);
  });

  it('describes itself for approval without running', async () => {
    const { harness, selector } = setup();
    const description = await harness.describe('tool_search', { query: 'git commit' });
    assert.equal(description.title, 'Search the tools for "git commit"');
    assert.deepEqual(selector.requestedTools, []);
  });
});
