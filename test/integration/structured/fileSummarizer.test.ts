// ModelFileSummarizer end to end over real HTTP against both fake servers, answered by the weak indexing model
// (test/helpers/weakModels/indexingModel.ts) in each of its clumsy ways, on a small real TypeScript file cut into
// an inline chunk list.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChunkDraft, FileSummary } from '../../../src/core/knowledge/types';
import { ModelFileSummarizer, FILE_SUMMARY_FORMAT_NAME } from '../../../src/indexing/fileSummarizer';
import { FILE_SUMMARY_REPLY } from '../../../src/indexing/fileSummarySchema';
import { responseJsonSchema } from '../../../src/core/structured/responseSchema';
import { StructuredOutputError } from '../../../src/core/structured/structuredOutputError';
import { SUMMARY_SYSTEM_PROMPT } from '../../../src/indexing/fileSummaryPrompt';
import { outlineText } from '../../../src/core/knowledge/chunker';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { indexingModel, readIndexingPrompt, type IndexingBehaviour } from '../../helpers/weakModels';
import { signal, wires } from './wires';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const SOURCE = `import { readFileSync } from 'node:fs';

export interface Config {
  name: string;
  retries: number;
}

export function parseConfig(text: string): Config {
  const raw = JSON.parse(text) as Partial<Config>;
  return { name: raw.name ?? 'default', retries: clampRetries(raw.retries) };
}

export function clampRetries(value: number | undefined): number {
  return Math.min(5, Math.max(0, value ?? 1));
}

export function loadConfig(path: string): Config {
  return parseConfig(readFileSync(path, 'utf8'));
}

export class ConfigError extends Error {
  constructor(readonly path: string) {
    super(\`bad config: \${path}\`);
  }
}`;

const LINES = SOURCE.split('\n');

/** 1-based line of the first line containing `needle`. */
function lineOf(needle: string, source = LINES): number {
  const at = source.findIndex((l) => l.includes(needle));
  assert.ok(at >= 0, `${needle} is in the source`);
  return at + 1;
}

function span(kind: ChunkDraft['kind'], startLine: number, endLine: number, name?: string, source = LINES): ChunkDraft {
  return { kind, startLine, endLine, text: source.slice(startLine - 1, endLine).join('\n'), ...(name && { name }) };
}

/** The trivial chunk list: one chunk per top-level declaration, cut by hand. */
const CHUNKS: ChunkDraft[] = [
  span('block', 1, 1),
  span('interface', 3, 6, 'Config'),
  span('function', 8, 11, 'parseConfig'),
  span('function', 13, 15, 'clampRetries'),
  span('function', 17, 19, 'loadConfig'),
  span('class', 21, 25, 'ConfigError'),
];
const INPUT = { path: 'src/config.ts', language: 'typescript', chunks: CHUNKS, outline: outlineText(SOURCE, 'src/config.ts') };

function checkGoodSummary(summary: FileSummary): void {
  assert.match(summary.summary, /parseConfig/);
  assert.deepEqual(summary.chunks.map((c) => c.index), [0, 1, 2, 3, 4, 5]);
  assert.match(summary.chunks[2]!.summary, /function parseConfig/);
  assert.match(summary.chunks[5]!.summary, /class ConfigError/);
  for (const e of summary.entities) assert.ok(LINES[e.line - 1]!.includes(e.name), `${e.name} is declared on line ${e.line}`);
  const entity = (name: string) => summary.entities.find((e) => e.name === name);
  assert.deepEqual(entity('parseConfig'), { name: 'parseConfig', kind: 'function', line: lineOf('function parseConfig') });
  assert.deepEqual(entity('Config'), { name: 'Config', kind: 'interface', line: lineOf('interface Config') });
  assert.deepEqual(entity('ConfigError'), { name: 'ConfigError', kind: 'class', line: lineOf('class ConfigError') });
  const has = (r: FileSummary['relations'][number]) => assert.ok(summary.relations.some((x) => JSON.stringify(x) === JSON.stringify(r)), `relation ${JSON.stringify(r)} in ${JSON.stringify(summary.relations)}`);
  has({ from: 'parseConfig', kind: 'calls', to: 'clampRetries', line: lineOf('clampRetries(raw.retries)') });
  has({ from: 'loadConfig', kind: 'calls', to: 'parseConfig', line: lineOf('return parseConfig(') });
  has({ from: 'ConfigError', kind: 'extends', to: 'Error', line: lineOf('class ConfigError') });
  has({ from: 'config.ts', kind: 'imports', to: 'node:fs', line: 1 });
}

