// Issue 31's own numbers: fake servers that read at a set speed, a 20-second slack, a 60-second read. With progress
// (llama.cpp shape) the read completes with its progress shown and nothing re-sent; without progress (Ollama
// shape), once the setup check measured the speed, the same holds and an estimate is shown. A whole session turn
// (buildSession) runs on each, its events rendered by the CLI's own text and --json renderers.
//
// The minute passes on a time-lapse clock (test/helpers/timeLapse.ts, 10×): the providers take it as their clock
// and the fake servers read on the same factor, so deadlines, status timers and the server's reading all see the
// same virtual minute, in about six real seconds. Both cases run at once.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSession } from '../../../src/builder/buildSession';
import { workspacePorts } from '../../helpers/builtSession';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import type { ChatProvider } from '../../../src/core/provider';
import { runSetupCheck } from '../../../src/core/setupCheck/runSetupCheck';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { PromptSpeed } from '../../../src/providers/readingTime';
import { jsonRenderer, textRenderer } from '../../../src/cli/render';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { setupProbeModel } from '../../helpers/weakModels/probeModels';
import { timeLapseClock } from '../../helpers/timeLapse';
import { MemoryKv } from '../../helpers/memoryKv';
import { keepSetupCheck } from '../../../src/core/setupCheck/memory';
import type { KeyValuePort } from '../../../src/core/window/calibration';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const FACTOR = 10;
/** 12,000-odd tokens at 200 tokens/s: a minute of reading. */
const READ_RATE = 200;
const SLACK_MS = 20_000;
const TASK_TOKENS = 11_000;

/** A task of roughly `tokens` tokens: a long list the model is asked about. */
function longTask(tokens: number): string {
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
  const out: string[] = [];
  for (let i = 0, chars = 0; chars < tokens * 4; i++) {
    out.push(`${words[i % words.length]}${i}`);
    chars += out.at(-1)!.length + 1;
  }
  return `Which word in this list comes last? Answer in one word.\n${out.join(' ')}`;
}

/** The chat's answer to the long task; the setup check's probes get what a native-calling model says. */
function answering(probe: (body: ChatBody) => ScriptedReply | undefined): (body: ChatBody) => ScriptedReply {
  return (body) => probe(body) ?? { text: 'hotel' };
}

interface Rendered {
  text: string;
  diagnostics: string;
  json: Array<AgentEvent>;
}

async function turnOn(provider: ChatProvider, model: string, setupChecks?: KeyValuePort): Promise<{ reason: string; rendered: Rendered }> {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-minute-'));
  const registry = new ToolRegistry();
  registerBuiltinTools(registry);
  const bus = new EventBus();
  const rendered: Rendered = { text: '', diagnostics: '', json: [] };
  bus.on(textRenderer({ write: (t) => (rendered.text += t) }, { write: (t) => (rendered.diagnostics += t) }, false));
  bus.on(jsonRenderer({ write: (line) => rendered.json.push(JSON.parse(line) as AgentEvent) }));
  const session = buildSession({
    ports: workspacePorts(root, { provider, model, registry, bus, autoApprove: ['read'] }),
    settings: { agent: { toolProtocol: 'native' } },
    ...(setupChecks && { setupChecks }),
    notice: () => undefined,
  });
  const outcome = await session.send(longTask(TASK_TOKENS), new AbortController().signal);
  return { reason: outcome.reason, rendered };
}

type Reading = { processed: number; total: number; cached?: number; estimated?: boolean };
const readings = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'status' && (e as { reading?: Reading }).reading ? [{ message: e.message, ...(e as { reading: Reading }).reading }] : []));

