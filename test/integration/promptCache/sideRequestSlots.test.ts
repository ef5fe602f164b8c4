// Issue 31: side requests keep the chat's cache. A fake llama-server with its own prompt cache per slot: the chat
// reads a file, the indexer summarizes two files between turns (side work), the chat goes on. With two slots the
// chat's rounds carry id_slot 0 and the summaries the last slot, so the next round reads only what is new. Left to
// the server's own choice (prefix similarity, else the least recently used slot) the same requests keep the chat
// only while each side request resembles the one before it by more than the server's threshold: with the 0.5 of
// older llama-server builds the second summary lands in the chat's slot and the chat reads everything again. With one slot, or a server that is not llama.cpp, nothing carries id_slot. A new
// chat sends the previous chat's system prompt and tools byte for byte, so its first request reuses them.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSession } from '../../../src/builder/buildSession';
import { workspacePorts } from '../../helpers/builtSession';
import { EventBus } from '../../../src/core/agent/events';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { ModelFileSummarizer } from '../../../src/indexing/fileSummarizer';
import type { FileSummaryInput } from '../../../src/core/knowledge/types';
import { PromptCacheModel } from '../../helpers/fakeLlm/promptCache';
import { startFakeOpenAIServer, type ChatBody, type FakeOpenAIOptions, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const isSummary = (body: ChatBody) => body.response_format !== undefined;

/** The chat reads a.txt and answers; then answers again; a second chat answers once. Summaries get valid JSON. */
function script(): (body: ChatBody) => ScriptedReply {
  const chat: ScriptedReply[] = [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
    { text: 'a.txt lists the release steps.' },
    { text: 'Nothing else to do.' },
    { text: 'A new chat.' },
  ];
  let i = 0;
  return (body) =>
    isSummary(body)
      ? { text: JSON.stringify({ summary: 'A small module.', chunks: [], entities: [], relations: [] }) }
      : chat[i++] ?? { text: 'out of script' };
}

function fileToSummarize(name: string, lines: number): FileSummaryInput {
  const text = Array.from({ length: lines }, (_, n) => `export const ${name}${n} = ${n * 7}; // ${name} value ${n}`).join('\n');
  return { path: `${name}.ts`, language: 'typescript', chunks: [{ kind: 'block', startLine: 1, endLine: lines, text }], outline: [] };
}

async function chatThenSideThenChat(serverOptions: FakeOpenAIOptions) {
  const server = await startFakeOpenAIServer(script(), { name: 'slots', ...serverOptions });
  servers.push(server);
  const root = mkdtempSync(path.join(tmpdir(), 'lh-slots-'));
  writeFileSync(path.join(root, 'a.txt'), Array.from({ length: 60 }, (_, n) => `step ${n}: check the release notes, tag, and publish`).join('\n'));
  const provider = new OpenAICompatibleProvider({ baseUrl: server.url });
  const registry = new ToolRegistry();
  registerBuiltinTools(registry);
  const newChat = () =>
    buildSession({
      ports: workspacePorts(root, { provider, model: 'tiny', registry, bus: new EventBus(), autoApprove: ['read'] }),
      settings: { agent: { toolProtocol: 'native' } },
      notice: () => undefined,
    });
  const signal = new AbortController().signal;
  const session = newChat();
  assert.equal((await session.send('What does a.txt hold?', signal)).reason, 'completed');
  // Between turns the indexer summarizes two files the chat did not read, through the same provider.
  const summarizer = new ModelFileSummarizer({ provider, model: 'tiny' });
  await summarizer.summarize(fileToSummarize('alpha', 40), signal);
  await summarizer.summarize(fileToSummarize('omega', 40), signal);
  assert.equal((await session.send('Anything else?', signal)).reason, 'completed');
  assert.equal((await newChat().send('Start over: hello', signal)).reason, 'completed');
  const log = server.promptCache!.stats.log;
  assert.equal(log.length, server.requests.length, 'every request went through the cache');
  return { server, log, chat: (server.requests as ChatBody[]).flatMap((body, n) => (isSummary(body) ? [] : [{ body, processing: log[n]! }])) };
}

const wire = (value: unknown) => JSON.stringify(value);

describe('side requests and llama.cpp slots', () => {
  test('two slots: the chat stays in slot 0, summaries go to slot 1, and the next round reads only what is new', async () => {
    const { server, chat } = await chatThenSideThenChat({ lmStudioApi: false, llamaCppContext: 16384, promptCache: { slots: 2, slotPromptSimilarity: 0.5 } });
    for (const body of server.requests) assert.equal(body.id_slot, isSummary(body) ? 1 : 0, `${isSummary(body) ? 'a summary' : 'a chat round'} in its slot`);
    const [read, answer, next] = chat;
    assert.ok(read && answer && next);
    assert.ok(answer.processing.cachedTokens >= read.processing.promptTokens - 1, 'the chat appends: its second round reuses the first');
    assert.ok(
      next.processing.cachedTokens >= answer.processing.promptTokens - 1,
      `after two summaries the next turn reuses the whole previous round (${next.processing.cachedTokens} of ${answer.processing.promptTokens} reused)`,
    );
    assert.ok(next.processing.processedTokens < next.processing.promptTokens / 4, `only the new turn is read (${next.processing.processedTokens} of ${next.processing.promptTokens})`);
  });

  test('the same requests without id_slot (older llama-server, similarity 0.5): the second summary takes the chat slot and the chat reads everything again', async () => {
    const { server } = await chatThenSideThenChat({ lmStudioApi: false, llamaCppContext: 16384, promptCache: { slots: 2 } });
    // Replayed into a fresh two-slot server that chooses slots itself, as llama-server does without id_slot.
    const unpinned = new PromptCacheModel({ slots: 2, slotPromptSimilarity: 0.5 });
    const processed = [];
    for (const body of server.requests) {
      const { id_slot: _pinned, ...rest } = body;
      const slot = await unpinned.claim(rest);
      processed.push({ summary: isSummary(body), ...unpinned.process(rest, Math.ceil(wire(rest.messages).length / 4), slot) });
      unpinned.release(slot);
    }
    const chatSlots = processed.filter((p) => !p.summary).map((p) => p.slot);
    const summarySlots = processed.filter((p) => p.summary).map((p) => p.slot);
    assert.ok(summarySlots.some((s) => chatSlots.slice(0, 2).includes(s)), `a summary lands in the chat's slot (${summarySlots} vs ${chatSlots})`);
    const next = processed.filter((p) => !p.summary)[2]!;
    assert.ok(next.processedTokens > next.promptTokens / 2, `the next turn re-reads most of the conversation (${next.processedTokens} of ${next.promptTokens})`);
  });

  test('one slot, or a server that is not llama.cpp: no request carries id_slot', async () => {
    for (const options of [
      { lmStudioApi: false, llamaCppContext: 16384, promptCache: { slots: 1 } },
      { promptCache: { slots: 2 } }, // LM Studio: /api/v0/models, no /props
    ] satisfies FakeOpenAIOptions[]) {
      const { server } = await chatThenSideThenChat(options);
      assert.ok(server.requests.length >= 6);
      for (const body of server.requests) assert.ok(!('id_slot' in body), `no id_slot (${wire(options)})`);
    }
  });

  test('a new chat sends the previous chat\'s system prompt and tools byte for byte, so its first request reuses them', async () => {
    const { chat } = await chatThenSideThenChat({ lmStudioApi: false, llamaCppContext: 16384, promptCache: { slots: 2 } });
    const first = chat[0]!;
    const fresh = chat.at(-1)!;
    assert.equal(wire(fresh.body.messages?.[0]), wire(first.body.messages?.[0]), 'the same system message');
    assert.equal(wire(fresh.body.tools), wire(first.body.tools), 'the same tools, in the same order');
    assert.equal(fresh.body.id_slot, 0, 'in the chat slot');
    const prefix = wire(first.body.messages?.[0]).length + wire(first.body.tools).length;
    const total = wire(fresh.body.messages).length + wire(fresh.body.tools).length;
    assert.ok(
      fresh.processing.cachedTokens >= Math.floor((fresh.processing.promptTokens * prefix) / total * 0.9),
      `the system prompt and tools come from the cache (${fresh.processing.cachedTokens} of ${fresh.processing.promptTokens})`,
    );
  });
});
