// The window lookup and the tool-protocol check both ask for model info when a turn starts: one lookup serves
// both, a later turn (after the short TTL) asks again, and a failed lookup is not reused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { startFakeOpenAIServer } from '../../helpers/fakeLlm';
import type { ProviderClock } from '../../../src/providers/clock';

class SteppingClock implements ProviderClock {
  t = 1_000;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(fn, ms);
  }
  clearTimeout(handle: ReturnType<typeof setTimeout>): void {
    clearTimeout(handle);
  }
}

test('model info is looked up once per turn start and again after the TTL', async () => {
  const server = await startFakeOpenAIServer([], { name: 'model info cache', models: [{ id: 'tiny', maxContextLength: 32768, loadedContextLength: 4096 }] });
  const clock = new SteppingClock();
  try {
    const provider = new OpenAICompatibleProvider({ baseUrl: server.url, clock });
    const signal = new AbortController().signal;
    const [a, b] = await Promise.all([provider.modelInfo('tiny', signal), provider.modelInfo('tiny', signal)]);
    assert.equal(a.loadedContextLength, 4096);
    assert.deepEqual(a, b);
    const lookups = () => server.log.filter((l) => String((l as { path?: string }).path).includes('/api/v0/models')).length;
    assert.equal(lookups(), 1);
    clock.t += 10_000;
    await provider.modelInfo('tiny', signal);
    assert.equal(lookups(), 2);
  } finally {
    await server.close();
  }
});

test('a failed lookup is not cached', async () => {
  const provider = new OpenAICompatibleProvider({ baseUrl: 'http://127.0.0.1:59998/v1' });
  const signal = new AbortController().signal;
  await assert.rejects(provider.modelInfo('tiny', signal), /connection refused/);
  await assert.rejects(provider.modelInfo('tiny', signal), /connection refused/);
});
