// Compression by index summaries: an old read_file result of an indexed file becomes the file's summary, its
// chunk outline and a pointer to read the exact lines again, before any LLM pass. Real files in a temp folder,
// summaries given only while the file is unchanged (MemorySummaries).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { COMPRESSED_MARKER, INDEX_SUMMARY_LABEL, markCompressed } from '../../../src/core/compression/marker';
import { RunningSummary } from '../../../src/core/compression/summary';
import { digestLine, resultSucceeded } from '../../../src/core/compression/toolResultDigest';
import type { ChatMessage } from '../../../src/core/messages';
import type { IndexSummaryPort } from '../../../src/core/knowledge/types';
import { CompressingModel } from '../../helpers/compression/compressionModels';
import { assertValidOrder } from './assertions';
import { SESSION_TOOLS, systemMessage } from '../../helpers/compression/sessionFixture';
import { chunksOf, fileSummaryOf, indexedWorkspace, moduleName, moduleText, readResult, readingSession } from './indexFixture';

const signal = new AbortController().signal;
/** Six ~1,500-token reads are over 70 % of it; the target (40 %) needs most of them shortened. */
const WINDOW = 12288;
const POINTER = 'read_file again with a line range for the exact text';

async function compressOnce(history: ChatMessage[], summaries: IndexSummaryPort | undefined, options: { window?: number; model?: CompressingModel } = {}) {
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: options.model ?? new CompressingModel(),
    model: 'test-model',
    window: options.window ?? WINDOW,
    tools: () => SESSION_TOOLS,
    ...(summaries && { summaries }),
    ...(!options.model && { compressionModel: null }),
    onCompression: (r) => reports.push(r),
  });
  const out = await manager.prepareMessages([systemMessage(), ...history], signal);
  assert.equal(reports.length, 1, 'one compression ran');
  return { out, report: reports[0]! };
}

const copyOf = (report: CompressionReport, index: number) => report.compressed.find((c) => c.index === index);
/** History index of module n's read result in readingSession (user, then assistant + tool per module). */
const resultIndex = (order: number) => 2 + order * 2;

test('indexed files: old reads become summary, outline and pointer before any model call; the latest read stays whole', async () => {
  const modules = [1, 2, 3, 4, 5, 6];
  const { summaries } = await indexedWorkspace(6, modules);
  const model = new CompressingModel();
  const history = readingSession(modules);
  const { out, report } = await compressOnce(history, summaries, { model });

  assert.equal(model.requests.length, 0, 'the summaries met the target: no LLM pass');
  assert.equal(report.method, 'index');
  assert.deepEqual(report.steps.map((s) => s.method), ['index']);
  assert.ok(report.targetMet, `${report.tokensBefore} → ${report.tokensAfter} (target ${report.targetTokens})`);
  assert.ok(report.indexSummaries, 'the report says what the summaries saved');
  assert.equal(report.indexSummaries.messages, report.compressed.length);
  const step = report.steps[0]!;
  // The saving is what the step took off the request (calibrated tokens of the messages it replaced).
  assert.ok(Math.abs(report.indexSummaries.tokensSaved - (step.tokensBefore - step.tokensAfter)) <= report.indexSummaries.messages * 2, JSON.stringify(report.indexSummaries));
  assert.ok(report.indexSummaries.tokensSaved > 1000 * report.indexSummaries.messages, `each ~1,500-token read saved most of itself: ${report.indexSummaries.tokensSaved}`);
  assertValidOrder(out);

  const latest = resultIndex(modules.length - 1);
  assert.equal(copyOf(report, latest), undefined, 'the latest round stays whole');
  assert.equal(out.at(-1)!.content, readResult(6));
  for (const c of report.compressed) {
    assert.equal(c.method, 'index');
    assert.equal(c.original.role, 'tool');
    const n = modules[(c.index - 2) / 2]!;
    const text = c.compressed.content;
    assert.ok(text.startsWith(`${COMPRESSED_MARKER} read_file ${moduleName(n)} lines all ${moduleText(n).split('\n').length - 1}`), text.split('\n')[0]);
    assert.ok(text.includes(fileSummaryOf(n)), text);
    for (const chunk of chunksOf(n)) assert.ok(text.includes(`lines ${chunk.startLine}-${chunk.endLine} ${chunk.name} — ${chunk.summary}`), `${chunk.name} in the outline`);
    assert.ok(text.includes(POINTER), text);
    assert.ok(text.includes(`{"path":"${moduleName(n)}","start_line":1,"end_line":9}`), 'the pointer shows how to ask for lines');
    assert.ok(!text.includes('Math.max(-1000'), 'the file body is gone');
    assert.equal(c.compressed.toolCallId, c.original.toolCallId);
    assert.equal(c.compressed.toolName, 'read_file');
  }
  assert.ok(report.compressed.length >= 3, `${report.compressed.length} reads replaced`);
});

