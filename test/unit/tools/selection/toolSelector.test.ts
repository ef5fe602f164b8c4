// The tool pre-filter's policy: when it filters, what is always offered, what the turn keeps, what
// tool_search adds, how it falls back to keywords (saying so once), and whether the right tools win. The
// embedding ranking talks to the fake Ollama server over real HTTP through the real embedding client.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddingUnavailableError } from '../../../../src/core/embeddings';
import type { ToolDefinition } from '../../../../src/core/messages';
import { estimateToolDefinitionTokens } from '../../../../src/core/tokens';
import { ToolSelector, type ToolSelectionInput } from '../../../../src/core/tools/selection/toolSelector';
import { toolQueryFrom } from '../../../../src/core/tools/selection/toolQuery';
import { CachedEmbedder } from '../../../../src/indexing/embeddingClient';
import { OllamaProvider } from '../../../../src/providers/ollama';
import { embedRequests, embeddedInputCount, startFakeOllamaServer, type FakeServerHandle } from '../../../helpers/fakeLlm';
import { builtinDefinitions, realisticDefinitions } from '../../../helpers/tools/realisticTools';

const signal = () => new AbortController().signal;
const REALISTIC = realisticDefinitions();
const TOOL_SEARCH: ToolDefinition = {
  name: 'tool_search',
  description: 'Find more tools by keywords; the tools found can be called from your next step.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

function input(overrides: Partial<ToolSelectionInput> = {}): ToolSelectionInput {
  return { definitions: REALISTIC, query: 'rename the file notes.txt', window: 32768, signal: signal(), ...overrides };
}

let server: FakeServerHandle;
let noEmbedServer: FakeServerHandle;
before(async () => {
  server = await startFakeOllamaServer([], { name: 'selector embeddings' });
  noEmbedServer = await startFakeOllamaServer([], {
    name: 'selector without embedding model',
    models: [{ name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] }],
    embeddingModels: [],
  });
});
after(async () => {
  await server.close();
  await noEmbedServer.close();
});

const embedderFor = (handle: FakeServerHandle, model = 'nomic-embed-text') =>
  new CachedEmbedder({ provider: new OllamaProvider({ host: handle.url }), model });

describe('when the selector filters', () => {
  it('sends every tool unchanged while there are few and they fit the share', async () => {
    const defs = builtinDefinitions();
    const selection = await new ToolSelector().select(input({ definitions: defs }));
    assert.equal(selection.ranking, 'all');
    assert.equal(selection.filtered, false);
    assert.equal(selection.compacted, false);
    assert.equal(selection.tools.length, defs.length);
    selection.tools.forEach((d, i) => assert.equal(d, defs[i], 'the same definition objects'));
    assert.equal(selection.tokensAll, estimateToolDefinitionTokens(defs));
    assert.equal(selection.tokensOffered, selection.tokensAll);
  });

  it('offers at most maxOffered tools when there are more, in the registry order', async () => {
    const selection = await new ToolSelector().select(input());
    assert.equal(selection.filtered, true);
    assert.equal(selection.totalTools, 25);
    assert.equal(selection.tools.length, 15);
    assert.equal(selection.ranking, 'keyword');
    const order = selection.offered.map((name) => REALISTIC.findIndex((d) => d.name === name));
    assert.deepEqual(order, [...order].sort((a, b) => a - b), 'registry order, whatever the ranking');
    assert.ok(selection.tokensOffered < selection.tokensAll);
    assert.equal(selection.tokensOffered, estimateToolDefinitionTokens(selection.tools));
  });

  it('filters a few tools that would take more than the share of a small window, and fits them into it', async () => {
    const defs = builtinDefinitions();
    const tokens = estimateToolDefinitionTokens(defs);
    const window = 2048; // 25 % = 512 tokens, less than the built-ins need
    assert.ok(tokens > 512, `${tokens}`);
    const selection = await new ToolSelector().select(input({ definitions: defs, window, query: 'edit the README' }));
    assert.ok(selection.tokensOffered <= 512, `${selection.tokensOffered}`);
    assert.ok(selection.offered.includes('task_completion') && selection.offered.includes('ask_question'));
    assert.ok(selection.offered.includes('edit_file'), selection.offered.join(', '));
  });

  it('fits our built-ins plus the filesystem server into 25 % of a 4,096-token window', async () => {
    const selection = await new ToolSelector().select(input({ window: 4096 }));
    assert.ok(selection.tokensAll > 3000, `${selection.tokensAll}`);
    assert.ok(selection.tokensOffered <= 1024, `${selection.tokensOffered}`);
    assert.ok(selection.offered.includes('move_file') || selection.offered.includes('files__move_file'), selection.offered.join(', '));
    for (const d of selection.tools) {
      const original = REALISTIC.find((o) => o.name === d.name)!;
      assert.deepEqual((d.parameters as { required?: unknown }).required, (original.parameters as { required?: unknown }).required);
    }
  });

  it('filters when the window is unknown (0) only by count', async () => {
    const few = await new ToolSelector().select(input({ definitions: builtinDefinitions(), window: 0 }));
    assert.equal(few.ranking, 'all');
    const many = await new ToolSelector().select(input({ window: 0 }));
    assert.equal(many.tools.length, 15);
  });
});

