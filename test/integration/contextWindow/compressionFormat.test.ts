// The compression pass asks for its JSON as the request's response format (Ollama `format`, OpenAI-compatible
// `response_format` json_schema) — a request option, so the conversation prefix the server holds is unchanged. A
// server that refuses a response format next to tools (some llama.cpp builds) gets the request again without it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import type { ChatProvider } from '../../../src/core/provider';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { followsCompression, isCompressionRequest } from '../../helpers/weakModels';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../../helpers/compression/sessionFixture';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const GRAMMAR_WITH_TOOLS = 'Cannot use custom grammar constraints with tools.';

async function compressOnce(provider: ChatProvider, model: string): Promise<CompressionReport> {
  const reports: CompressionReport[] = [];
  const manager = createContextManager({ provider, model, window: 8192, tools: () => SESSION_TOOLS, onCompression: (r) => reports.push(r) });
  const history = scriptedSession({ messages: 40, seed: 7, fileChars: 1500 });
  await manager.prepareMessages([systemMessage(), ...history], new AbortController().signal);
  assert.equal(reports.length, 1);
  return reports[0]!;
}

function summarise(refuseWithTools: boolean): (body: ChatBody) => ScriptedReply {
  return (body) => {
    const constrained = body.response_format !== undefined;
    if (refuseWithTools && constrained && Array.isArray(body.tools) && body.tools.length > 0) return { fault: 'http500', status: 400, errorMessage: GRAMMAR_WITH_TOOLS };
    return isCompressionRequest(body) ? followsCompression(body) : { text: 'not a compression request' };
  };
}

test('the summaries are asked for as a response format, on both wire formats', async () => {
  const ollama = await startFakeOllamaServer(summarise(false), { models: [{ name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] }] });
  const openai = await startFakeOpenAIServer(summarise(false));
  servers.push(ollama, openai);
  const a = await compressOnce(new OllamaProvider({ host: ollama.url }), 'qwen3:8b');
  const b = await compressOnce(new OpenAICompatibleProvider({ baseUrl: openai.url }), 'tiny');
  assert.ok(a.llm && a.llm.compressed > 0 && b.llm && b.llm.compressed > 0);
  const format = ollama.requests[0]!.format as { properties?: Record<string, unknown> };
  assert.ok(format.properties && 'summaries' in format.properties, 'Ollama format: the summaries schema');
  const responseFormat = openai.requests[0]!.response_format as { type: string; json_schema: { name: string } };
  assert.equal(responseFormat.type, 'json_schema');
  assert.equal(responseFormat.json_schema.name, 'compression_summaries');
  assert.ok(Array.isArray(openai.requests[0]!.tools), 'the conversation keeps its tools: the cached prefix holds');
});

test('a server that refuses a response format with tools: asked again without it, and not constrained again', async () => {
  const server = await startFakeOpenAIServer(summarise(true));
  servers.push(server);
  const report = await compressOnce(new OpenAICompatibleProvider({ baseUrl: server.url }), 'tiny');
  assert.equal(report.llm?.failure, undefined);
  assert.ok(report.llm!.compressed > 0);
  assert.ok(server.requests.length >= 2, `${server.requests.length} requests`);
  assert.ok('response_format' in server.requests[0]!, 'first asked with the format');
  assert.ok(server.requests.slice(1).every((r) => !('response_format' in r)), 'then without it');
});
