// A fake OpenAI-compatible server that answers like llama.cpp's `llama-server` (see the recorded
// transcripts in test/fixtures/wire/openai-compatible/), plus LM Studio's `/api/v0/models`.
import { randomBytes } from 'node:crypto';
import { answerOpenAIEmbed } from './embeddings';
import { answerBadReply, conversationProblem, errorHeaders, refuseConversation } from './badReplies';
import { isObject, startHarness, type FakeServerHandle, type ReplyWriter } from './httpHarness';
import { constrainReply, requestedSchema } from './grammar';
import { PromptCacheModel, type PromptCacheOptions, type PromptProcessing } from './promptCache';
import {
  DEFAULT_CHUNK_SIZE,
  ScriptPlayer,
  argumentsText,
  roughCompletionTokens,
  roughPromptTokens,
  splitPieces,
  type ChatBody,
  type Script,
  type ScriptedReply,
} from './script';

export interface FakeOpenAIModel {
  id: string;
  /** LM Studio `max_context_length`. */
  maxContextLength?: number;
  /** LM Studio `loaded_context_length`; absent = the model is not loaded. */
  loadedContextLength?: number;
  /** LM Studio lists a model that takes images with `type: "vlm"`. */
  vision?: boolean;
}

export interface FakeOpenAIOptions {
  /** Named in the "script ran out" error. */
  name?: string;
  /** Its waits run this many times faster, on the same time-lapse clock as the client (test/helpers/timeLapse.ts). */
  timeLapse?: number;
  /** Validate the conversation as vLLM / OpenAI do (badReplies.ts): a malformed one gets 400 with the reason. */
  strict?: boolean;
  /** Default: one model "tiny" (max 32768, loaded with 4096). */
  models?: FakeOpenAIModel[];
  /** Serve LM Studio's `/api/v0/models` (default true); false answers 404 like llama-server. */
  lmStudioApi?: boolean;
  /** Serve llama-server's `/props` with this `n_ctx` (default: 404). */
  llamaCppContext?: number;
  /** llama-server's `build_info` in `/props`. */
  llamaCppBuild?: string;
  /**
   * Answer like vLLM: `/version` with this version, `max_model_len` (the loaded context) in `/v1/models`, and a 400
   * for a request whose prompt plus `max_tokens` exceeds it.
   */
  vllmVersion?: string;
  /**
   * `/v1/embeddings`: the models that can embed. Absent: every name can. Others: a model in `models`
   * answers 400 "is not an embedding model", anything else 404 "not found". `[]`: no embedding model at all.
   */
  embeddingModels?: string[];
  /** List `/v1/embeddings` results last input first, as llama.cpp may (clients must sort by `index`). */
  embeddingsReversed?: boolean;
  /**
   * The server's prompt cache (default: on, one slot, no waiting, reused counts reported as llama.cpp does in
   * `usage.prompt_tokens_details.cached_tokens` and `timings.cache_n`). `reportCached: false` is LM Studio.
   */
  promptCache?: PromptCacheOptions;
  /**
   * llama.cpp's `return_progress`: a request that asks for it gets a `prompt_progress` chunk after each batch of this
   * many tokens it reads (llama-server's `-b`), before the reply. Default 512.
   */
  progressBatchTokens?: number;
  /**
   * Apply `response_format` as llama-server does (a grammar from the JSON schema): the reply is JSON of the schema
   * whatever the script wanted to write (grammar.ts). Default off: the field is ignored, like a server without it.
   */
  appliesResponseFormat?: boolean;
}

const FINGERPRINT = 'b1-80fb11a';
const SSE_HEADERS = {
  'access-control-allow-origin': '',
  'content-type': 'text/event-stream',
  'keep-alive': 'timeout=5, max=100',
  server: 'llama.cpp',
  'x-accel-buffering': 'no',
};