describe('what is always offered', () => {
  it('task_completion, ask_question and tool_search come whatever the query, counted toward K', async () => {
    const defs = [...REALISTIC, TOOL_SEARCH];
    const selection = await new ToolSelector({ settings: { maxOffered: 6 } }).select(input({ definitions: defs, query: 'zebra quokka' }));
    for (const name of ['task_completion', 'ask_question', 'tool_search']) assert.ok(selection.offered.includes(name), name);
    assert.equal(selection.tools.length, 6);
  });

  it('ignores always-offered names that are not registered', async () => {
    const selection = await new ToolSelector({ settings: { maxOffered: 4, alwaysOffer: ['no_such_tool', 'todo_read'] } }).select(input());
    assert.ok(selection.offered.includes('todo_read'));
    assert.ok(!selection.offered.includes('no_such_tool'));
    assert.equal(selection.tools.length, 4);
  });

  it('keeps the tools used earlier in the turn even when the query is about something else', async () => {
    const selection = await new ToolSelector({ settings: { maxOffered: 5 } }).select(
      input({ keep: ['todo_write', 'files__get_file_info'], query: 'run npm test' }),
    );
    assert.ok(selection.offered.includes('todo_write') && selection.offered.includes('files__get_file_info'), selection.offered.join(', '));
    assert.ok(selection.offered.includes('run_command'));
  });

  it('goes over K rather than drop a must-offer tool', async () => {
    const keep = ['read_file', 'write_file', 'edit_file', 'move_file'];
    const selection = await new ToolSelector({ settings: { maxOffered: 3 } }).select(input({ keep }));
    assert.deepEqual(
      [...selection.offered].sort(),
      [...keep, 'task_completion', 'ask_question'].sort(),
      'the must-offer tools, and no ranked ones',
    );
  });

  it('includes a tool the request names exactly', async () => {
    const selection = await new ToolSelector({ settings: { maxOffered: 4 } }).select(
      input({ query: 'use files__list_allowed_directories to see where you may write' }),
    );
    assert.ok(selection.offered.includes('files__list_allowed_directories'), selection.offered.join(', '));
  });
});

describe('tools asked for with tool_search', () => {
  it('are offered from the next select on, for the rest of the turn, and not after startTurn()', async () => {
    const selector = new ToolSelector({ settings: { maxOffered: 5 } });
    const query = 'rename the file notes.txt';
    const first = await selector.select(input({ query }));
    assert.ok(!first.offered.includes('files__get_file_info'));
    selector.requestTools(['files__get_file_info', 'not_registered']);
    assert.deepEqual(selector.requestedTools, ['files__get_file_info', 'not_registered']);
    for (let round = 0; round < 2; round++) {
      const next = await selector.select(input({ query }));
      assert.ok(next.offered.includes('files__get_file_info'), `round ${round}: ${next.offered.join(', ')}`);
      assert.ok(!next.offered.includes('not_registered'));
    }
    selector.startTurn();
    const newTurn = await selector.select(input({ query }));
    assert.ok(!newTurn.offered.includes('files__get_file_info'));
    assert.deepEqual(selector.lastOffered, newTurn.offered);
  });
});

describe('ranking quality: "rename the file notes.txt" among 25 real tools', () => {
  for (const mode of ['keyword', 'embedding'] as const) {
    it(`puts both move tools in the top K (${mode})`, async () => {
      const selector = new ToolSelector({
        settings: { maxOffered: 6 }, // 2 always-offered + 4 ranked
        ...(mode === 'embedding' && { embedder: embedderFor(server) }),
      });
      const selection = await selector.select(input());
      assert.equal(selection.ranking, mode);
      assert.ok(selection.offered.includes('move_file') && selection.offered.includes('files__move_file'), selection.offered.join(', '));
    });
  }

  it('finds the directory tree tool for a question about folder structure (embedding)', async () => {
    const selection = await new ToolSelector({ settings: { maxOffered: 6 }, embedder: embedderFor(server) }).select(
      input({ query: 'show me the folder structure as a tree' }),
    );
    assert.ok(selection.offered.includes('files__directory_tree'), selection.offered.join(', '));
  });
});

