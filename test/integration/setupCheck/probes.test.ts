// The setup check in process against the wire-faithful fake servers of both kinds: what the tool probe tells
// apart (a native caller, a model that prints its calls as JSON text, one that calls nothing, one the server
// offers no tools for), which protocol follows, and a server with a prompt cache told apart from one without.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../../src/core/ports';
import type { ChatProvider } from '../../../src/core/provider';
import { runSetupCheck, type SetupCheckInput } from '../../../src/core/setupCheck/runSetupCheck';
import { createProvider } from '../../../src/providers';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import type { PromptCacheOptions } from '../../helpers/fakeLlm/promptCache';
import { setupProbeModel, type ProbeModelOptions } from '../../helpers/weakModels';
import { checkedToolProtocol, keepSetupCheck } from '../../../src/core/setupCheck/memory';
import { MemoryKv } from '../../helpers/memoryKv';

const MODEL = 'coder:7b';

interface Wire {
  name: 'ollama' | 'openai';
  start(script: Script, options: { tools?: boolean; promptCache?: PromptCacheOptions }): Promise<FakeServerHandle>;
  provider(server: FakeServerHandle): ChatProvider;
}

const WIRES: Wire[] = [
  {
    name: 'ollama',
    start: (script, o) =>
      startFakeOllamaServer(script, {
        name: 'setup probes',
        models: [{ name: MODEL, contextLength: 32768, capabilities: o.tools === false ? ['completion'] : ['completion', 'tools'] }],
        ...(o.promptCache && { promptCache: o.promptCache }),
      }),
    provider: (s) => createProvider({ provider: 'ollama', baseUrl: s.origin }),
  },
  {
    name: 'openai',
    start: (script, o) =>
      startFakeOpenAIServer(script, {
        name: 'setup probes',
        models: [{ id: MODEL, maxContextLength: 32768, loadedContextLength: 16384 }],
        ...(o.promptCache && { promptCache: o.promptCache }),
      }),
    provider: (s) => createProvider({ provider: 'openai', baseUrl: s.url }),
  },
];

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function check(wire: Wire, model: ProbeModelOptions, options: { tools?: boolean; promptCache?: PromptCacheOptions; input?: Partial<SetupCheckInput> } = {}) {
  const probe = setupProbeModel(model);
  const server = await wire.start((body) => probe(body), options);
  servers.push(server);
  const { report } = await runSetupCheck({
    provider: wire.provider(server),
    model: MODEL,
    toolProtocol: 'auto',
    embeddingModels: {},
    clock: systemClock,
    signal: AbortSignal.timeout(20_000),
    ...options.input,
  });
  return { report, server };
}

/** Chat requests that offered tools through the API. */
const withTools = (server: FakeServerHandle) => server.requests.filter((r) => Array.isArray(r.tools) && r.tools.length > 0);

