// What is kept of a setup check and how a session uses it: the report per server and model (a damaged one is
// no report), the window memory the working window reads, and the protocol a session starts in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRememberedWindow, rememberedWindowKey } from '../../../src/core/window/workingWindow';
import { checkedToolProtocol, keepSetupCheck, loadSetupReport, setupReportKey } from '../../../src/core/setupCheck/memory';
import { sampleReport } from './sampleReport';
import { MemoryKv } from '../../helpers/memoryKv';

const provider = { id: 'ollama' as const, baseUrl: 'http://127.0.0.1:11434' };

test('kept in every store: the report under its server and model, the window where the working window reads it', async () => {
  const a = new MemoryKv();
  const b = new MemoryKv();
  const report = sampleReport();
  await keepSetupCheck([a, b], provider as never, { report, remember: { tokens: 4096, base: 16384 } });
  for (const kv of [a, b]) {
    assert.deepEqual(await loadSetupReport(kv, 'ollama', provider.baseUrl, 'qwen3:8b'), report);
    assert.equal(kv.get(rememberedWindowKey(provider as never, 'qwen3:8b')), JSON.stringify({ tokens: 4096, base: 16384 }));
    assert.deepEqual(await readRememberedWindow(kv, provider as never, 'qwen3:8b'), { tokens: 4096, base: 16384 });
  }
  assert.equal(await loadSetupReport(a, 'ollama', provider.baseUrl, 'other:1b'), undefined, 'another model has no report');
  await keepSetupCheck([a], provider as never, { report, remember: 'forget' });
  assert.equal(await readRememberedWindow(a, provider as never, 'qwen3:8b'), undefined, 'forgotten');
});

test('a damaged or foreign entry is no report', async () => {
  const kv = new MemoryKv();
  const key = setupReportKey('ollama', provider.baseUrl, 'qwen3:8b');
  kv.set(key, '{not json');
  assert.equal(await loadSetupReport(kv, 'ollama', provider.baseUrl, 'qwen3:8b'), undefined);
  kv.set(key, JSON.stringify({ ...sampleReport(), version: 2 }));
  assert.equal(await loadSetupReport(kv, 'ollama', provider.baseUrl, 'qwen3:8b'), undefined);
  kv.set(key, JSON.stringify({ ...sampleReport(), tools: { verdict: 'ok', summary: 's', details: [], setting: 'auto', protocol: 'smoke-signals' } }));
  assert.equal(await loadSetupReport(kv, 'ollama', provider.baseUrl, 'qwen3:8b'), undefined);
});

test('a model the check found not calling tools natively starts with text-based calls, and the notice says why', async () => {
  // With `auto` only: an explicit setting never asks (test/unit/resilience/turnHooks.test.ts).
  const kv = new MemoryKv();
  const checked = checkedToolProtocol(kv);
  assert.equal(await checked(provider, 'qwen3:8b'), undefined, 'no report, no say');
  const report = sampleReport();
  await keepSetupCheck([kv], provider as never, { report });
  assert.equal(await checked(provider, 'qwen3:8b'), undefined, 'native stays auto');
  report.tools.protocol = 'xml';
  await keepSetupCheck([kv], provider as never, { report });
  const xml = await checked(provider, 'qwen3:8b');
  assert.equal(xml?.protocol, 'xml');
  assert.match(xml!.notice, /^The setup check \(2025-05-06\) found that qwen3:8b does not call tools natively; using text-based tool calls/);
  assert.equal(await checked({ ...provider, baseUrl: 'http://other:11434' }, 'qwen3:8b'), undefined, 'per server');
  assert.equal(await checked(provider, 'llama3:8b'), undefined, 'per model');
});