test('only files indexed and unchanged on disk get summaries; the others go the usual way', async () => {
  const modules = [1, 2, 3, 4, 5, 6];
  const { root, summaries } = await indexedWorkspace(6, [1, 3, 4, 5, 6]);
  // Module 3 changed after it was indexed: its summary would describe another file.
  writeFileSync(path.join(root, moduleName(3)), moduleText(3).replace('Scales every value', 'Doubles every value'));
  const history = readingSession(modules);
  const { out, report } = await compressOnce(history, summaries, { window: 8192 });

  const byModule = new Map(report.compressed.map((c) => [modules[(c.index - 2) / 2]!, c]));
  assert.equal(byModule.get(1)?.method, 'index');
  assert.notEqual(byModule.get(2)?.method, 'index', 'module 2 was never indexed');
  assert.notEqual(byModule.get(3)?.method, 'index', 'module 3 changed since it was indexed');
  assert.ok(!byModule.get(2)?.compressed.content.includes(fileSummaryOf(2)));
  assert.equal(report.steps[0]!.method, 'index', 'the summaries ran first');
  assert.ok(report.steps.some((s) => s.method === 'fallback'), JSON.stringify(report.steps));
  assert.equal(report.method, 'fallback', 'the strongest step names the compression');
  assert.ok(report.indexSummaries && report.indexSummaries.tokensSaved > 0);
  assert.ok(report.targetMet);
  assertValidOrder(out);
  // Each module was looked up once, by the path the model called read_file with.
  assert.deepEqual([...new Set(summaries.lookups)].sort(), [1, 2, 3, 4, 5].map(moduleName).sort());
});

test('paths as the model wrote them (./, absolute) find the summary; a range read keeps only its chunks in the outline', async () => {
  const modules = [1, 2, 3, 4, 5, 6];
  const { root, summaries } = await indexedWorkspace(6, modules);
  const history = readingSession(modules, {
    pathOf: (n) => (n % 2 ? `./${moduleName(n)}` : path.join(root, moduleName(n))),
    ranges: { 2: { start: 10, end: 45 } },
  });
  const { report } = await compressOnce(history, summaries);
  const range = copyOf(report, resultIndex(1));
  assert.equal(range?.method, 'index');
  const text = range.compressed.content;
  assert.match(text.split('\n')[0]!, /lines 10-45 of 72/);
  assert.ok(text.includes('Outline (lines 10-45):'), text);
  // Lines 10-45 cover functions 1..4 (lines 10-18, 19-27, 28-36, 37-45): not 0, not 5+.
  for (const c of chunksOf(2)) {
    const shown = text.includes(`${c.name} —`);
    assert.equal(shown, c.startLine <= 45 && c.endLine >= 10, `${c.name} (${c.startLine}-${c.endLine})`);
  }
  assert.ok(text.includes(`"path":${JSON.stringify(path.join(root, moduleName(2)))}`), 'the pointer repeats the path as the model wrote it');
  assert.equal(copyOf(report, resultIndex(0))?.method, 'index', './src/feature1.ts found its summary');
});