export async function startFakeOpenAIServer(script: Script, options: FakeOpenAIOptions = {}): Promise<FakeServerHandle> {
  const player = new ScriptPlayer(script, options.name ?? 'openai');
  const models = options.models ?? [{ id: 'tiny', maxContextLength: 32768, loadedContextLength: 4096 }];
  const cache = new PromptCacheModel(options.promptCache);
  const harness = await startHarness(async ({ path, method, body, reply }) => {
    if (method === 'POST' && path === '/v1/chat/completions') {
      if (!isObject(body)) {
        reply.json(400, { error: { code: 400, message: 'request body is not a JSON object', type: 'invalid_request_error' } });
        return;
      }
      harness.recordChat(body);
      const problem = options.strict ? conversationProblem(body, 'openai') : undefined;
      if (problem) {
        refuseConversation(reply, problem, 'openai');
        return;
      }
      const overLength = options.vllmVersion ? vllmLengthProblem(body, models) : undefined;
      if (overLength) {
        // vLLM validates before it schedules: a prompt plus max_tokens past max_model_len is a 400, nothing generated
        // and the model never sees it (the script does not move on).
        reply.json(400, { object: 'error', message: overLength, type: 'BadRequestError', param: null, code: 400 });
        return;
      }
      const next = player.next(body);
      if ('outOfScript' in next) {
        reply.json(500, { error: { code: 500, message: next.outOfScript, type: 'server_error' } });
        return;
      }
      const schema = options.appliesResponseFormat ? requestedSchema(body, 'openai') : undefined;
      if (schema) next.reply = constrainReply(next.reply, schema);
      // A request the server refuses is never read into the cache.
      const prompt = next.reply.usage?.prompt ?? roughPromptTokens(body);
      if (next.reply.fault === 'http500') {
        await answerChat(reply, body, next.reply, cache.refused(prompt), cache, options.progressBatchTokens ?? 512);
        return;
      }
      // The slot is held until the reply ends (or the client leaves), as llama-server's is.
      const slot = await cache.claim(body);
      try {
        await answerChat(reply, body, next.reply, cache.process(body, prompt, slot), cache, options.progressBatchTokens ?? 512);
      } finally {
        cache.release(slot);
      }
      return;
    }
    if (method === 'POST' && path === '/v1/embeddings') {
      const isChatModel = (name: string) => models.some((m) => m.id === name);
      answerOpenAIEmbed(reply, body, {
        ...(options.embeddingModels && { embeddingModels: options.embeddingModels }),
        isChatModel,
        reversed: options.embeddingsReversed === true,
      });
      return;
    }
    if (method === 'GET' && path === '/v1/models') {
      reply.json(200, {
        object: 'list',
        data: models.map((m) => ({
          id: m.id,
          object: 'model',
          created: 1795653552,
          owned_by: options.vllmVersion ? 'vllm' : 'organization_owner',
          ...(options.vllmVersion && m.loadedContextLength && { root: m.id, max_model_len: m.loadedContextLength }),
        })),
      });
      return;
    }
    if (method === 'GET' && path === '/api/v0/models' && options.lmStudioApi !== false) {
      reply.json(200, { object: 'list', data: models.map(lmStudioEntry) });
      return;
    }
    if (method === 'GET' && path === '/props' && options.llamaCppContext !== undefined) {
      reply.json(200, {
        default_generation_settings: { n_ctx: options.llamaCppContext, temperature: 0.8 },
        total_slots: options.promptCache?.slots ?? 1,
        model_path: `/models/${models[0]?.id ?? 'tiny'}.gguf`,
        ...(options.llamaCppBuild && { build_info: options.llamaCppBuild }),
      });
      return;
    }
    if (method === 'GET' && path === '/slots' && options.llamaCppContext !== undefined) {
      reply.json(200, cache.slotList(options.llamaCppContext));
      return;
    }
    if (method === 'GET' && path === '/version' && options.vllmVersion) {
      reply.json(200, { version: options.vllmVersion });
      return;
    }
    reply.json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
  }, '/v1', options.timeLapse);
  return Object.assign(harness.handle, { promptCache: cache });
}

function lmStudioEntry(m: FakeOpenAIModel): Record<string, unknown> {
  return {
    id: m.id,
    object: 'model',
    type: m.vision ? 'vlm' : 'llm',
    publisher: 'fake',
    arch: 'qwen2',
    compatibility_type: 'gguf',
    quantization: 'Q4_K_M',
    state: m.loadedContextLength ? 'loaded' : 'not-loaded',
    max_context_length: m.maxContextLength ?? 32768,
    ...(m.loadedContextLength && { loaded_context_length: m.loadedContextLength }),
  };
}

