// `localharness index` / `query` / `run --db` as a user runs them: the built CLI (dist/cli.js, `npm run build`
// first) against the fake servers (the weak indexing model for summaries, their hashed-bag-of-words
// embeddings), a real sql.js database file and real files.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { messagesOf } from '../../helpers/cli/wire';
import { embedRequests, startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { indexingModel, isIndexingRequest } from '../../helpers/weakModels';
import { makeWorkspace } from '../../helpers/knowledge/workspaceFixture';

const EMBED = 'nomic-embed-text';
const ANSWER = 'The settings are parsed by parseConfig in src/config.ts.';
const cleanup: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

/** Summaries for indexing requests; a plain answer for the agent's chat requests. */
function script(request: ChatBody): ScriptedReply {
  return isIndexingRequest(request) ? indexingModel('good')(request) : { text: ANSWER };
}

const WIRES = [
  {
    name: 'ollama',
    start: (options: { embeddingModels?: string[] } = {}) => startFakeOllamaServer(script, { name: 'cli index', ...options }),
    flags: (s: FakeServerHandle) => ['--provider', 'ollama', '--base-url', s.origin],
  },
  {
    name: 'openai',
    start: (options: { embeddingModels?: string[] } = {}) => startFakeOpenAIServer(script, { name: 'cli index', ...options }),
    flags: (s: FakeServerHandle) => ['--provider', 'openai', '--base-url', s.url],
  },
] as const;

async function fixture(wire: (typeof WIRES)[number], options: { embeddingModels?: string[] } = {}) {
  const ws = makeWorkspace('lh-cli-index-');
  const server = await wire.start(options);
  cleanup.push(async () => {
    await server.close();
    rmSync(ws, { recursive: true, force: true });
  });
  const db = path.join(ws, '.localharness', 'index.db');
  mkdirSync(path.dirname(db));
  return { ws, db, server, flags: [...wire.flags(server), '--workspace', ws, '--db', db] };
}

const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('localharness index / query', () => {
  for (const wire of WIRES) {
    it(`indexes files fully and query ranks the chunk that answers first (${wire.name})`, async () => {
      const f = await fixture(wire);
      const indexed = await runCli(['index', ...f.flags, '--model', 'test-model', '--embed-model', EMBED, 'src/config.ts', 'src/billing.ts', 'docs'], { cwd: f.ws });
      assert.equal(indexed.code, 0, indexed.stderr);
      const lines = indexed.stdout.trim().split('\n');
      assert.deepEqual(lines.map((l) => l.split(/\s+/).slice(0, 2).join(' ')), ['indexed src/config.ts', 'indexed src/billing.ts', 'indexed docs/guide.md']);
      assert.match(lines[0]!, /\(\d+ chunks, vectors, summary\)/);
      assert.match(indexed.stderr, /indexed 3, .*refused 0, failed 0/);
      assert.equal(f.server.requests.length, 3, 'one summary request per file');

      const query = await runCli(['query', ...wire.flags(f.server), '--workspace', f.ws, '--db', f.db, '--k', '3', '--json', 'where is the server config parsed from the JSON file?'], { cwd: f.ws });
      assert.equal(query.code, 0, query.stderr);
      const hits = jsonLines(query.stdout);
      assert.equal(hits.length, 3);
      assert.deepEqual(hits.map((h) => h.rank), [1, 2, 3]);
      const best = hits[0]!;
      assert.equal(best.file, 'src/config.ts');
      assert.equal(best.name, 'parseConfig');
      assert.equal(typeof best.startLine, 'number');
      assert.ok((best.endLine as number) >= (best.startLine as number));
      assert.match(String(best.summary), /parseConfig/);
      assert.ok(Array.isArray(best.neighbours));
      assert.ok((hits[0]!.score as number) >= (hits[1]!.score as number) && (hits[1]!.score as number) >= (hits[2]!.score as number), 'best first');
      assert.equal(query.stderr.includes('keywords'), false, query.stderr);

      const text = await runCli(['query', ...wire.flags(f.server), '--workspace', f.ws, '--db', f.db, 'compute the invoice total'], { cwd: f.ws });
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout.split('\n')[0]!, /^1\. src\/billing\.ts:\d+-\d+/);
    });
  }

  it('indexes nothing twice: a second run is "unchanged" without any request to the server', async () => {
    const f = await fixture(WIRES[0]);
    const args = ['index', ...f.flags, '--model', 'test-model', '--embed-model', EMBED, '--json', 'src'];
    const first = await runCli(args, { cwd: f.ws });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(jsonLines(first.stdout).map((r) => [r.file, r.outcome]), [
      ['src/billing.ts', 'indexed'],
      ['src/config.ts', 'indexed'],
      ['src/server.ts', 'indexed'],
    ]);
    const requests = f.server.log.length;
    const second = await runCli(args, { cwd: f.ws });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(jsonLines(second.stdout).map((r) => r.outcome), ['unchanged', 'unchanged', 'unchanged']);
    assert.equal(f.server.log.length, requests, 'no model call, no embedding, not even a model listing');

    writeFileSync(path.join(f.ws, 'src/billing.ts'), 'export const currency = "EUR";\n');
    const third = await runCli([...args.slice(0, -1), '--force', 'src/config.ts', 'src/billing.ts'], { cwd: f.ws });
    assert.deepEqual(jsonLines(third.stdout).map((r) => [r.file, r.outcome]), [
      ['src/config.ts', 'indexed'],
      ['src/billing.ts', 'indexed'],
    ]);
  });

  it('a folder honours .gitignore and skips the database; binary and huge files are refused with a reason', async () => {
    const f = await fixture(WIRES[0]);
    writeFileSync(path.join(f.ws, '.gitignore'), 'generated/\n');
    mkdirSync(path.join(f.ws, 'generated'));
    writeFileSync(path.join(f.ws, 'generated/out.ts'), 'export const generated = true;\n');
    const all = await runCli(['index', ...f.flags, '--mode', 'metadata', '--json', '.'], { cwd: f.ws });
    assert.equal(all.code, 0, `files found in a folder may be refused without failing the run\n${all.stderr}`);
    const results = new Map(jsonLines(all.stdout).map((r) => [r.file, r]));
    assert.deepEqual([...results.keys()].sort(), ['.gitignore', 'assets/bundle.js', 'assets/logo.png', 'docs/guide.md', 'src/billing.ts', 'src/config.ts', 'src/server.ts']);
    assert.equal(results.get('assets/logo.png')!.outcome, 'refused');
    assert.match(String(results.get('assets/logo.png')!.reason), /binary/);
    assert.equal(results.get('assets/bundle.js')!.outcome, 'refused');
    assert.match(String(results.get('assets/bundle.js')!.reason), /indexing limit/);
    assert.equal(results.get('src/config.ts')!.outcome, 'metadata');
    assert.equal(f.server.log.length, 0, 'metadata mode never calls the server');

    const named = await runCli(['index', ...f.flags, '--mode', 'metadata', 'assets/logo.png', '../outside.txt', 'src/server.ts'], { cwd: f.ws });
    assert.equal(named.code, 1, 'a named file that cannot be indexed is a failure');
    assert.match(named.stdout, /^refused\s+assets\/logo\.png — .*binary/m);
    assert.match(named.stdout, /^refused\s+\.\.\/outside\.txt — .*"\.\."/m);
    assert.match(named.stdout, /^unchanged\s+src\/server\.ts/m, 'the other files are still done');
  });

  it('index --remove takes files, or a folder\u2019s files, out of the index without calling the server; query no longer finds them', async () => {
    const f = await fixture(WIRES[0]);
    const all = await runCli(['index', ...f.flags, '--mode', 'metadata', 'src', 'docs'], { cwd: f.ws });
    assert.equal(all.code, 0, all.stderr);
    const before = f.server.log.length;
    const removed = await runCli(['index', ...f.flags, '--remove', '--json', 'src', 'docs/guide.md'], { cwd: f.ws });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(
      jsonLines(removed.stdout).map((r) => r.path).sort(),
      ['docs/guide.md', 'src/billing.ts', 'src/config.ts', 'src/server.ts'],
    );
    assert.ok(jsonLines(removed.stdout).every((r) => r.outcome === 'removed'));
    assert.equal(f.server.log.length, before, 'removing needs no server');
    const again = await runCli(['index', ...f.flags, '--remove', 'src/config.ts'], { cwd: f.ws });
    assert.equal(again.code, 1, 'a path that is not indexed is reported');
    assert.match(again.stderr, /src\/config\.ts is not in the index/);
    const query = await runCli(['query', '--workspace', f.ws, '--db', f.db, 'anything'], { cwd: f.ws });
    assert.match(query.stderr, /the index in .* is empty/);
    const bad = await runCli(['index', ...f.flags, '--remove', '--force', 'src'], { cwd: f.ws });
    assert.equal(bad.code, 2);
  });

  it('a server without an embedding model: files are indexed without vectors, query ranks by keywords and says so', async () => {
    const f = await fixture(WIRES[1], { embeddingModels: [] });
    const indexed = await runCli(['index', ...f.flags, '--model', 'test-model', '--embed-model', EMBED, 'src/billing.ts', 'src/config.ts'], { cwd: f.ws });
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.match(indexed.stdout, /^indexed\s+src\/billing\.ts .*no vectors: .*keywords/m);
    const query = await runCli(['query', ...WIRES[1].flags(f.server), '--workspace', f.ws, '--db', f.db, '--embed-model', EMBED, '--json', 'apply discount percent'], { cwd: f.ws });
    assert.equal(query.code, 0, query.stderr);
    assert.match(query.stderr, /keywords/i);
    assert.equal(jsonLines(query.stdout)[0]?.file, 'src/billing.ts');
  });

  it('explains a missing database or an empty index instead of answering "nothing found"', async () => {
    const f = await fixture(WIRES[0]);
    const missing = await runCli(['query', '--workspace', f.ws, '--db', path.join(f.ws, 'nope.db'), 'anything'], { cwd: f.ws });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope\.db does not exist; build an index first: localharness index --db/);
    const noDb = await runCli(['index', '--workspace', f.ws, 'src'], { cwd: f.ws, env: { LOCALHARNESS_DB: '' } });
    assert.equal(noDb.code, 2);
    assert.match(noDb.stderr, /index needs --db FILE/);
    const badMode = await runCli(['index', '--db', f.db, '--mode', 'everything', 'src'], { cwd: f.ws });
    assert.equal(badMode.code, 2);
    assert.match(badMode.stderr, /--mode must be full, embed or metadata/);

    // A session database without an index.
    const run = await runCli(['run', ...WIRES[0].flags(f.server), '--model', 'test-model', '--workspace', f.ws, '--db', f.db, 'hello'], { cwd: f.ws });
    assert.equal(run.code, 0, run.stderr);
    const empty = await runCli(['query', '--workspace', f.ws, '--db', f.db, 'anything'], { cwd: f.ws });
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /the index in .* is empty/);
  });

  it('two workspaces indexed into one --db: each query finds only its own files, even under the same path', async () => {
    const a = await fixture(WIRES[0]);
    // Workspace B has its own src/config.ts (same relative path, other code) and a file A does not have.
    const b = realpathSync(mkdtempSync(path.join(tmpdir(), 'lh-cli-index-b-')));
    cleanup.push(() => rmSync(b, { recursive: true, force: true }));
    mkdirSync(path.join(b, 'src'));
    writeFileSync(
      path.join(b, 'src/config.ts'),
      'export function loadShippingRates(json: string): Map<string, number> {\n  return new Map(Object.entries(JSON.parse(json)));\n}\n',
    );
    writeFileSync(path.join(b, 'src/labels.ts'), 'export function printShippingLabel(lines: string[]): string {\n  return lines.join(" / ");\n}\n');
    const serverFlags = WIRES[0].flags(a.server);
    const index = (ws: string) => runCli(['index', ...serverFlags, '--workspace', ws, '--db', a.db, '--mode', 'embed', '--embed-model', EMBED, '--json', 'src'], { cwd: ws });

    const indexedA = await index(a.ws);
    assert.equal(indexedA.code, 0, indexedA.stderr);
    const indexedB = await index(b);
    assert.equal(indexedB.code, 0, indexedB.stderr);
    assert.deepEqual(jsonLines(indexedB.stdout).map((r) => [r.file, r.outcome]), [
      ['src/config.ts', 'indexed'],
      ['src/labels.ts', 'indexed'],
    ]);
    // A's index was not overwritten by B's file of the same name.
    const againA = await index(a.ws);
    assert.deepEqual(jsonLines(againA.stdout).map((r) => [r.file, r.outcome]), [
      ['src/billing.ts', 'unchanged'],
      ['src/config.ts', 'unchanged'],
      ['src/server.ts', 'unchanged'],
    ]);

    const query = async (ws: string, text: string) => {
      const r = await runCli(['query', ...serverFlags, '--workspace', ws, '--db', a.db, '--k', '20', '--json', text], { cwd: ws });
      assert.equal(r.code, 0, r.stderr);
      return jsonLines(r.stdout);
    };
    const hitsA = await query(a.ws, 'parse the server config and shipping labels');
    assert.ok(hitsA.length > 0);
    assert.ok(hitsA.every((h) => ['src/billing.ts', 'src/config.ts', 'src/server.ts'].includes(String(h.file))), JSON.stringify(hitsA.map((h) => h.file)));
    assert.ok(hitsA.some((h) => h.name === 'parseConfig'));
    assert.ok(!hitsA.some((h) => h.name === 'loadShippingRates' || h.name === 'printShippingLabel'), "B's chunks are not A's");

    const hitsB = await query(b, 'parse the server config and shipping labels');
    assert.deepEqual(hitsB.map((h) => h.file).sort(), ['src/config.ts', 'src/labels.ts']);
    assert.deepEqual(hitsB.map((h) => h.name).sort(), ['loadShippingRates', 'printShippingLabel']);
  });
});

