// The retriever over a small knowledge graph with a real embedding server (fake Ollama over HTTP): 1-hop
// neighbours from entities and relations, reloading when the store changes (only new chunks are embedded),
// and the fall-back to keywords, with a notice naming the error, when the server goes away mid-session.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Entity, Relation } from '../../../src/core/knowledge/types';
import { CachedEmbedder } from '../../../src/indexing/embeddingClient';
import { KnowledgeIndexRetriever } from '../../../src/indexing/retriever';
import { OllamaProvider } from '../../../src/providers/ollama';
import { embeddedInputCount, startFakeOllamaServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { MemoryKnowledgeStore, knowledgeWrite } from '../../helpers/knowledge/memoryKnowledgeStore';

const MODEL = 'nomic-embed-text';
const signal = () => new AbortController().signal;

// src/main.ts: main() calls loadSettings(); src/settings.ts: loadSettings() calls parseDuration() and readJson();
// src/duration.ts: parseDuration(). A realistic three-file graph as the model reports it in full indexing.
const MAIN = ['import { loadSettings } from "./settings";', '', 'export async function main(): Promise<void> {', '  const settings = await loadSettings("app.json");', '  console.log(settings.port);', '}'].join('\n');
const SETTINGS = [
  'import { parseDuration } from "./duration";',
  '',
  '/** Loads the settings file and turns its timeout strings into milliseconds. */',
  'export async function loadSettings(file: string): Promise<Settings> {',
  '  const raw = await readJson(file);',
  '  return { port: raw.port, timeoutMs: parseDuration(raw.timeout) };',
  '}',
  '',
  '/** Reads and parses a JSON file. */',
  'export async function readJson(file: string): Promise<any> {',
  '  return JSON.parse(await readFile(file, "utf8"));',
  '}',
].join('\n');
const DURATION = ['/** Parses "5m" or "30s" into milliseconds. */', 'export function parseDuration(text: string): number {', '  return Number(text.slice(0, -1)) * 1000;', '}'].join('\n');

function lines(text: string, start: number, end: number): string {
  return text.split('\n').slice(start - 1, end).join('\n');
}

function indexGraph(store: MemoryKnowledgeStore): void {
  const entity = (name: string, file: string, line: number, kind = 'function'): Entity => ({ name, kind, file, line });
  const relation = (from: string, kind: Relation['kind'], to: string, file: string, line?: number): Relation => ({ from, kind, to, file, ...(line !== undefined && { line }) });
  store.putFile(
    knowledgeWrite('src/main.ts', MAIN, [{ kind: 'function', name: 'main', startLine: 3, endLine: 6, text: lines(MAIN, 3, 6), summary: 'Entry point: loads settings and prints the port.' }], {
      summary: 'The program entry point.',
      entities: [entity('main', 'src/main.ts', 3)],
      relations: [relation('main', 'calls', 'loadSettings', 'src/main.ts', 4), relation('src/main.ts', 'imports', 'loadSettings', 'src/main.ts', 1)],
    }),
  );
  store.putFile(
    knowledgeWrite(
      'src/settings.ts',
      SETTINGS,
      [
        { kind: 'function', name: 'loadSettings', startLine: 3, endLine: 7, text: lines(SETTINGS, 3, 7), summary: 'Loads the settings file and converts timeouts.' },
        { kind: 'function', name: 'readJson', startLine: 9, endLine: 12, text: lines(SETTINGS, 9, 12) },
      ],
      {
        summary: 'Settings loading.',
        entities: [entity('loadSettings', 'src/settings.ts', 4), entity('readJson', 'src/settings.ts', 10)],
        relations: [relation('loadSettings', 'calls', 'readJson', 'src/settings.ts'), relation('loadSettings', 'calls', 'parseDuration', 'src/settings.ts', 6)],
      },
    ),
  );
  store.putFile(
    knowledgeWrite('src/duration.ts', DURATION, [{ kind: 'function', name: 'parseDuration', startLine: 1, endLine: 4, text: DURATION }], {
      summary: 'Duration strings.',
      entities: [entity('parseDuration', 'src/duration.ts', 2)],
    }),
  );
}

let server: FakeServerHandle;
before(async () => {
  server = await startFakeOllamaServer([], { name: 'retriever graph' });
});
after(async () => {
  await server.close();
});

const embedderFor = (url: string) => new CachedEmbedder({ provider: new OllamaProvider({ host: url }), model: MODEL });

describe('1-hop neighbours', () => {
  it('a hit lists what it calls (where that is defined) and who calls it, with the relation', async () => {
    const store = new MemoryKnowledgeStore();
    indexGraph(store);
    const retriever = new KnowledgeIndexRetriever({ store, embedder: embedderFor(server.url) });
    const result = await retriever.retrieve('where are the settings loaded from the file?', { k: 1, signal: signal() });
    assert.equal(result.method, 'vectors');
    const [hit] = result.items;
    assert.equal(hit?.name, 'loadSettings');
    assert.equal(hit.summary, 'Loads the settings file and converts timeouts.');
    assert.deepEqual(hit.neighbours, [
      { file: 'src/settings.ts', startLine: 9, endLine: 12, name: 'readJson', relation: 'calls readJson' },
      { file: 'src/duration.ts', startLine: 1, endLine: 4, name: 'parseDuration', relation: 'calls parseDuration' },
      { file: 'src/main.ts', startLine: 3, endLine: 6, name: 'main', relation: 'called by main' },
    ]);

    const leaf = (await retriever.retrieve('parse a duration string into milliseconds', { k: 1, signal: signal() })).items[0];
    assert.equal(leaf?.name, 'parseDuration');
    assert.deepEqual(leaf.neighbours.map((n) => n.relation), ['called by loadSettings']);

    const capped = new KnowledgeIndexRetriever({ store, embedder: embedderFor(server.url), maxNeighbours: 1 });
    const one = await capped.retrieve('where are the settings loaded from the file?', { k: 1, signal: signal() });
    assert.deepEqual(one.items[0]?.neighbours.map((n) => n.relation), ['calls readJson']);
  });
});

describe('reloading when the store changes', () => {
  it('finds a newly indexed file, forgets a removed one, and embeds only the new chunks', async () => {
    const store = new MemoryKnowledgeStore();
    indexGraph(store);
    const retriever = new KnowledgeIndexRetriever({ store, embedder: embedderFor(server.url) });
    const before = await retriever.retrieve('invoice total with sales tax', { signal: signal() });
    assert.ok(!before.items.some((i) => i.file === 'src/invoice.ts'));

    const invoice = '/** Adds sales tax to an invoice total. */\nexport function invoiceTotal(net: number, taxRate: number): number {\n  return net * (1 + taxRate);\n}';
    const start = embeddedInputCount(server);
    store.putFile(knowledgeWrite('src/invoice.ts', invoice, [{ kind: 'function', name: 'invoiceTotal', startLine: 1, endLine: 4, text: invoice }]));
    const after = await retriever.retrieve('invoice total with sales tax', { signal: signal() });
    assert.equal(after.items[0]?.file, 'src/invoice.ts');
    assert.equal(after.items[0]?.name, 'invoiceTotal');
    assert.equal(embeddedInputCount(server) - start, 1, 'only the new chunk; the query vector was cached');

    assert.equal(store.removeFile('src/invoice.ts'), true);
    const removed = await retriever.retrieve('invoice total with sales tax', { signal: signal() });
    assert.ok(!removed.items.some((i) => i.file === 'src/invoice.ts'));
    assert.equal(embeddedInputCount(server) - start, 1, 'nothing embedded for a removal');
  });
});

describe('the server goes away', () => {
  it('falls back to keywords with a notice naming the error, once, and uses vectors again when it can', async () => {
    const flaky = await startFakeOllamaServer([], { name: 'flaky embedding server' });
    const store = new MemoryKnowledgeStore();
    indexGraph(store);
    const notices: string[] = [];
    const retriever = new KnowledgeIndexRetriever({ store, embedder: embedderFor(flaky.url), onNotice: (n) => notices.push(n) });
    const known = 'where are the settings loaded from the file?';
    assert.equal((await retriever.retrieve(known, { signal: signal() })).method, 'vectors');
    await flaky.close();

    const down = await retriever.retrieve('parse a duration string', { signal: signal() });
    assert.equal(down.method, 'keywords');
    assert.equal(down.items[0]?.name, 'parseDuration');
    assert.match(down.notice ?? '', /keywords for now: embedding with "nomic-embed-text" failed \(.+\)/);
    assert.match(down.notice!, /connect|refused|reach|ECONNREFUSED/i);
    const stillDown = await retriever.retrieve('read a json file', { signal: signal() });
    assert.equal(stillDown.method, 'keywords');
    assert.equal(stillDown.notice, undefined, 'not repeated while nothing changed');
    assert.equal(retriever.method, 'vectors', 'a failing server is not "no embedding model"');

    // The earlier request's vector is cached: vectors work again without the server, and a later failure is announced anew.
    assert.equal((await retriever.retrieve(known, { signal: signal() })).method, 'vectors');
    const again = await retriever.retrieve('another new question', { signal: signal() });
    assert.equal(again.method, 'keywords');
    assert.ok(again.notice);
    assert.equal(notices.length, 2);
  });

  it('an abort propagates instead of falling back', async () => {
    const store = new MemoryKnowledgeStore();
    indexGraph(store);
    const retriever = new KnowledgeIndexRetriever({ store, embedder: embedderFor(server.url) });
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(retriever.retrieve('settings', { signal: controller.signal }), (err: Error) => err.name === 'AbortError');
  });
});