describe('embeddings', () => {
  it('embeds each tool once; later rounds send only the new query', async () => {
    const before = embedRequests(server).length;
    const inputsBefore = embeddedInputCount(server);
    const selector = new ToolSelector({ embedder: embedderFor(server, 'embed-once') });
    await selector.select(input({ query: 'rename the file notes.txt' }));
    const afterFirst = embeddedInputCount(server);
    // 23 ranked candidates (25 minus the two always offered) + the query
    assert.equal(afterFirst - inputsBefore, 24);
    await selector.select(input({ query: 'now read it' }));
    assert.equal(embeddedInputCount(server) - afterFirst, 1, 'only the new query');
    await selector.select(input({ query: 'now read it' }));
    assert.equal(embeddedInputCount(server) - afterFirst, 1, 'a repeated query is not embedded again');
    assert.equal(embedRequests(server).length - before, 2);
  });

  it('a changed description is embedded again', async () => {
    const selector = new ToolSelector({ embedder: embedderFor(server, 'embed-changes') });
    await selector.select(input());
    const count = embeddedInputCount(server);
    const changed = REALISTIC.map((d) => (d.name === 'files__move_file' ? { ...d, description: 'Relocate an item.' } : d));
    await selector.select(input({ definitions: changed }));
    assert.equal(embeddedInputCount(server) - count, 1, 'only the changed tool');
  });

  it('falls back to keywords for the rest of the session when the server has no embedding model, saying so once', async () => {
    const selector = new ToolSelector({ embedder: embedderFor(noEmbedServer) });
    const first = await selector.select(input());
    assert.equal(first.ranking, 'keyword');
    assert.match(first.notice ?? '', /keywords/);
    assert.match(first.notice ?? '', /ollama pull nomic-embed-text/);
    assert.equal(selector.rankingMode, 'keyword');
    const requests = embedRequests(noEmbedServer).length;
    const second = await selector.select(input({ query: 'read a file' }));
    assert.equal(second.ranking, 'keyword');
    assert.equal(second.notice, undefined, 'said once');
    assert.equal(embedRequests(noEmbedServer).length, requests, 'the server is not asked again');
  });

  it('falls back on any other embedding failure too (server gone)', async () => {
    const gone = await startFakeOllamaServer([]);
    const embedder = embedderFor(gone);
    await gone.close();
    const selector = new ToolSelector({ embedder });
    const selection = await selector.select(input());
    assert.equal(selection.ranking, 'keyword');
    assert.match(selection.notice ?? '', /embedding with "nomic-embed-text" failed/);
    assert.ok(selection.offered.includes('move_file'));
  });

  it('an embedder that reports EmbeddingUnavailableError is quoted as is', async () => {
    const selector = new ToolSelector({
      embedder: {
        model: 'm',
        embed: async () => {
          throw new EmbeddingUnavailableError('m', 'No embedding model is set. Set one.');
        },
      },
    });
    const selection = await selector.select(input());
    assert.equal(selection.notice, 'Tool selection ranks tools by keywords for the rest of this session: No embedding model is set. Set one.');
  });

  it('cancelling is not a failure: it rejects and leaves embeddings on', async () => {
    const controller = new AbortController();
    const selector = new ToolSelector({
      embedder: {
        model: 'slow',
        embed: (_texts, s) =>
          new Promise((_resolve, reject) => s.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })))),
      },
    });
    const pending = selector.select(input({ signal: controller.signal }));
    controller.abort();
    await assert.rejects(pending, /aborted/);
    assert.equal(selector.rankingMode, 'embedding');
    await assert.rejects(selector.select(input({ signal: AbortSignal.abort() })));
  });
});

describe('settings', () => {
  it('are validated, naming the bad field', () => {
    assert.throws(() => new ToolSelector({ settings: { maxShare: 2 } }), /maxShare/);
    assert.throws(() => new ToolSelector({ settings: { maxOffered: 0 } }), /maxOffered/);
    assert.throws(() => new ToolSelector({ settings: { maxOfered: 3 } as never }), /maxOfered/);
    assert.deepEqual(new ToolSelector().settings, { maxOffered: 15, maxShare: 0.25, alwaysOffer: ['task_completion', 'ask_question', 'tool_search'] });
  });
});

describe('toolQueryFrom', () => {
  it('puts the latest user request first, then the newest messages, each cut short', () => {
    const query = toolQueryFrom(
      [
        { role: 'system', content: 'You are an agent.' },
        { role: 'user', content: 'old request' },
        { role: 'user', content: 'Rename notes.txt to todo.txt' },
        { role: 'assistant', content: '', toolCalls: [{ id: '1', name: 'list_directory', arguments: {} }] },
        { role: 'tool', content: 'x'.repeat(1000), toolCallId: '1', toolName: 'list_directory' },
      ],
      { recentChars: 50 },
    );
    const lines = query.split('\n');
    assert.equal(lines[0], 'Rename notes.txt to todo.txt');
    assert.equal(lines[1], 'x'.repeat(50));
    assert.equal(lines[2], 'list_directory');
    assert.doesNotMatch(query, /old request|You are an agent/);
  });
});
