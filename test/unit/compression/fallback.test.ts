// The deterministic fallback: a model that fails the pass (garbage, HTTP errors) or no model at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { computeLayout } from '../../../src/core/compression/compressionUnits';
import { COMPRESSED_MARKER, markCompressed } from '../../../src/core/compression/marker';
import { describeMeta, toolResultMeta } from '../../../src/core/compression/metadata';
import { digestToolResult } from '../../../src/core/compression/toolResultDigest';
import type { ChatMessage } from '../../../src/core/messages';
import type { ChatProvider } from '../../../src/core/provider';
import { FailingModel, GarbageModel } from '../../helpers/compression/compressionModels';
import { assertValidOrder } from './assertions';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;
// Large enough that cutting old tool results is enough: the last 10 rounds stay whole.
const WINDOW = 20480;

async function run(provider: ChatProvider, settings = {}) {
  const history = scriptedSession({ messages: 90, seed: 3, fileChars: 2500 });
  const reports: CompressionReport[] = [];
  const manager = createContextManager({ provider, model: 'test-model', window: WINDOW, tools: () => SESSION_TOOLS, settings, onCompression: (r) => reports.push(r) });
  const out = await manager.prepareMessages([systemMessage(), ...history], signal);
  return { history, out, reports, manager };
}

/** What each fixture tool's digest must still say, read from the original the way a model would look for it. */
function assertKeepsFacts(original: ChatMessage, digest: string): void {
  const text = original.content;
  switch (original.toolName) {
    case 'read_file': {
      const path = /^(\S+) \(\d+ lines\):/.exec(text)![1]!;
      assert.ok(digest.includes(`Full result: call read_file with {"path":"${path}"}.`), digest);
      assert.ok(digest.length < text.length / 3, `a ${text.length}-character read becomes a few lines (${digest.length})`);
      break;
    }
    case 'search_files':
      for (const [, path, line] of text.matchAll(/^(.+?):(\d+):/gm)) assert.match(digest, new RegExp(`^${path!.replace(/[.]/g, '\\.')}:(\\d+,)*${line}(,|$)`, 'm'), `${path}:${line}`);
      break;
    case 'run_command': {
      const lines = text.split('\n');
      assert.ok(digest.includes(lines.at(-1)!), 'the exit code line');
      assert.ok(digest.includes(lines.at(-2)!.slice(0, 60)), 'the last output line');
      break;
    }
    default:
      assert.fail(`unexpected tool ${original.toolName}`);
  }
}

for (const [name, make] of [
  ['a model that answers with garbage', () => new GarbageModel()],
  ['a model whose server fails', () => new FailingModel()],
] as const) {
  test(`${name}: the fallback replaces old tool results with their digests and keeps the last 10 rounds whole`, async () => {
    const provider = make();
    const { history, out, reports } = await run(provider);
    assert.equal(reports.length, 1);
    const report = reports[0]!;
    assert.equal(report.method, 'fallback', JSON.stringify(report.steps));
    assert.ok(report.llm?.failure, 'the LLM pass says why it gave up');
    assert.ok(report.llm.iterations <= 3, `gave up quickly (${report.llm.iterations} calls)`);
    assert.ok(report.targetMet && report.tokensAfter <= WINDOW * 0.4, `after ${report.tokensAfter}`);
    assertValidOrder(out);

    const layout = computeLayout(history, 5, 10);
    for (const c of report.compressed) {
      assert.equal(c.method, 'fallback');
      assert.ok(c.index < layout.keepWholeStart, `#${c.index} is older than the last 10 rounds`);
      if (c.original.role === 'assistant') {
        // Old rounds: besides tool results, only the bulky arguments of calls (a whole file in write_file) go.
        assert.equal(c.compressed.content, markCompressed(c.original.content));
        assert.notDeepEqual(c.compressed.toolCalls, c.original.toolCalls);
        continue;
      }
      assert.equal(c.original.role, 'tool', 'old rounds: user and assistant text stays');
      const header = `${COMPRESSED_MARKER} ${describeMeta(toolResultMeta(history, c.index))}\n`;
      assert.ok(c.compressed.content.startsWith(header), c.compressed.content.slice(0, 120));
      // The contract changed from "the metadata line and the first 200 characters" to the tool's digest: the
      // facts a model acts on stay (checked here independently of the digest code), the bulk goes.
      assert.equal(c.compressed.content, digestToolResult(history, c.index, { headChars: 200 }));
      assert.ok(c.compressed.content.length < c.original.content.length, 'smaller than the result');
      assertKeepsFacts(c.original, c.compressed.content);
    }
    for (let i = layout.keepWholeStart; i < history.length; i++) assert.ok(out.includes(history[i]!), `message ${i} in the last 10 rounds is whole`);
  });
}

test('tools on the never-compress list keep their results', async () => {
  const { history, out, reports } = await run(new GarbageModel(), { neverCompressTools: ['run_command'] });
  assert.ok(reports[0]!.compressed.length > 0);
  const commands = history.filter((m) => m.role === 'tool' && m.toolName === 'run_command');
  assert.ok(commands.length > 3);
  for (const m of commands) assert.ok(out.includes(m), 'run_command results are sent unchanged');
  assert.ok(reports[0]!.compressed.every((c) => c.original.toolName !== 'run_command'));
});

test('with the LLM pass switched off, no model is called', async () => {
  const provider = new GarbageModel();
  const { reports } = await run(provider, { llmCompression: false });
  assert.equal(provider.requests.length, 0);
  assert.equal(reports[0]!.method, 'fallback');
  assert.equal(reports[0]!.llm, undefined);
});

test('old assistant tool calls with bulky arguments are shortened, and still pair with their results', async () => {
  const history = scriptedSession({ messages: 90, seed: 3, fileChars: 2500 });
  const reports: CompressionReport[] = [];
  // A tighter window so the fallback reaches past tool results.
  const manager = createContextManager({ provider: new GarbageModel(), model: 'm', window: 12288, tools: () => SESSION_TOOLS, onCompression: (r) => reports.push(r) });
  const out = await manager.prepareMessages([systemMessage(), ...history], signal);
  const writes = reports[0]!.compressed.filter((c) => c.original.role === 'assistant' && c.original.toolCalls?.[0]?.name === 'write_file');
  assert.ok(writes.length > 0, JSON.stringify(reports[0]!.steps));
  for (const w of writes) {
    const args = w.compressed.toolCalls![0]!.arguments as { content: string };
    assert.match(args.content, /… \[\d+ more characters compressed\]$/);
    assert.equal(w.compressed.toolCalls![0]!.id, w.original.toolCalls![0]!.id);
  }
  assertValidOrder(out);
});