for (const wire of WIRES) {
  describe(`setup check over ${wire.name}`, () => {
    test('a model that calls the tool natively: native protocol, tools ok, a handful of requests', async () => {
      const { report, server } = await check(wire, { native: 'native', text: 'follows' });
      assert.equal(report.tools.nativeProbe, 'native');
      assert.equal(report.tools.textProbe, undefined, 'no text probe after a native call');
      assert.equal(report.tools.protocol, 'native');
      assert.equal(report.tools.verdict, 'ok');
      assert.equal(report.server.verdict, 'ok');
      assert.equal(report.server.kind, wire.name === 'ollama' ? 'ollama' : 'lmstudio');
      if (wire.name === 'ollama') assert.equal(report.server.version, '0.12.6');
      assert.equal(server.requests.length, 3, 'one tool probe and two speed requests');
      assert.equal(withTools(server).length, 1);
      assert.equal(report.overall.verdict, 'ready', report.overall.summary);
    });

    test('a model that prints {"name": …, "arguments": …} as text is told apart from one that calls nothing', async () => {
      const json = await check(wire, { native: 'json-text', text: 'follows' });
      assert.equal(json.report.tools.nativeProbe, 'text');
      assert.equal(json.report.tools.textProbe, 'text');
      assert.equal(json.report.tools.protocol, 'xml');
      assert.equal(json.report.tools.verdict, 'limited');
      assert.match(json.report.tools.summary, /writes tool calls as text/);
      assert.equal(json.report.overall.verdict, 'limited');
      assert.match(json.report.overall.summary, /tool calls as text/);

      const none = await check(wire, { native: 'none', text: 'ignores' });
      assert.equal(none.report.tools.nativeProbe, 'none');
      assert.equal(none.report.tools.textProbe, 'none');
      assert.equal(none.report.tools.verdict, 'failed');
      assert.match(none.report.tools.summary, /did not call the tool, natively or as text/);
      assert.equal(none.report.overall.verdict, 'unusable');
      assert.match(none.report.overall.summary, /does not call tools/);

      // The same silence natively, but it follows the text protocol: usable with text-based calls.
      const textOnly = await check(wire, { native: 'none', text: 'follows' });
      assert.equal(textOnly.report.tools.nativeProbe, 'none');
      assert.equal(textOnly.report.tools.textProbe, 'text');
      assert.equal(textOnly.report.tools.protocol, 'xml');
      assert.match(textOnly.report.tools.summary, /answered the native probe without calling the tool/);
    });

    test("a model that prints calls in its family's own syntax: the syntax is reported and remembered, native calls kept", async () => {
      for (const family of ['qwen3-coder', 'mistral', 'devstral', 'harmony'] as const) {
        const { report } = await check(wire, { native: 'family-text', text: 'follows', family });
        assert.equal(report.tools.nativeProbe, 'text', family);
        assert.equal(report.tools.callSyntax, family);
        assert.equal(report.tools.protocol, 'native', `${family}: its own syntax is read, no need for <tool> blocks`);
        assert.equal(report.tools.verdict, 'info');
        assert.match(report.tools.summary, /writes its tool calls as text in its own format \(.+\) instead of through the API; Local Harness reads them as calls/);
        assert.match(report.tools.details.join(' '), /Native probe: wrote the read_file call as text in its answer \(/);
        const kv = new MemoryKv();
        await keepSetupCheck([kv], wire.provider(servers.at(-1)!), { report });
        const remembered = await checkedToolProtocol(kv)(wire.provider(servers.at(-1)!), MODEL);
        assert.equal(remembered?.protocol, 'native');
        assert.equal(remembered?.callSyntax, family);
        assert.match(remembered!.notice, /writes its tool calls as text in its own format/);
      }
      // JSON text stays what it was: the text protocol from the start, the syntax remembered with it.
      const json = await check(wire, { native: 'json-text', text: 'follows' });
      assert.equal(json.report.tools.callSyntax, 'json');
      assert.equal(json.report.tools.protocol, 'xml');
    });

    test('a server without a prompt cache is told apart from one with', async () => {
      const cached = await check(wire, { native: 'native', text: 'follows' });
      assert.equal(cached.report.cache.state, 'works');
      assert.equal(cached.report.cache.evidence, 'reported');
      assert.ok((cached.report.cache.cachedTokens ?? 0) > 0);

      const uncached = await check(wire, { native: 'native', text: 'follows' }, { promptCache: { enabled: false } });
      assert.equal(uncached.report.cache.state, 'none');
      assert.equal(uncached.report.cache.evidence, 'reported');
      assert.equal(uncached.report.cache.cachedTokens, 0);
      assert.equal(uncached.report.cache.verdict, 'limited');
      assert.ok(uncached.report.cache.fix, 'the finding says what to do');
      assert.match(uncached.report.overall.summary, /no prompt cache/);

      // A server that does not report reused tokens (LM Studio, older Ollama): never claimed from our own estimate.
      const silent = await check(wire, { native: 'native', text: 'follows' }, { promptCache: { reportCached: false } });
      assert.notEqual(silent.report.cache.evidence, 'reported');
      assert.match(silent.report.cache.details.join(' '), /does not report how many prompt tokens it reused/);
    });

    test('speed is measured on the probe (server durations, or the clock when it reports none)', async () => {
      const { report } = await check(wire, { native: 'native', text: 'follows' }, { promptCache: { promptTokensPerSecond: 20_000, generatedTokensPerSecond: 2_000 } });
      assert.equal(typeof report.speed.firstByteMs, 'number');
      assert.ok((report.speed.promptTokensPerSecond ?? 0) > 0, JSON.stringify(report.speed));
      assert.ok((report.speed.generatedTokensPerSecond ?? 0) > 0, JSON.stringify(report.speed));
      if (wire.name === 'ollama') {
        // The fake lists a model in /api/ps only after a chat request used it: this was a cold load.
        assert.equal(report.speed.alreadyLoaded, false);
        assert.equal(typeof report.speed.coldLoadMs, 'number');
      } else {
        assert.equal(report.speed.alreadyLoaded, true, 'LM Studio says the model is loaded');
      }
    });
  });
}

test('Ollama: a model without the tools capability gets no native probe (the server would refuse) and the text protocol', async () => {
  const { report, server } = await check(WIRES[0]!, { native: 'native', text: 'follows' }, { tools: false });
  assert.equal(report.tools.serverSays, 'no');
  assert.equal(report.tools.nativeProbe, undefined);
  assert.equal(report.tools.textProbe, 'text');
  assert.equal(report.tools.protocol, 'xml');
  assert.deepEqual(withTools(server), [], 'no request offered tools through the API');
  assert.match(report.tools.summary, /does not offer tool calling/);
  assert.match(report.tools.fix ?? '', /tools/);
});

test('OpenAI-compatible: a server that refuses tools for the model is detected and the text protocol chosen', async () => {
  const probe = setupProbeModel({ native: 'native', text: 'follows' });
  const server = await startFakeOpenAIServer((body) => (Array.isArray(body.tools) && body.tools.length ? { fault: 'http500', status: 400, errorMessage: 'This model does not support tools' } : probe(body)), {
    models: [{ id: MODEL, maxContextLength: 8192, loadedContextLength: 8192 }],
  });
  servers.push(server);
  const { report } = await runSetupCheck({ provider: WIRES[1]!.provider(server), model: MODEL, toolProtocol: 'auto', embeddingModels: {}, clock: systemClock, signal: AbortSignal.timeout(20_000) });
  assert.equal(report.tools.nativeProbe, 'rejected');
  assert.equal(report.tools.textProbe, 'text');
  assert.equal(report.tools.protocol, 'xml');
  assert.equal(report.overall.verdict, 'limited');
});

test('an explicit protocol setting wins over the probe, and says so', async () => {
  const { report } = await check(WIRES[1]!, { native: 'json-text', text: 'follows' }, { input: { toolProtocol: 'native' } });
  assert.equal(report.tools.protocol, 'native');
  assert.match(report.tools.summary, /your setting forces native tool calls/);
  assert.match(report.tools.fix ?? '', /toolProtocol to "auto"/);
});

test('llama.cpp: the setup check reports its slots and advises -np 2, --cache-reuse and, for a sliding-window model, --ctx-checkpoints; the chat provider learns the measured prompt speed', async () => {
  const probe = setupProbeModel({ native: 'native', text: 'follows' });
  const gemma = 'gemma-3-12b-it';
  const oneSlot = await startFakeOpenAIServer((body) => probe(body), { lmStudioApi: false, llamaCppContext: 8192, models: [{ id: gemma }], promptCache: { promptTokensPerSecond: 2000 } });
  const twoSlots = await startFakeOpenAIServer((body) => probe(body), { lmStudioApi: false, llamaCppContext: 8192, models: [{ id: MODEL }], promptCache: { slots: 2 } });
  servers.push(oneSlot, twoSlots);
  const noted: number[] = [];
  const provider = WIRES[1]!.provider(oneSlot);
  const spy: ChatProvider = Object.assign(Object.create(provider) as ChatProvider, { notePromptSpeed: (_m: string, tps: number) => noted.push(tps) });
  const one = (await runSetupCheck({ provider: spy, model: gemma, toolProtocol: 'auto', embeddingModels: {}, clock: systemClock, signal: AbortSignal.timeout(20_000) })).report;
  const details = one.cache.details.join('\n');
  assert.match(details, /runs one slot: .*-np 2/);
  assert.match(details, /--cache-reuse 256/);
  assert.match(details, /gemma-3-12b-it is a hybrid or sliding-window model: .*--ctx-checkpoints/);
  assert.equal(noted.length, 1, 'the measured prompt speed is handed to the provider');
  assert.ok(Math.abs(noted[0]! - 2000) < 400, `about the server's 2,000 tokens/s (${noted[0]})`);

  const two = (await runSetupCheck({ provider: WIRES[1]!.provider(twoSlots), model: MODEL, toolProtocol: 'auto', embeddingModels: {}, clock: systemClock, signal: AbortSignal.timeout(20_000) })).report;
  const twoDetails = two.cache.details.join('\n');
  assert.match(twoDetails, /runs 2 slots/);
  assert.doesNotMatch(twoDetails, /-np 2|ctx-checkpoints/);
});
