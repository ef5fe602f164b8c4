// The shared recorder (CLI and editor) on a real sql.js file: messages land the moment they exist, a
// compression stores linked copies plus summary and context state that a continued session gets back,
// unknown sessions are refused, and the editor's tolerant mode keeps a turn going when a write fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatMessage } from '../../../src/core/messages';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { PersistenceError } from '../../../src/persistence/errors';
import { cleanTitle, startRecording } from '../../../src/persistence/sessionRecorder';
import { SessionStore } from '../../../src/persistence/sessionStore';

const META = { title: 'Summarise the repo', model: 'm', provider: 'ollama' };

function report(compressed: CompressionReport['compressed']): CompressionReport {
  return {
    reason: 'manual',
    method: 'fallback',
    steps: [],
    tokensBefore: 900,
    tokensAfter: 300,
    targetTokens: 400,
    window: 1000,
    targetMet: true,
    messagesAffected: compressed.length,
    compressed,
    evicted: [],
    summary: { text: 'Read a.ts.', filesTouched: ['a.ts'] },
  };
}

test('compressed copies link to their stored originals; a continued session gets the copies and the context state', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-rec-'));
  const db = path.join(dir, 'sessions.db');
  const warnings: string[] = [];
  let store = await SessionStore.open(db);
  const rec = await startRecording(store, { meta: META, warn: (m) => warnings.push(m) });
  const user: ChatMessage = { role: 'user', content: 'Summarise the repo' };
  const result: ChatMessage = { role: 'tool', content: 'x'.repeat(2000), toolCallId: 'c1', toolName: 'read_file' };
  await rec.onMessage(user);
  await rec.onMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.ts' } }] });
  await rec.onMessage(result);
  const stored = await store.loadMessages(rec.id);
  assert.equal(stored.length, 3, 'every message is stored the moment it exists');
  assert.equal(rec.rowIdOf(result), stored[2]!.id);

  const copy: ChatMessage = { ...result, content: '[Compressed] read_file a.ts (2000 chars)' };
  rec.onCompression(report([{ index: 2, original: result, compressed: copy, method: 'fallback' }]), { evictedThrough: 0 });
  // Compressing the same message again replaces the newest version, not the original.
  const again: ChatMessage = { ...result, content: '[Compressed] a.ts' };
  rec.onCompression(report([{ index: 2, original: result, compressed: again, method: 'fallback' }]), { evictedThrough: 1, evictedCheck: ['f'] });
  await rec.settle();
  await store.close();

  store = await SessionStore.open(db);
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const originals = await store.loadOriginalMessages(rec.id);
  assert.equal(originals[2]!.content, 'x'.repeat(2000), 'the original stays whole');
  const continued = await startRecording(store, { sessionId: rec.id, meta: META, warn: (m) => warnings.push(m) });
  assert.equal(continued.history.length, 3);
  assert.equal(continued.history[2]!.content, '[Compressed] a.ts');
  assert.deepEqual(continued.contextState, { evictedThrough: 1, evictedCheck: ['f'] });
  assert.equal(continued.interrupted, false);
  assert.equal((await store.getSummary(rec.id))?.text, 'Read a.ts.');
  assert.deepEqual(warnings, []);
});

test('an unknown session id is refused with not-found; titles are one short line', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-rec-'));
  const store = await SessionStore.open(path.join(dir, 'sessions.db'));
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await assert.rejects(startRecording(store, { sessionId: 'nope', meta: META, warn: () => undefined }), (err: unknown) => {
    return err instanceof PersistenceError && err.code === 'not-found';
  });
  assert.equal(cleanTitle('\n  first line  \nsecond'), 'first line');
  assert.equal(cleanTitle('   '), 'Untitled session');
  assert.equal(cleanTitle('y'.repeat(200)).length, 80);
});

test('a failed message write stops the CLI turn but only warns in the editor (tolerant mode)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-rec-'));
  const store = await SessionStore.open(path.join(dir, 'sessions.db'));
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const strict = await startRecording(store, { meta: META, warn: () => undefined });
  const bad = { role: 'robot', content: 'hi' } as unknown as ChatMessage; // what a broken caller might pass
  await assert.rejects(strict.onMessage(bad), /Unknown message role/);

  const errors: unknown[] = [];
  const tolerant = await startRecording(store, { meta: META, warn: () => undefined, onWriteError: (e) => errors.push(e) });
  await tolerant.onMessage(bad);
  await tolerant.onMessage({ role: 'user', content: 'still saved' });
  assert.equal(errors.length, 1);
  assert.deepEqual((await store.loadMessages(tolerant.id)).map((m) => m.content), ['still saved']);
});