async function answerChat(reply: ReplyWriter, body: ChatBody, script: ScriptedReply, processing: PromptProcessing, cache: PromptCacheModel, batch: number): Promise<void> {
  const progress = body.stream === true && body.return_progress === true && script.fault === undefined;
  await reply.sleep((script.delayMs ?? 0) + (progress ? 0 : processing.promptMs));
  if (progress) await streamProgress(reply, body, processing, batch);
  if (reply.gone) return;
  if (script.fault === 'http500') {
    const status = script.status ?? 500;
    reply.json(
      status,
      { error: { code: status, message: script.errorMessage ?? 'scripted server error', type: status >= 500 ? 'server_error' : 'invalid_request_error' } },
      errorHeaders(script),
    );
    return;
  }
  if (answerBadReply(reply, script, 'openai')) return;
  const pieces = deltaPieces(script);
  const completion = script.usage?.completion ?? roughCompletionTokens(script);
  if (body.stream !== true || script.fault === 'not_streamed') {
    await reply.sleep(cache.generationMs(completion));
    reply.json(200, completionObject(body, script, processing, cache));
    return;
  }
  if (!reply.res.headersSent) {
    reply.res.writeHead(200, SSE_HEADERS);
    reply.res.flushHeaders();
  }
  if (script.fault === 'empty') {
    reply.end();
    return;
  }
  const frame = chunkFrame(body);
  await reply.sleep(cache.generationMs(completion));
  const send = (payload: unknown) => reply.write(`data: ${JSON.stringify(payload)}\n\n`);
  send(frame({ role: 'assistant', content: null }, null));
  for (const delta of pieces) {
    await reply.sleep(script.chunkDelayMs ?? 0);
    if (reply.gone) return;
    send(frame(delta, null));
  }
  switch (script.fault) {
    case 'midstream_error':
      send({ error: { code: 500, message: script.errorMessage ?? 'scripted mid-stream error', type: 'server_error' } });
      reply.end();
      return;
    case 'cut':
      reply.end();
      return;
    case 'reset':
      reply.reset();
      return;
    case 'hang':
      await reply.untilGone();
      return;
  }
  const finishReason = script.finishReason ?? (script.toolCalls?.length ? 'tool_calls' : 'stop');
  send(frame({}, finishReason));
  const options = body.stream_options;
  if (isObject(options) && options.include_usage === true) {
    const usage = usageOf(processing, completion, cache);
    send({ ...frame(null, null), choices: [], usage, ...(cache.reportsCached && { timings: timingsOf(processing, completion, cache) }) });
  }
  reply.write('data: [DONE]\n\n');
  reply.end();
}

/**
 * llama.cpp reads a prompt in batches and, asked for `return_progress`, sends a chunk after each: the empty opening
 * delta with `prompt_progress` {total, cache, processed, time_ms} (counts include the cached prefix).
 */
async function streamProgress(reply: ReplyWriter, body: ChatBody, p: PromptProcessing, batch: number): Promise<void> {
  reply.res.writeHead(200, SSE_HEADERS);
  reply.res.flushHeaders();
  const frame = chunkFrame(body);
  const perToken = p.processedTokens > 0 ? p.promptMs / p.processedTokens : 0;
  let read = 0;
  do {
    const step = Math.min(batch, p.processedTokens - read);
    await reply.sleep(step * perToken);
    if (reply.gone) return;
    read += step;
    const prompt_progress = { total: p.promptTokens, cache: p.cachedTokens, processed: p.cachedTokens + read, time_ms: Math.round(read * perToken) };
    reply.write(`data: ${JSON.stringify({ ...frame({ role: 'assistant', content: null }, null), prompt_progress })}\n\n`);
  } while (read < p.processedTokens);
}

/** Every delta after the opening `{role, content: null}` one, in llama.cpp's order. */
function deltaPieces(script: ScriptedReply): Array<Record<string, unknown>> {
  const size = script.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const deltas: Array<Record<string, unknown>> = [];
  let content = script.text ?? '';
  if (script.thinking && script.thinkTags) content = `<think>${script.thinking}</think>${content}`;
  else if (script.thinking) {
    const field = script.reasoningField ?? 'reasoning_content';
    for (const piece of splitPieces(script.thinking, size)) deltas.push({ [field]: piece });
  }
  for (const piece of splitPieces(content, size)) deltas.push({ content: piece });
  (script.toolCalls ?? []).forEach((call, index) => {
    const args = argumentsText(call.arguments);
    const argPieces = script.wholeArguments ? [args] : splitPieces(args, size);
    const id = call.id ?? randomBytes(16).toString('base64url').slice(0, 32);
    deltas.push({
      tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: argPieces[0] ?? '' } }],
    });
    for (const piece of argPieces.slice(1)) deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  return deltas;
}

