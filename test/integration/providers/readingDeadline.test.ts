// Slow hardware: a long prompt read must not trip the first-byte deadline. Fake servers read at a set speed (the
// issue's 60 s read with a 20 s slack, scaled down to 6 s and 2 s): llama.cpp streams its reading progress when
// asked, Ollama says nothing until its first token, so the deadline allows for the read its measured speed predicts.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest, StreamDelta } from '../../../src/core/provider';
import { ObservedProvider } from '../../../src/core/setupCheck/observedCall';
import { runSpeedProbes, speedNumbers } from '../../../src/core/setupCheck/speedProbe';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { PromptSpeed } from '../../../src/providers/readingTime';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { collect, collectUntilError, signal, textOf } from '../../helpers/fakeLlm/streamHelpers';
import { timeLapseClock } from '../../helpers/timeLapse';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** The server reads 500 tokens/s: a 3,000-token prompt takes 6 s, three times the 2 s slack. */
const READ_RATE = 500;
const SLACK_MS = 2000;

/** A user message of roughly `tokens` tokens (plain words, ~4 characters each). */
function longPrompt(tokens: number): string {
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
  const out: string[] = [];
  for (let i = 0; out.join(' ').length < tokens * 4; i++) out.push(words[i % words.length]!);
  return `Summarise this list in one word: ${out.join(' ')}`;
}

function readingStatuses(deltas: StreamDelta[]) {
  return deltas.flatMap((d) => (d.type === 'status' && d.reading ? [{ message: d.message, ...d.reading }] : []));
}

