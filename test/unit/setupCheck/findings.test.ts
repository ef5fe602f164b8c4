// The setup check's pure parts: the window verdict and its fix, closest model names, the prompt-cache and speed
// findings from recorded requests, the overall line and the text rendering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { windowFinding } from '../../../src/core/setupCheck/windowCheck';
import { closestNames } from '../../../src/core/setupCheck/serverCheck';
import { cacheFinding, cachePrefix, speedFinding, speedNumbers } from '../../../src/core/setupCheck/speedProbe';
import type { CallRecord } from '../../../src/core/setupCheck/observedCall';
import { renderSetupReport } from '../../../src/core/setupCheck/renderText';
import { sampleReport } from './sampleReport';

test('window: Ollama running less than num_ctx is limited, budgeted and remembered, with the Ollama fix', () => {
  const f = windowFinding({ providerId: 'ollama', label: 'Ollama', model: 'q', modelMax: 32768, configured: 16384, base: { tokens: 16384, source: 'num_ctx' }, running: 4096 });
  assert.equal(f.verdict, 'limited');
  assert.equal(f.budget, 4096);
  assert.deepEqual(f.remember, { tokens: 4096, base: 16384 });
  assert.match(f.summary, /runs q with 4,096 tokens of context, not the 16,384 Local Harness asks for \(num_ctx, from the context size setting\)/);
  assert.match(f.fix!, /OLLAMA_CONTEXT_LENGTH=16384/);
  assert.match(f.fix!, /PARAMETER num_ctx 16384/);
});

test('window: an OpenAI-compatible server loaded below the setting and the model is named with the reload fix', () => {
  const f = windowFinding({ providerId: 'openai', label: 'LM Studio', model: 'q', modelMax: 32768, configured: 16384, base: { tokens: 4096, source: 'loaded' }, running: 4096 });
  assert.equal(f.verdict, 'limited');
  assert.equal(f.budget, 4096);
  assert.equal(f.remember, undefined, 'sessions read the loaded context themselves');
  assert.match(f.summary, /not the 16,384 the context size setting says/);
  assert.match(f.fix!, /"Context Length" when loading/);
  // No setting: loaded below the model's maximum is said with the fix, without making it a limit.
  const tip = windowFinding({ providerId: 'openai', label: 'LM Studio', model: 'q', modelMax: 32768, base: { tokens: 16384, source: 'loaded' }, running: 16384 });
  assert.equal(tip.verdict, 'ok');
  assert.match(tip.fix!, /reload the model with a larger context length/);
});

test('window: a server running what was asked forgets an older, smaller memory; an unknown one uses it', () => {
  const ok = windowFinding({ providerId: 'ollama', label: 'Ollama', model: 'q', base: { tokens: 8192, source: 'num_ctx' }, running: 8192, remembered: { tokens: 4096, base: 8192 } });
  assert.equal(ok.verdict, 'ok');
  assert.equal(ok.remember, 'forget');
  const recalled = windowFinding({ providerId: 'ollama', label: 'Ollama', model: 'q', base: { tokens: 8192, source: 'num_ctx' }, remembered: { tokens: 4096, base: 8192 } });
  assert.equal(recalled.verdict, 'limited');
  assert.equal(recalled.budget, 4096);
  // A memory made for another setting does not apply.
  const other = windowFinding({ providerId: 'ollama', label: 'Ollama', model: 'q', base: { tokens: 16384, source: 'num_ctx' }, remembered: { tokens: 4096, base: 8192 } });
  assert.equal(other.budget, 16384);
});

test('window: too small to work is failed, small is limited; a guessed window says how to set it', () => {
  const tiny = windowFinding({ providerId: 'ollama', label: 'Ollama', model: 'q', base: { tokens: 1024, source: 'num_ctx' }, running: 1024 });
  assert.equal(tiny.verdict, 'failed');
  assert.match(tiny.reason!, /too small/);
  assert.match(tiny.fix!, /set the context size .* to 8192/);
  const small = windowFinding({ providerId: 'openai', label: 'llama.cpp server', model: 'q', base: { tokens: 3072, source: 'loaded' }, running: 3072 });
  assert.equal(small.verdict, 'limited');
  assert.match(small.fix!, /--ctx-size/);
  const guessed = windowFinding({ providerId: 'openai', label: 'the OpenAI-compatible server', model: 'q', base: { tokens: 4096, source: 'default', note: 'Set localharness.contextSize.' } });
  assert.match(guessed.summary, /does not say what window/);
  assert.equal(guessed.fix, 'Set localharness.contextSize.');
});

test('closest names: same family first, nothing far off', () => {
  assert.deepEqual(closestNames('qwen3:4b', ['llama3.1:8b', 'qwen3:8b', 'qwen2.5-coder:7b', 'nomic-embed-text']), ['qwen3:8b', 'qwen2.5-coder:7b']);
  assert.deepEqual(closestNames('mistral', ['qwen3:8b', 'nomic-embed-text']), []);
});

