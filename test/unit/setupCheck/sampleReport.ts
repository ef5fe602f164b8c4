// A setup report as the check writes it (Ollama running less than asked), for the renderers' tests.
import type { SetupReport } from '../../../src/core/setupCheck/report';

export function sampleReport(): SetupReport {
  return {
    version: 1,
    checkedAt: Date.UTC(2025, 4, 6, 10, 30),
    provider: 'ollama',
    baseUrl: 'http://127.0.0.1:11434',
    model: 'qwen3:8b',
    server: { verdict: 'ok', reachable: true, kind: 'ollama', version: '0.12.6', models: ['qwen3:8b'], modelListed: true, summary: 'Ollama 0.12.6 answers.', details: [] },
    window: {
      verdict: 'limited',
      modelMax: 32768,
      asked: 16384,
      running: 4096,
      budget: 4096,
      summary: 'Ollama runs qwen3:8b with 4,096 tokens of context, not the 16,384 Local Harness asks for (num_ctx).',
      details: ['The model supports up to 32,768 tokens.'],
      fix: 'Fix: make Ollama run the window you ask for (`OLLAMA_CONTEXT_LENGTH=16384`).',
      reason: 'the server runs 4,096 tokens, not 16,384',
    },
    tools: { verdict: 'ok', serverSays: 'yes', nativeProbe: 'native', setting: 'auto', protocol: 'native', summary: 'qwen3:8b calls tools natively.', details: [] },
    speed: { verdict: 'ok', summary: 'Cold load 2.1 s.', details: [] },
    cache: { verdict: 'ok', state: 'works', evidence: 'reported', summary: 'Works <fast>.', details: [] },
    embedding: { verdict: 'info', models: [], summary: 'No embedding model is set.', details: [], fix: 'Get one with `ollama pull nomic-embed-text`.' },
    overall: { verdict: 'limited', summary: 'Usable with limits: the server runs 4,096 tokens, not 16,384.', reasons: ['the server runs 4,096 tokens, not 16,384'] },
  };
}
