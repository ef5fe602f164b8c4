// A weak model trusts what it is sent: if a compressed listing shows four names and "…", it believes the other
// files are gone. These runs compress a real session (the note task) and read the prompt back the way such a
// model would, by regex: all twelve notes must still be there, whichever step did the compressing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { clip, COMPRESSED_MARKER } from '../../../src/core/compression/marker';
import { describeMeta, toolResultMeta } from '../../../src/core/compression/metadata';
import type { ChatMessage } from '../../../src/core/messages';
import { CompressingModel, GarbageModel } from '../../helpers/compression/compressionModels';
import { assertValidOrder } from './assertions';
import { namesSeen, noteTaskSession } from './recordedSession';
import { SESSION_TOOLS } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;
const system: ChatMessage = { role: 'system', content: 'You are a coding agent working in the user\'s workspace.' };

test('the check can fail: the old "metadata + first 200 characters" fallback showed only a few names', async () => {
  const { session, listing } = await noteTaskSession(0);
  try {
    const old = `${COMPRESSED_MARKER} ${describeMeta(toolResultMeta(session.history, listing))}\n${clip(session.history[listing]!.content, 200)}`;
    assert.ok(namesSeen([{ role: 'tool', content: old }]).size < 12, old);
    assert.equal(namesSeen([session.history[listing]!]).size, 12);
  } finally {
    await session.dispose();
  }
});

test('the deterministic fallback: a compressed 12-note listing still names all 12 notes', async () => {
  const { session, listing } = await noteTaskSession(16, 3000);
  try {
    const reports: CompressionReport[] = [];
    const manager = createContextManager({
      provider: new GarbageModel(),
      model: 'test-model',
      window: 16384,
      tools: () => SESSION_TOOLS,
      settings: { llmCompression: false },
      onCompression: (r) => reports.push(r),
    });
    const out = await manager.prepareMessages([system, ...session.history], signal);
    assert.equal(reports[0]?.method, 'fallback', JSON.stringify(reports[0]?.steps));
    const compressed = reports[0]!.compressed.find((c) => c.index === listing);
    assert.ok(compressed, 'the listing was compressed');
    assert.ok(out.includes(compressed.compressed), 'and sent compressed');
    assert.ok(compressed.compressed.content.length < session.history[listing]!.content.length);
    assert.equal(namesSeen([compressed.compressed]).size, 12, compressed.compressed.content);
    assert.equal(namesSeen(out).size, 12, 'a model reading the whole prompt finds every note');
    assertValidOrder(out);
  } finally {
    await session.dispose();
  }
});

test('the LLM pass: a weak note ("Read earlier; already handled.") is added to the names, it does not erase them', async () => {
  const { session, listing } = await noteTaskSession(16, 3000);
  try {
    const reports: CompressionReport[] = [];
    const manager = createContextManager({
      provider: new CompressingModel({ note: 'Read earlier; already handled.' }),
      model: 'test-model',
      window: 16384,
      tools: () => SESSION_TOOLS,
      onCompression: (r) => reports.push(r),
    });
    const out = await manager.prepareMessages([system, ...session.history], signal);
    const compressed = reports[0]!.compressed.find((c) => c.index === listing);
    assert.ok(compressed, JSON.stringify(reports[0]!.steps));
    assert.equal(compressed.method, 'llm');
    assert.match(compressed.compressed.content, /\nNote: Read earlier; already handled\.\n/);
    assert.equal(namesSeen([compressed.compressed]).size, 12, compressed.compressed.content);
    assert.equal(namesSeen(out).size, 12);
  } finally {
    await session.dispose();
  }
});

test('eviction: the listing leaves the prompt, its twelve names stay in the session summary', async () => {
  const { session, listing } = await noteTaskSession(12, 1500);
  try {
    const reports: CompressionReport[] = [];
    const manager = createContextManager({
      provider: new GarbageModel(),
      model: 'test-model',
      window: 6144,
      tools: () => SESSION_TOOLS,
      compressionModel: null,
      settings: { minAnswerTokens: 500 },
      onCompression: (r) => reports.push(r),
    });
    const out = await manager.prepareMessages([system, ...session.history], signal);
    const report = reports[0]!;
    assert.equal(report.method, 'eviction', JSON.stringify(report.steps));
    assert.ok(report.evicted.includes(listing), 'the listing was evicted');
    assert.ok(!out.includes(session.history[listing]!));
    // The summary opens the first message after the (unchanged) system prompt.
    assert.equal(out[0], system);
    assert.match(out[1]!.content, /^# Session summary\n[^]*- Tool list_directory \.: Workspace root: 1 directory, 12 files: src\/, note-01\.txt, /);
    assert.equal(namesSeen(out).size, 12, out[1]!.content);
    assertValidOrder(out);
  } finally {
    await session.dispose();
  }
});