describe('localharness run with an indexed --db', () => {
  it('sends the retrieved chunks with the request (never in the system prompt) to the server', async () => {
    const f = await fixture(WIRES[0]);
    const indexed = await runCli(['index', ...f.flags, '--model', 'test-model', '--embed-model', EMBED, 'src', 'docs'], { cwd: f.ws });
    assert.equal(indexed.code, 0, indexed.stderr);
    const embedsBefore = embedRequests(f.server).length;
    const chatBefore = f.server.requests.length;

    const run = await runCli(['run', ...f.flags, '--model', 'test-model', '--json', 'Where are the server config settings parsed from the JSON file?'], { cwd: f.ws });
    assert.equal(run.code, 0, run.stderr);
    const turn = f.server.requests.slice(chatBefore).filter((r) => !isIndexingRequest(r));
    assert.ok(turn.length >= 1);
    const system = messagesOf(turn[0]!).find((m) => m.role === 'system')?.content ?? '';
    assert.doesNotMatch(system, /Retrieved from the workspace index/, 'the system prompt stays the same for the server’s cache');
    const request = messagesOf(turn[0]!).find((m) => m.role === 'user')?.content ?? '';
    assert.ok(request.startsWith('Where are the server config settings parsed from the JSON file?'), request.slice(0, 200));
    assert.match(request, /Retrieved from the workspace index/);
    assert.match(request, /src\/config\.ts:\d+-\d+/);
    assert.match(request, /export function parseConfig\(file: string\): ServerConfig/, 'the chunk text itself');
    // Chunk vectors came from the database's cache: the run embedded only its request.
    const runEmbeds = embedRequests(f.server).slice(embedsBefore);
    const inputs = runEmbeds.flatMap((r) => {
      const input = (r.body as { input?: unknown }).input;
      return Array.isArray(input) ? input : [input];
    });
    assert.deepEqual(inputs.length, 1, JSON.stringify(inputs).slice(0, 500));
    assert.match(String(inputs[0]), /server config settings/);
  });

  it('runs without retrieval when the database holds no index', async () => {
    const f = await fixture(WIRES[0]);
    const run = await runCli(['run', ...f.flags, '--model', 'test-model', 'Where is the config parsed?'], { cwd: f.ws });
    assert.equal(run.code, 0, run.stderr);
    const system = messagesOf(f.server.requests[0]!).find((m) => m.role === 'system')?.content ?? '';
    assert.doesNotMatch(system, /Retrieved from the workspace index/);
    assert.equal(embedRequests(f.server).length, 0);
  });
});