function chunkFrame(body: ChatBody): (delta: Record<string, unknown> | null, finishReason: string | null) => Record<string, unknown> {
  const id = `chatcmpl-${randomBytes(24).toString('base64url').slice(0, 32)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof body.model === 'string' ? body.model : 'tiny';
  return (delta, finishReason) => ({
    choices: delta ? [{ finish_reason: finishReason, index: 0, delta }] : [],
    created,
    id,
    model,
    system_fingerprint: FINGERPRINT,
    object: 'chat.completion.chunk',
  });
}

/** llama.cpp's usage: the whole prompt, and the part reused from the cache (LM Studio leaves the details out). */
function usageOf(p: PromptProcessing, completion: number, cache: PromptCacheModel): Record<string, unknown> {
  const usage: Record<string, unknown> = { completion_tokens: completion, prompt_tokens: p.promptTokens, total_tokens: p.promptTokens + completion };
  if (cache.reportsCached) usage.prompt_tokens_details = { cached_tokens: p.cachedTokens };
  return usage;
}

/** llama.cpp's `timings` (the recorded usage chunk carries them): cache_n reused, prompt_n read. */
function timingsOf(p: PromptProcessing, completion: number, cache: PromptCacheModel): Record<string, unknown> {
  const promptMs = Math.max(0.01, p.promptMs);
  const predictedMs = Math.max(0.01, cache.generationMs(completion));
  return {
    cache_n: p.cachedTokens,
    prompt_n: p.processedTokens,
    prompt_ms: promptMs,
    prompt_per_token_ms: promptMs / Math.max(1, p.processedTokens),
    prompt_per_second: (p.processedTokens * 1000) / promptMs,
    predicted_n: completion,
    predicted_ms: predictedMs,
    predicted_per_token_ms: predictedMs / Math.max(1, completion),
    predicted_per_second: (completion * 1000) / predictedMs,
  };
}

/** The `stream: false` shape (see agentmode.tools_req_nostream.txt). */
function completionObject(body: ChatBody, script: ScriptedReply, processing: PromptProcessing, cache: PromptCacheModel): Record<string, unknown> {
  let content = script.text ?? '';
  if (script.thinking && script.thinkTags) content = `<think>${script.thinking}</think>${content}`;
  const message: Record<string, unknown> = { role: 'assistant', content };
  if (script.thinking && !script.thinkTags) message[script.reasoningField ?? 'reasoning_content'] = script.thinking;
  if (script.toolCalls?.length) {
    message.tool_calls = script.toolCalls.map((c) => ({
      type: 'function',
      function: { name: c.name, arguments: argumentsText(c.arguments) },
      id: c.id ?? randomBytes(16).toString('base64url').slice(0, 32),
    }));
  }
  const finishReason = script.finishReason ?? (script.toolCalls?.length ? 'tool_calls' : 'stop');
  return {
    choices: [{ finish_reason: finishReason, index: 0, message }],
    created: Math.floor(Date.now() / 1000),
    model: typeof body.model === 'string' ? body.model : 'tiny',
    system_fingerprint: FINGERPRINT,
    object: 'chat.completion',
    usage: usageOf(processing, script.usage?.completion ?? roughCompletionTokens(script), cache),
    id: `chatcmpl-${randomBytes(24).toString('base64url').slice(0, 32)}`,
    ...(cache.reportsCached && { timings: timingsOf(processing, script.usage?.completion ?? roughCompletionTokens(script), cache) }),
  };
}

/** vLLM's check of a request's length (its wording since 0.10): prompt tokens plus `max_tokens` must fit max_model_len. */
function vllmLengthProblem(body: Record<string, unknown>, models: readonly FakeOpenAIModel[]): string | undefined {
  const window = models.find((m) => m.id === body.model)?.loadedContextLength;
  const asked = typeof body.max_tokens === 'number' ? body.max_tokens : typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : undefined;
  if (!window || asked === undefined) return undefined;
  const prompt = roughPromptTokens(body);
  if (prompt + asked <= window) return undefined;
  return `'max_tokens' or 'max_completion_tokens' is too large: ${asked}. This model's maximum context length is ${window} tokens and your request has ${prompt} input tokens (${asked} > ${window} - ${prompt}).`;
}
