// Summaries stay with their code (issue 20): full indexing of a file whose first chunk is a comment-only block,
// summarized by a weak model that skips that chunk and numbers the rest its own way (from 1, or from 0) and counts
// entity lines from the first chunk it kept. Over both wire formats, into a real sql.js database: no summary lands
// on a chunk it does not describe, entity lines point at their declarations, and the file is flagged in the
// index result, the stored note and the CLI's `index` output.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SUMMARY_MISMATCH_NOTE } from '../../../src/core/knowledge/types';
import type { ChatProvider } from '../../../src/core/provider';
import { createKnowledge } from '../../../src/indexing/knowledge';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { runCli } from '../../helpers/cli/runCli';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle } from '../../helpers/fakeLlm';
import { indexingModel, isIndexingRequest, type IndexingBehaviour } from '../../helpers/weakModels';

const FUNCTIONS = 8;
const HEADER = ['/*', ' * Shot tools.', ' * Copyright the authors.', ' * Licensed under the MIT licence: use, copy and change it,', ' * as long as this notice stays.', ' */', ''];
const SOURCE = [
  ...HEADER,
  ...Array.from({ length: FUNCTIONS }, (_, i) => [`export function fn1_${i + 1}(value: number): number {`, '  const doubled = value * 2;', `  const shifted = doubled + ${i};`, `  return ${i > 0 ? `fn1_${i}(shifted)` : 'shifted'};`, '}', '']).flat(),
].join('\n');
const declarationLine = (k: number) => SOURCE.split('\n').indexOf(`export function fn1_${k}(value: number): number {`) + 1;

const cleanup: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

const WIRES = [
  { name: 'ollama', start: startFakeOllamaServer, provider: (s: FakeServerHandle): ChatProvider => new OllamaProvider({ host: s.url }), flags: (s: FakeServerHandle) => ['--provider', 'ollama', '--base-url', s.origin] },
  { name: 'openai', start: startFakeOpenAIServer, provider: (s: FakeServerHandle): ChatProvider => new OpenAICompatibleProvider({ baseUrl: s.url }), flags: (s: FakeServerHandle) => ['--provider', 'openai', '--base-url', s.url] },
] as const;

async function fixture(wire: (typeof WIRES)[number], behaviour: IndexingBehaviour) {
  const ws = mkdtempSync(path.join(tmpdir(), 'lh-numbering-'));
  mkdirSync(path.join(ws, 'src'));
  writeFileSync(path.join(ws, 'src/shots.ts'), SOURCE);
  const model = indexingModel(behaviour);
  const server = await wire.start((r: ChatBody) => (isIndexingRequest(r) ? model(r) : { text: 'This server only indexes.' }), { name: behaviour });
  cleanup.push(async () => {
    await server.close();
    rmSync(ws, { recursive: true, force: true });
  });
  return { ws, server, model };
}

describe('chunk summaries from a model that numbers its own way', () => {
  for (const wire of WIRES) {
    for (const behaviour of ['skips-from-1', 'skips-from-0'] as const) {
      it(`${behaviour} (${wire.name}): every summary on the chunk it describes, none on the comment, entity lines right, the file flagged`, async () => {
        const { ws, server, model } = await fixture(wire, behaviour);
        const store = await SessionStore.open(path.join(ws, 'index.db'));
        cleanup.push(() => store.close());
        const knowledge = createKnowledge({ store: store.knowledgeFor(ws), vectors: store.vectors, provider: wire.provider(server), model: 'test-model', embedModel: '', fs: new NodeFileSystem(), workspace: ws });
        const result = await knowledge.indexer.index({ path: 'src/shots.ts', mode: 'full' }, { signal: new AbortController().signal });
        assert.equal(result.outcome, 'indexed', result.reason);

        assert.equal(server.requests.length, 1);
        const reply = JSON.parse(model(server.requests[0]!).text ?? '{}') as { chunks?: Array<{ chunk: number; summary: string }> };
        assert.equal(reply.chunks?.[0]?.chunk, behaviour === 'skips-from-1' ? 1 : 0, 'the model really numbered its own way');
        assert.match(reply.chunks?.[0]?.summary ?? '', /fn1_1\b/);

        const chunks = store.knowledgeFor(ws).chunks('src/shots.ts');
        assert.equal(chunks.length, FUNCTIONS + 1);
        assert.equal(chunks[0]!.name, undefined, 'the first chunk is the comment block');
        assert.equal(chunks[0]!.summary, undefined, 'the comment block has no summary (the model gave none)');
        for (const c of chunks.slice(1)) {
          assert.ok(c.summary, `${c.name} has its summary`);
          const named = [...c.summary.matchAll(/fn1_\d+/g)].map((m) => m[0]);
          assert.deepEqual([...new Set(named)], [c.name], `${c.name} carries "${c.summary}"`);
        }
        for (const e of store.knowledgeFor(ws).entities('src/shots.ts')) {
          assert.equal(e.line, declarationLine(Number(e.name.slice(4))), `${e.name} is declared on line ${e.line}`);
        }

        const note = result.notices.find((n) => n.startsWith(SUMMARY_MISMATCH_NOTE));
        assert.match(note ?? '', /8 chunk summaries moved to the chunk they describe/);
        assert.match(note ?? '', /8 entity lines corrected/);
        assert.equal(store.knowledgeFor(ws).getFile('src/shots.ts')?.note, note);
      });
    }
  }

  it('the CLI `index` output flags the file', async () => {
    const wire = WIRES[1];
    const { ws, server } = await fixture(wire, 'skips-from-1');
    const run = await runCli(['index', ...wire.flags(server), '--workspace', ws, '--db', path.join(ws, 'index.db'), '--model', 'test-model', 'src/shots.ts'], { cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^indexed\s+src\/shots\.ts \(9 chunks, summary\) — The summarizer's answer did not match the code: 8 chunk summaries moved/m);
  });
});
