// Indexing overhead bench: full indexing of a realistic set of files (this repository's own src/core, 40
// TypeScript files, plus the README) into a real sql.js session database, against the fake Ollama server
// answering the summaries with the weak indexing model at a local model's pace (first byte after 250 ms,
// then streamed) and embedding over HTTP after 15 ms + 1 ms per text (a GPU embedding model's pace).
// Model time is what the indexer spent awaiting the summarizer and the embedder; overhead = (total − model) /
// model, i.e. what reading, chunking, hashing, prompting, parsing and storing add. Target: < 10 %.
// Then a second pass over the unchanged files (no model call at all) shows the incremental path's cost.
// Run: node --import tsx bench/indexing.bench.ts [--strict]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatProvider } from '../src/core/provider';
import { createKnowledge } from '../src/indexing/knowledge';
import type { IndexPhase, IndexResult } from '../src/indexing/indexer';
import { NodeFileSystem } from '../src/node/nodeFileSystem';
import { SessionStore } from '../src/persistence/sessionStore';
import { OllamaProvider } from '../src/providers/ollama';
import { embedRequests, startFakeOllamaServer, type ChatBody } from '../test/helpers/fakeLlm';
import { indexingModel, isIndexingRequest } from '../test/helpers/weakModels';

const STRICT = process.argv.includes('--strict');
const FILES = 40;
const FIRST_BYTE_MS = 250;
const CHUNK_DELAY_MS = 4;
const EMBED_BASE_MS = 15;
const EMBED_PER_TEXT_MS = 1;
const TARGET = 0.1;

const root = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

async function main(): Promise<void> {
  const files = [...sourceFiles(path.join(root, 'src/core')).slice(0, FILES), path.join(root, 'README.md')];
  const model = indexingModel('good');
  const server = await startFakeOllamaServer(
    (request: ChatBody) => (isIndexingRequest(request) ? { ...model(request), delayMs: FIRST_BYTE_MS, chunkSize: 40, chunkDelayMs: CHUNK_DELAY_MS } : { text: 'no' }),
    { name: 'indexing bench' },
  );
  const http = new OllamaProvider({ host: server.url });
  // The same server, with an embedding model's latency in front of each embedding request.
  const provider: ChatProvider = Object.assign(Object.create(http) as ChatProvider, {
    embed: async (name: string, input: readonly string[], signal: AbortSignal) => {
      await sleep(EMBED_BASE_MS + EMBED_PER_TEXT_MS * input.length, signal);
      return http.embed!(name, input, signal);
    },
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-bench-index-'));
  const store = await SessionStore.open(path.join(dir, 'bench.db'));
  const phases = new Map<IndexPhase, number>();
  const knowledge = createKnowledge({
    store: store.knowledgeFor(root),
    vectors: store.vectors,
    provider,
    model: 'bench-model',
    embedModel: 'nomic-embed-text',
    fs: new NodeFileSystem(),
    workspace: root,
    indexer: { onTiming: (t) => phases.set(t.phase, (phases.get(t.phase) ?? 0) + t.ms) },
  });
  const signal = new AbortController().signal;

  try {
    const pass = async () => {
      const results: IndexResult[] = [];
      const started = performance.now();
      for (const file of files) results.push(await knowledge.indexer.index({ path: file, mode: 'full' }, { signal }));
      return { results, wallMs: performance.now() - started };
    };
    const first = await pass();
    const failed = first.results.filter((r) => r.outcome !== 'indexed');
    if (failed.length > 0) throw new Error(`not indexed: ${failed.map((r) => `${r.path} ${r.outcome} ${r.reason ?? r.notices.join('; ')}`).join(', ')}`);
    const modelMs = first.results.reduce((n, r) => n + r.modelMs, 0);
    const chunks = first.results.reduce((n, r) => n + r.chunks, 0);
    const overhead = (first.wallMs - modelMs) / modelMs;

    const second = await pass();
    const unchanged = second.results.filter((r) => r.outcome === 'unchanged').length;

    const fmt = (ms: number) => `${ms.toFixed(0).padStart(7)} ms`;
    console.log(`# Indexing overhead: ${files.length} files (${chunks} chunks), full mode, real sql.js database`);
    console.log(`server: summary first byte ${FIRST_BYTE_MS} ms + streamed (${CHUNK_DELAY_MS} ms per 40 chars); embeddings ${EMBED_BASE_MS} ms + ${EMBED_PER_TEXT_MS} ms per text`);
    console.log(`requests: ${server.requests.length} summaries, ${embedRequests(server).length} embedding calls`);
    console.log('\n| | time |');
    console.log('|---|---|');
    console.log(`| total (wall clock, ${files.length} files) | ${fmt(first.wallMs)} |`);
    console.log(`| model (awaiting summaries and embeddings) | ${fmt(modelMs)} |`);
    console.log(`| ours (total − model) | ${fmt(first.wallMs - modelMs)} |`);
    for (const phase of ['read', 'chunk', 'store'] as const) console.log(`|   of which ${phase} | ${fmt(phases.get(phase) ?? 0)} |`);
    console.log(`\noverhead beyond the model's own time: ${(overhead * 100).toFixed(2)} % (target < ${TARGET * 100} %)`);
    console.log(`second pass, nothing changed: ${unchanged}/${files.length} unchanged in ${second.wallMs.toFixed(0)} ms, ${server.requests.length} summaries in total (no new request)`);
    const ok = overhead < TARGET && unchanged === files.length;
    if (!ok) console.log('TARGET MISSED');
    if (STRICT && !ok) process.exitCode = 1;
  } finally {
    await store.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