for (const wire of wires(servers)) {
  describe(`ModelFileSummarizer over ${wire.name}`, () => {
    async function run(behaviour: IndexingBehaviour, options: Parameters<typeof indexingModel>[1] = {}) {
      const model = indexingModel(behaviour, options);
      const { server, provider } = await wire.start((request) => model(request), `indexing ${behaviour}`);
      const summarizer = new ModelFileSummarizer({ provider, model: 'qwen3:8b' });
      return { server, summarizer };
    }

    let reference: FileSummary | undefined;

    test('good: the prompt lists every chunk; the request asks for the schema; the summary maps back to the chunks', async () => {
      const { server, summarizer } = await run('good');
      const summary = await summarizer.summarize(INPUT, signal());
      checkGoodSummary(summary);
      reference = summary;
      assert.equal(server.requests.length, 1);
      const body = server.requests[0]!;
      const expected = wire.expectedFormat(FILE_SUMMARY_FORMAT_NAME, responseJsonSchema(FILE_SUMMARY_REPLY));
      assert.deepEqual(body[expected.key], expected.value);
      const temperature = wire.name === 'ollama' ? (body.options as Record<string, unknown>).temperature : body.temperature;
      assert.equal(temperature, 0.1);
      const prompt = readIndexingPrompt(body);
      assert.deepEqual(prompt?.chunks.map((c) => [c.number, c.startLine, c.endLine, c.clipped]), CHUNKS.map((c, i) => [i + 1, c.startLine, c.endLine, false]));
      assert.equal(prompt?.chunks.flatMap((c) => c.lines).length, CHUNKS.reduce((n, c) => n + c.endLine - c.startLine + 1, 0));
    });

    for (const behaviour of ['fenced', 'clumsy'] as const) {
      test(`${behaviour}: the same summary as a good reply, in one attempt`, async () => {
        const { server, summarizer } = await run(behaviour);
        const summary = await summarizer.summarize(INPUT, signal());
        assert.ok(reference, 'the good case ran first');
        assert.deepEqual(summary, reference);
        assert.equal(server.requests.length, 1);
      });
    }

    for (const firstBroken of ['missing-summary', 'invalid-json'] as const) {
      test(`broken-then-good (${firstBroken}): the retry names the problem and the second reply is used`, async () => {
        const { server, summarizer } = await run('broken-then-good', { firstBroken });
        const summary = await summarizer.summarize(INPUT, signal());
        assert.deepEqual(summary, reference);
        assert.equal(server.requests.length, 2);
        const retry = (server.requests[1]!.messages ?? []) as Array<{ role: string; content: string }>;
        assert.deepEqual(retry.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
        const feedback = retry[3]!.content;
        if (firstBroken === 'missing-summary') assert.match(feedback, /^- summary: /m);
        else assert.match(feedback, /JSON in the reply is invalid/);
      });
    }

    test('always-broken: StructuredOutputError after the retry, naming the missing summary', async () => {
      const { server, summarizer } = await run('always-broken');
      const err = await summarizer.summarize(INPUT, signal()).catch((e: unknown) => e);
      assert.ok(err instanceof StructuredOutputError, String(err));
      assert.equal(err.attempts, 2);
      assert.deepEqual(err.issues.map((i) => i.split(':')[0]), ['summary']);
      assert.match(err.lastRaw, /"entities"/);
      assert.equal(server.requests.length, 2);
    });

    test('a small prompt budget clips the long chunk; it is still summarized, its hidden part unknown to the model', async () => {
      const methods = Array.from({ length: 40 }, (_, i) => [`  method${i}(): number {`, `    return ${i};`, '  }'].join('\n')).join('\n');
      const bigSource = `${SOURCE}\n\nexport class Registry {\n${methods}\n}\n\nexport function lastOne(): number {\n  return 1;\n}`.split('\n');
      const registryStart = lineOf('class Registry', bigSource);
      const lastStart = lineOf('function lastOne', bigSource);
      const chunks = [...CHUNKS.map((c) => span(c.kind, c.startLine, c.endLine, c.name, bigSource)), span('class', registryStart, lastStart - 2, 'Registry', bigSource), span('function', lastStart, lastStart + 2, 'lastOne', bigSource)];
      const maxPromptChars = SUMMARY_SYSTEM_PROMPT.length + 1800;
      const model = indexingModel('good');
      const { server, provider } = await wire.start((request) => model(request), 'indexing clipped');
      const summary = await new ModelFileSummarizer({ provider, model: 'qwen3:8b', maxPromptChars }).summarize({ ...INPUT, chunks, outline: outlineText(bigSource.join('\n'), INPUT.path) }, signal());

      const sent = (server.requests[0]!.messages as Array<{ content: string }>).reduce((n, m) => n + m.content.length, 0);
      assert.ok(sent <= maxPromptChars, `prompt ${sent} chars, budget ${maxPromptChars}`);
      const prompt = readIndexingPrompt(server.requests[0]!)!;
      assert.deepEqual(prompt.chunks.map((c) => c.clipped), [false, false, false, false, false, false, true, false]);
      assert.deepEqual(summary.chunks.map((c) => c.index), [0, 1, 2, 3, 4, 5, 6, 7], 'every chunk has a summary');
      const names = new Set(summary.entities.map((e) => e.name));
      assert.ok(names.has('Registry') && names.has('method0') && names.has('lastOne'), [...names].join(', '));
      assert.ok(!names.has('method39'), 'a method in the clipped part was never seen');
    });
  });
}