describe('reading-aware first-byte deadline', () => {
  test('llama.cpp: progress keeps a 6 s read alive past a 2 s slack; shown, and nothing re-sent', async () => {
    const server = await startFakeOpenAIServer([{ text: 'Done.', usage: { prompt: 3000, completion: 2 } }], {
      llamaCppContext: 8192,
      lmStudioApi: false,
      promptCache: { promptTokensPerSecond: READ_RATE },
      progressBatchTokens: 512,
    });
    servers.push(server);
    const provider = new OpenAICompatibleProvider({ baseUrl: server.url, firstByteTimeoutMs: SLACK_MS, loadingStatusDelayMs: 500, promptSpeed: new PromptSpeed() });
    // The session asks about the model before its first request; `/props` says this is llama.cpp.
    await provider.modelInfo('tiny', signal());
    const started = Date.now();
    const deltas = await collect(provider.chat(request('tiny', 'Hi')));
    const took = Date.now() - started;

    assert.equal(textOf(deltas), 'Done.');
    assert.ok(took >= 5500, `the read took its 6 s (${took} ms)`);
    assert.equal(server.requests.length, 1, 'one request: nothing re-sent');
    assert.equal(server.requests[0]!.return_progress, true, 'llama.cpp is asked for its reading progress');
    const shown = readingStatuses(deltas);
    assert.ok(shown.length >= 5, `progress after each 512-token batch (${shown.length})`);
    assert.deepEqual(shown.at(-1), { message: 'Reading the prompt: 3,000 / 3,000 tokens', processed: 3000, total: 3000 });
    assert.equal(shown[0]!.message, 'Reading the prompt: 512 / 3,000 tokens');
    assert.ok(shown.every((s, i) => i === 0 || s.processed > shown[i - 1]!.processed), 'progress only grows');
  });

  test('without progress or a known speed the same read runs past the slack (what the progress prevents)', async () => {
    const server = await startFakeOpenAIServer([{ text: 'Done.', usage: { prompt: 3000, completion: 2 } }], {
      promptCache: { promptTokensPerSecond: READ_RATE },
    });
    servers.push(server);
    const provider = new OpenAICompatibleProvider({ baseUrl: server.url, firstByteTimeoutMs: SLACK_MS, loadingStatusDelayMs: 500, promptSpeed: new PromptSpeed() });
    await provider.modelInfo('tiny', signal());
    const { error } = await collectUntilError(provider.chat(request('tiny', 'Hi')));
    assert.equal(error.kind, 'first_byte_timeout');
    assert.ok(!('return_progress' in server.requests[0]!), 'a server not known to be llama.cpp gets no llama.cpp fields');
  });

  test('llama.cpp reuses a cached prefix: progress counts only what it must read, and says what it reused', async () => {
    const prompt = longPrompt(1200);
    const server = await startFakeOpenAIServer(
      [
        { text: 'One.', usage: { prompt: 1200, completion: 2 } },
        { text: 'Two.', usage: { prompt: 2400, completion: 2 } },
      ],
      { llamaCppContext: 8192, lmStudioApi: false, progressBatchTokens: 512 },
    );
    servers.push(server);
    const provider = new OpenAICompatibleProvider({ baseUrl: server.url, firstByteTimeoutMs: SLACK_MS, promptSpeed: new PromptSpeed() });
    await provider.modelInfo('tiny', signal());
    await collect(provider.chat(request('tiny', prompt)));
    const second = await collect(
      provider.chat({ ...request('tiny', prompt), messages: [{ role: 'user', content: prompt }, { role: 'assistant', content: 'One.' }, { role: 'user', content: prompt }] }),
    );
    const last = readingStatuses(second).at(-1)!;
    assert.ok(last.cached !== undefined && last.cached > 0, 'the reused prefix is reported');
    assert.equal(last.processed + last.cached, 2400, 'read plus reused is the whole prompt');
    assert.match(last.message, /^Reading the prompt: [\d,]+ \/ [\d,]+ tokens \([\d,]+ reused\)$/);
  });

  test('Ollama: after the setup check measured the speed, a 6 s read completes within a 2 s slack, with an estimate shown', async () => {
    const model = { name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] };
    const server = await startFakeOllamaServer([{ text: 'ok' }, { text: 'ok' }, { text: 'Done.' }], {
      models: [model],
      promptCache: { promptTokensPerSecond: READ_RATE },
    });
    servers.push(server);
    const provider = new OllamaProvider({ host: server.url, firstByteTimeoutMs: SLACK_MS, loadingStatusDelayMs: 500, promptSpeed: new PromptSpeed() });
    // The setup check's speed requests (short: they fit in the slack); the provider learns from their durations.
    const observed = new ObservedProvider(provider, { now: () => Date.now() });
    const probes = await runSpeedProbes(observed, { model: model.name, prefixTokens: 300, signal: signal() });
    const measured = speedNumbers(probes.first).promptTokensPerSecond!;
    assert.ok(Math.abs(measured - READ_RATE) < READ_RATE * 0.2, `the check measured ~${READ_RATE} tokens/s (${measured})`);
    provider.notePromptSpeed(model.name, measured);

    const started = Date.now();
    const deltas = await collect(provider.chat(request(model.name, longPrompt(3000))));
    const took = Date.now() - started;
    assert.equal(textOf(deltas), 'Done.');
    assert.ok(took >= 5000, `a long read really happened (${took} ms)`);
    assert.equal(server.requests.length, 3, 'two probes and the one request: nothing re-sent');
    const shown = readingStatuses(deltas);
    assert.ok(shown.length >= 3, `the estimate was renewed while waiting (${shown.length})`);
    assert.ok(shown.every((s) => s.estimated === true));
    assert.match(shown[0]!.message, /^Reading the prompt: about [\d,]+ \/ [\d,]+ tokens \(estimated\)$/);
    assert.ok(shown[0]!.total > 2500 && shown[0]!.total < 4000, `the whole prompt is to be read (${shown[0]!.total})`);
  });

  test('Ollama: after keep_alive without a request the whole prompt is expected to be read again (the model was unloaded)', async () => {
    const model = { name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] };
    const server = await startFakeOllamaServer([{ text: 'one' }, { text: 'two' }, { text: 'three' }], { models: [model], promptCache: { promptTokensPerSecond: 2000 } });
    servers.push(server);
    let offset = 0;
    const clock = { now: () => Date.now() + offset, setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout) };
    const speed = new PromptSpeed();
    speed.set(model.name, 2000);
    const provider = new OllamaProvider({ host: server.url, keepAlive: '5m', loadingStatusDelayMs: 1, clock, promptSpeed: speed });
    const prompt = longPrompt(3000);
    const first = readingStatuses(await collect(provider.chat(request(model.name, prompt))));
    const ask = (): ChatRequest => ({ ...request(model.name, prompt), messages: [{ role: 'user', content: prompt }, { role: 'assistant', content: 'one' }, { role: 'user', content: 'And the rest?' }] });
    const second = readingStatuses(await collect(provider.chat(ask())));
    offset = 6 * 60_000; // six minutes later: past keep_alive
    const third = readingStatuses(await collect(provider.chat({ ...ask(), signal: signal() })));
    assert.ok(first.length > 0 && first[0]!.total > 2500, `a new session reads everything (${first[0]?.total})`);
    assert.ok(second.length > 0 && second[0]!.total < 500, `the kept prefix: only the new part is expected (${second[0]?.total})`);
    assert.ok(third.length > 0 && third[0]!.total > 2500, `after keep_alive everything again (${third[0]?.total})`);
  });

  test('LM Studio (no reading time in its replies): the speed is learned from the wait for the first byte, so a later long read completes, with an estimate', async () => {
    // On a 10x time-lapse clock shared with the server (test/helpers/timeLapse.ts): 0.8 s, then 6 s of reading.
    const clock = timeLapseClock(10);
    const server = await startFakeOpenAIServer(
      [
        { text: 'ok', usage: { prompt: 400, completion: 1 } },
        { text: 'Done.', usage: { prompt: 3000, completion: 2 } },
      ],
      { promptCache: { promptTokensPerSecond: READ_RATE, reportCached: false }, timeLapse: 10 },
    );
    servers.push(server);
    const speed = new PromptSpeed();
    const provider = new OpenAICompatibleProvider({ baseUrl: server.url, firstByteTimeoutMs: SLACK_MS, loadingStatusDelayMs: 500, clock, promptSpeed: speed });
    await provider.modelInfo('tiny', signal());
    await collect(provider.chat(request('tiny', longPrompt(400))));
    const learned = speed.of('tiny');
    assert.ok(learned !== undefined && learned <= READ_RATE * 1.05 && learned > READ_RATE * 0.6, `learned a little under ${READ_RATE} tokens/s (${learned})`);
    const deltas = await collect(provider.chat(request('tiny', longPrompt(3000))));
    assert.equal(textOf(deltas), 'Done.');
    assert.equal(server.requests.length, 2, 'nothing re-sent');
    const shown = readingStatuses(deltas);
    assert.ok(shown.length >= 3 && shown.every((s) => s.estimated === true), `an estimate while LM Studio says nothing (${shown.length})`);
  });

  test('Ollama: the speed is also learned from earlier replies (prompt_eval_count / prompt_eval_duration)', async () => {
    const model = { name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] };
    const server = await startFakeOllamaServer([{ text: 'ok' }, { text: 'Done.' }], { models: [model], promptCache: { promptTokensPerSecond: READ_RATE } });
    servers.push(server);
    const speed = new PromptSpeed();
    const provider = new OllamaProvider({ host: server.url, firstByteTimeoutMs: SLACK_MS, loadingStatusDelayMs: 500, promptSpeed: speed });
    await collect(provider.chat(request(model.name, longPrompt(400))));
    const learned = speed.of(model.name);
    assert.ok(learned !== undefined && Math.abs(learned - READ_RATE) < READ_RATE * 0.2, `learned ~${READ_RATE} tokens/s (${learned})`);
    const deltas = await collect(provider.chat(request(model.name, longPrompt(3000))));
    assert.equal(textOf(deltas), 'Done.');
    assert.equal(server.requests.length, 2);
  });
});

function request(model: string, content: string): ChatRequest {
  return { model, messages: [{ role: 'user', content }], tools: [], signal: signal() };
}
