/**
 * Wire-faithful fake LLM servers for tests: real HTTP servers on 127.0.0.1 (port 0), scripted per test.
 *
 *   import { startFakeOpenAIServer, startFakeOllamaServer } from '../helpers/fakeLlm';
 *
 *   const server = await startFakeOpenAIServer([
 *     { thinking: 'Let me look.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] },
 *     (request) => ({ text: `saw ${request.messages?.length} messages` }),   // may depend on the request
 *   ], { name: 'my test' });
 *   const provider = new OpenAICompatibleProvider({ baseUrl: server.url });   // server.url ends in /v1
 *   …
 *   server.requests[1].messages   // what the client sent (parsed JSON bodies of chat requests)
 *   await server.close();
 *
 * One ScriptedReply per chat request, in order (see script.ts for every field):
 *   text, thinking, toolCalls [{name, arguments (string sent raw | object), id?}], usage, finishReason,
 *   delayMs (before the first byte: a cold model load), chunkSize (characters per streamed piece),
 *   chunkDelayMs, fault: 'http500' | 'midstream_error' | 'empty' | 'cut' | 'hang' | 'reset',
 *   status/errorMessage (for faults), thinkTags (thinking as <think>…</think> in content),
 *   reasoningField ('reasoning_content' | 'reasoning', OpenAI), wholeArguments (OpenAI),
 *   stringArguments (Ollama).
 * The script may also be one function `(request, index) => ScriptedReply | undefined`.
 * When the script runs out the server answers HTTP 500 naming the script, so a test fails loudly.
 *
 * startFakeOpenAIServer(script, {name?, models?, lmStudioApi?, llamaCppContext?, llamaCppBuild?, vllmVersion?}) answers like
 * llama.cpp's llama-server (SSE chunks as in test/fixtures/wire/openai-compatible/): `/v1/chat/completions`
 * (stream and non-stream; the `choices: []` usage chunk only when `stream_options.include_usage`),
 * `/v1/models`, LM Studio's `/api/v0/models`, and optionally llama.cpp's `/props` or vLLM's `/version`.
 *
 * startFakeOllamaServer(script, {name?, models?: [{name, contextLength, capabilities}], runningContext?}) answers like
 * Ollama: `/api/chat` NDJSON (tool calls whole, object arguments), `/api/tags`, `/api/show`
 * (`model_info["<arch>.context_length"]`, `capabilities`), `/api/version`, errors as `{"error": "…"}`, and
 * `/api/ps` (models a chat request used; `context_length` = runningContext, a number or per-model function,
 * left out when not given, like older Ollama).
 *
 * Both also embed (`/api/embed`, `/v1/embeddings`, see embeddings.ts): a hashed bag of word stems, so texts
 * sharing words are similar. Option `embeddingModels` lists the models that can embed (absent: all; `[]`: none,
 * answered with the servers' own "not found" / "does not support embeddings" errors). Count the calls
 * with embedRequests(handle).
 *
 * Every handle: url, origin, requests (chat bodies), log (every request), clientAborts (replies the
 * client abandoned before they ended), waitForClientAbort(count?, timeoutMs?), close().
 *
 * startTranscriptServer(loadTranscript('openai-compatible/…txt'), {chunkBytes?}) replays a recorded
 * response body byte for byte.
 */
export { startFakeOpenAIServer, type FakeOpenAIModel, type FakeOpenAIOptions } from './openaiServer';
export { startFakeOllamaServer, type FakeOllamaModel, type FakeOllamaOptions } from './ollamaServer';
export { loadTranscript, parseTranscript, startTranscriptServer, WIRE_FIXTURES, type Transcript } from './transcript';
export { EMBED_PATHS, FAKE_EMBEDDING_DIMS, embedRequests, embeddedInputCount, fakeEmbedding } from './embeddings';
export type { FakeServerHandle, RecordedRequest } from './httpHarness';
export type { ChatBody, Fault, Script, ScriptStep, ScriptedReply, ScriptedToolCall } from './script';