test('a summary longer than the read is not used, a failed read is left to the fallback, and a failing index is skipped', async () => {
  const modules = [1, 2, 3, 4, 5, 6];
  const { summaries } = await indexedWorkspace(6, modules);
  const history = readingSession(modules);
  // Module 1 was read as a two-line range: shorter than any summary of the file.
  history[2] = { role: 'tool', content: readResult(1, { start: 1, end: 2 }), toolCallId: 'call_1', toolName: 'read_file' };
  // Module 2's read failed.
  history[4] = { role: 'tool', content: `Error: ${moduleName(2)} could not be read: EACCES.`, toolCallId: 'call_2', toolName: 'read_file' };
  const { report } = await compressOnce(history, summaries, { window: 8192 });
  assert.equal(copyOf(report, resultIndex(0)), undefined, 'the two-line read stays');
  assert.equal(copyOf(report, resultIndex(1)), undefined, 'the failed read stays');
  assert.ok(summaries.lookups.includes(moduleName(1)), 'module 1 has a summary: it was too long to use');
  assert.ok(!summaries.lookups.includes(moduleName(2)), 'a failed read is not looked up');
  assert.equal(copyOf(report, resultIndex(2))?.method, 'index');
  assert.equal(report.method, 'index');
  summaries.lookups.length = 0;

  summaries.failing = true;
  const broken = await compressOnce(readingSession(modules), summaries);
  assert.ok(summaries.lookups.length > 0, 'the index was asked');
  assert.equal(broken.report.indexSummaries, undefined, 'nothing was saved by summaries');
  assert.ok(!broken.report.steps.some((s) => s.method === 'index'));
  assert.equal(broken.report.method, 'fallback', 'compression went on without the index');
  assert.ok(broken.report.targetMet);
});

test('without summaries nothing changes: the fallback digests the reads', async () => {
  const { report } = await compressOnce(readingSession([1, 2, 3, 4, 5, 6]), undefined);
  assert.equal(report.indexSummaries, undefined);
  assert.ok(report.compressed.every((c) => c.method === 'fallback'));
});

test('a stored summary copy reads back like a digest: the session summary keeps the facts, not the pointer', async () => {
  const modules = [1, 2, 3, 4, 5, 6];
  const { summaries } = await indexedWorkspace(6, modules);
  const history = readingSession(modules);
  const { report } = await compressOnce(history, summaries);
  const c = copyOf(report, resultIndex(0))!;
  // A reloaded session has the compressed copy in place of the original.
  const reloaded = history.map((m, i) => (i === c.index ? c.compressed : m));
  const line = digestLine(reloaded, c.index);
  assert.ok(line.startsWith(`read_file ${moduleName(1)}: Index summary of ${moduleName(1)}: ${fileSummaryOf(1)}`), line);
  assert.ok(!line.includes(POINTER), line);
  assert.equal(resultSucceeded(reloaded, c.index), true);
});

test('a read replaced by its index summary and later evicted leaves that summary in the session summary, not just a first line', async () => {
  const history = readingSession([1]);
  const copy: ChatMessage = {
    ...history[2]!,
    content: markCompressed(`read_file ${moduleName(1)} lines all 72\n${INDEX_SUMMARY_LABEL}${moduleName(1)}: ${fileSummaryOf(1)}\nFull result: read_file again with a line range for the exact text.`),
  };
  const withCopy = new RunningSummary();
  withCopy.addUnit(history, { start: 1, end: 3 } as never, (i) => (i === 2 ? copy : history[i]!));
  assert.ok(withCopy.render(2000).includes(fileSummaryOf(1)), withCopy.render(2000));
  // An ordinary digest copy still yields the digest of the original (the facts a model acts on).
  const plain = new RunningSummary();
  plain.addUnit(history, { start: 1, end: 3 } as never, (i) => (i === 2 ? { ...copy, content: markCompressed('read_file: 72 lines') } : history[i]!));
  assert.ok(plain.render(2000).includes(digestLine(history, 2)), plain.render(2000));
  assert.ok(!plain.render(2000).includes(fileSummaryOf(1)));
});