const record = (r: Partial<CallRecord> & { prompt?: number; cached?: number; estimated?: boolean; completion?: number; promptMs?: number; generationMs?: number }): CallRecord => ({
  totalMs: r.totalMs ?? 100,
  nativeCalls: 0,
  ...(r.firstByteMs !== undefined && { firstByteMs: r.firstByteMs }),
  usage: {
    promptTokens: r.prompt ?? 1000,
    completionTokens: r.completion ?? 40,
    ...(r.cached !== undefined && { cachedTokens: r.cached }),
    ...(r.estimated && { cachedEstimated: true }),
    ...((r.promptMs !== undefined || r.generationMs !== undefined) && { timings: { ...(r.promptMs !== undefined && { promptMs: r.promptMs }), ...(r.generationMs !== undefined && { generationMs: r.generationMs }) } }),
  },
});

test('cache: reported counts decide; an estimate never does; timing is the fallback and says so', () => {
  const works = cacheFinding({ first: record({ cached: 10 }), second: record({ cached: 950 }) }, 'ollama');
  assert.deepEqual([works.state, works.evidence, works.verdict], ['works', 'reported', 'ok']);
  const none = cacheFinding({ first: record({ cached: 0 }), second: record({ cached: 0 }) }, 'vllm');
  assert.deepEqual([none.state, none.evidence, none.verdict], ['none', 'reported', 'limited']);
  assert.match(none.fix!, /--enable-prefix-caching/);
  // An estimate (the provider's own guess) is not evidence: the server's durations decide.
  const timed = cacheFinding({ first: record({ cached: 0, estimated: true, promptMs: 800 }), second: record({ cached: 900, estimated: true, promptMs: 60 }) }, 'lmstudio');
  assert.deepEqual([timed.state, timed.evidence], ['works', 'timing']);
  const slowBoth = cacheFinding({ first: record({ estimated: true, cached: 0, firstByteMs: 900 }), second: record({ estimated: true, cached: 900, firstByteMs: 880 }) }, 'lmstudio');
  assert.deepEqual([slowBoth.state, slowBoth.evidence], ['none', 'timing']);
  const tooQuick = cacheFinding({ first: record({ estimated: true, cached: 0, firstByteMs: 3 }), second: record({ estimated: true, cached: 900, firstByteMs: 2 }) }, undefined);
  assert.deepEqual([tooQuick.state, tooQuick.evidence, tooQuick.verdict], ['unknown', 'none', 'info']);
});

test('speed: server durations first, the clock otherwise, nothing from replies too quick to time', () => {
  assert.deepEqual(speedNumbers(record({ prompt: 1000, completion: 50, promptMs: 500, generationMs: 2000 })), { promptTokensPerSecond: 2000, generatedTokensPerSecond: 25, measured: 'server' });
  assert.deepEqual(speedNumbers(record({ prompt: 1000, completion: 50, firstByteMs: 1000, totalMs: 6000 })), { promptTokensPerSecond: 1000, generatedTokensPerSecond: 10, measured: 'clock' });
  assert.deepEqual(speedNumbers(record({ firstByteMs: 2, totalMs: 3 })), { measured: 'none' });
  const slow = speedFinding({ alreadyLoaded: false, firstRecord: record({ firstByteMs: 90_000 }), first: record({ completion: 20, promptMs: 500, generationMs: 10_000 }) });
  assert.equal(slow.verdict, 'limited');
  assert.equal(slow.coldLoadMs, 90_000);
  assert.match(slow.summary, /^Cold load 90 s; reads about 2,000 prompt tokens\/s; writes about 2 tokens\/s\.$/);
  assert.match(slow.details.join(' '), /keep the model loaded/);
});

test('the cache prefix is long enough to time and the same every time', () => {
  const prefix = cachePrefix(1000);
  assert.ok(prefix.length >= 4000 && prefix.length < 4200, String(prefix.length));
  assert.equal(prefix, cachePrefix(1000));
});

test('text: a block per finding with its verdict and fix, the overall line last', () => {
  const text = renderSetupReport(sampleReport());
  assert.match(text, /^Setup check of qwen3:8b at http:\/\/127\.0\.0\.1:11434/);
  assert.match(text, /\[limited\] Context window +Ollama runs qwen3:8b with 4,096/);
  assert.match(text, /Fix: make Ollama run/);
  assert.match(text.trimEnd().split('\n').at(-1)!, /^Usable with limits: /);
});

test('text: a server that does not answer is one line', () => {
  const report = sampleReport();
  report.server = { ...report.server, reachable: false, verdict: 'failed', summary: 'Cannot reach Ollama.' };
  report.overall = { verdict: 'unusable', summary: 'Not usable: Cannot reach Ollama.\nStart it.', reasons: [] };
  assert.equal(renderSetupReport(report), 'Not usable: Cannot reach Ollama. Start it.\n');
});