describe('a 60-second read with a 20-second slack', { concurrency: true }, () => {
  test('llama.cpp: reading progress keeps it alive; shown in the CLI text and --json; one request', async () => {
    const clock = timeLapseClock(FACTOR);
    const server = await startFakeOpenAIServer(answering(() => undefined), {
      lmStudioApi: false,
      llamaCppContext: 32768,
      promptCache: { promptTokensPerSecond: READ_RATE },
      progressBatchTokens: 512,
      timeLapse: FACTOR,
    });
    servers.push(server);
    const provider = new OpenAICompatibleProvider({ baseUrl: server.url, firstByteTimeoutMs: SLACK_MS, clock, promptSpeed: new PromptSpeed() });
    const started = clock.now();
    const { reason, rendered } = await turnOn(provider, 'tiny');
    const took = clock.now() - started;

    assert.equal(reason, 'completed');
    assert.equal(server.requests.length, 1, 'one chat request: nothing re-sent');
    const read = server.promptCache!.stats.log[0]!;
    assert.ok(read.promptMs >= 60_000, `the server read for a minute (${Math.round(read.promptMs / 1000)} s of ${read.processedTokens} tokens)`);
    assert.ok(took >= 60_000, `the turn waited the minute out (${Math.round(took / 1000)} s on the clock)`);
    assert.match(rendered.text, /hotel/);
    const shown = readings(rendered.json);
    assert.ok(shown.length >= 20, `progress after each 512-token batch (${shown.length})`);
    assert.ok(shown.every((s) => s.estimated === undefined), 'the server\'s own counts');
    assert.ok(shown.every((s, i) => i === 0 || s.processed > shown[i - 1]!.processed), 'progress only grows');
    assert.equal(shown.at(-1)!.processed, shown.at(-1)!.total, 'to the last token');
    assert.equal(shown.at(-1)!.total, read.processedTokens);
    const lines = rendered.diagnostics.split('\n').filter((l) => l.startsWith('[Reading the prompt: '));
    assert.equal(lines.length, shown.length, 'each progress report on the CLI\'s diagnostics stream');
    assert.match(lines[0]!, /^\[Reading the prompt: 512 \/ [\d,]+ tokens\]$/);
  });

  for (const where of ['the same process', 'a later process (its stored report)'] as const) {
    test(`Ollama: after the setup check measured the speed (${where}), the deadline allows for the read; an estimate is shown; one request`, async () => {
      const clock = timeLapseClock(FACTOR);
      const model = { name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] };
      const server = await startFakeOllamaServer(answering(setupProbeModel({ native: 'native', text: 'follows' })), {
        models: [model],
        promptCache: { promptTokensPerSecond: READ_RATE },
        timeLapse: FACTOR,
      });
      servers.push(server);
      const checked = new OllamaProvider({ host: server.url, firstByteTimeoutMs: SLACK_MS, clock, promptSpeed: new PromptSpeed() });
      const result = await runSetupCheck({ provider: checked, model: model.name, toolProtocol: 'auto', embeddingModels: {}, clock, signal: AbortSignal.timeout(60_000) });
      const measured = result.report.speed.promptTokensPerSecond;
      assert.ok(measured !== undefined && Math.abs(measured - READ_RATE) < READ_RATE * 0.2, `the check measured ~${READ_RATE} tokens/s (${measured})`);
      const reports = new MemoryKv();
      await keepSetupCheck([reports], checked, result);
      // `localharness doctor --db`, then `localharness run --db`: the second process has its own, empty speeds.
      const later = where !== 'the same process';
      const provider = later ? new OllamaProvider({ host: server.url, firstByteTimeoutMs: SLACK_MS, clock, promptSpeed: new PromptSpeed() }) : checked;
      const before = server.requests.length;

      const started = clock.now();
      const { reason, rendered } = await turnOn(provider, model.name, later ? reports : undefined);
      const took = clock.now() - started;

      assert.equal(reason, 'completed');
      assert.equal(server.requests.length - before, 1, 'one chat request: nothing re-sent');
      const read = server.promptCache!.stats.log.at(-1)!;
      assert.ok(read.promptMs >= 60_000, `the server read for a minute (${Math.round(read.promptMs / 1000)} s of ${read.processedTokens} tokens)`);
      assert.ok(took >= 60_000, `the turn waited the minute out (${Math.round(took / 1000)} s on the clock)`);
      assert.match(rendered.text, /hotel/);
      const shown = readings(rendered.json);
      assert.ok(shown.length >= 10, `the estimate is renewed while the server says nothing (${shown.length})`);
      assert.ok(shown.every((s) => s.estimated === true), 'an estimate, and said to be one');
      assert.ok(Math.abs(shown[0]!.total - read.processedTokens) < read.processedTokens * 0.25, `the whole prompt is expected (${shown[0]!.total} vs ${read.processedTokens})`);
      const lines = rendered.diagnostics.split('\n').filter((l) => l.startsWith('[Reading the prompt: about '));
      assert.equal(lines.length, shown.length, 'each estimate on the CLI\'s diagnostics stream');
      assert.match(lines[0]!, /^\[Reading the prompt: about [\d,]+ \/ [\d,]+ tokens \(estimated\)\]$/);
    });
  }
});
