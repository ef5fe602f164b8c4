// A fake OpenAI-compatible server that answers like llama.cpp's `llama-server` (see the recorded
// transcripts in test/fixtures/wire/openai-compatible/), plus LM Studio's `/api/v0/models`.
import { randomBytes } from 'node:crypto';
import { answerOpenAIEmbed } from './embeddings';
import { isObject, startHarness, type FakeServerHandle, type ReplyWriter } from './httpHarness';
import {
  DEFAULT_CHUNK_SIZE,
  ScriptPlayer,
  argumentsText,
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
}

export interface FakeOpenAIOptions {
  /** Named in the "script ran out" error. */
  name?: string;
  /** Default: one model "tiny" (max 32768, loaded with 4096). */
  models?: FakeOpenAIModel[];
  /** Serve LM Studio's `/api/v0/models` (default true); false answers 404 like llama-server. */
  lmStudioApi?: boolean;
  /** Serve llama-server's `/props` with this `n_ctx` (default: 404). */
  llamaCppContext?: number;
  /**
   * `/v1/embeddings`: the models that can embed. Absent: every name can. Others: a model in `models`
   * answers 400 "is not an embedding model", anything else 404 "not found". `[]`: no embedding model at all.
   */
  embeddingModels?: string[];
  /** List `/v1/embeddings` results last input first, as llama.cpp may (clients must sort by `index`). */
  embeddingsReversed?: boolean;
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
  const harness = await startHarness(async ({ path, method, body, reply }) => {
    if (method === 'POST' && path === '/v1/chat/completions') {
      if (!isObject(body)) {
        reply.json(400, { error: { code: 400, message: 'request body is not a JSON object', type: 'invalid_request_error' } });
        return;
      }
      harness.recordChat(body);
      const next = player.next(body);
      if ('outOfScript' in next) {
        reply.json(500, { error: { code: 500, message: next.outOfScript, type: 'server_error' } });
        return;
      }
      await answerChat(reply, body, next.reply);
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
        data: models.map((m) => ({ id: m.id, object: 'model', created: 1795653552, owned_by: 'organization_owner' })),
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
        total_slots: 1,
        model_path: `/models/${models[0]?.id ?? 'tiny'}.gguf`,
      });
      return;
    }
    reply.json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
  }, '/v1');
  return harness.handle;
}

function lmStudioEntry(m: FakeOpenAIModel): Record<string, unknown> {
  return {
    id: m.id,
    object: 'model',
    type: 'llm',
    publisher: 'fake',
    arch: 'qwen2',
    compatibility_type: 'gguf',
    quantization: 'Q4_K_M',
    state: m.loadedContextLength ? 'loaded' : 'not-loaded',
    max_context_length: m.maxContextLength ?? 32768,
    ...(m.loadedContextLength && { loaded_context_length: m.loadedContextLength }),
  };
}

async function answerChat(reply: ReplyWriter, body: ChatBody, script: ScriptedReply): Promise<void> {
  await reply.sleep(script.delayMs ?? 0);
  if (reply.gone) return;
  if (script.fault === 'http500') {
    const status = script.status ?? 500;
    reply.json(status, {
      error: { code: status, message: script.errorMessage ?? 'scripted server error', type: status >= 500 ? 'server_error' : 'invalid_request_error' },
    });
    return;
  }
  if (body.stream !== true) {
    reply.json(200, completionObject(body, script));
    return;
  }
  reply.res.writeHead(200, SSE_HEADERS);
  reply.res.flushHeaders();
  if (script.fault === 'empty') {
    reply.end();
    return;
  }
  const frame = chunkFrame(body);
  const pieces = deltaPieces(script);
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
    const usage = usageOf(body, script, pieces.length);
    send({ ...frame(null, null), choices: [], usage });
  }
  reply.write('data: [DONE]\n\n');
  reply.end();
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

function usageOf(body: ChatBody, script: ScriptedReply, pieces: number): Record<string, unknown> {
  const prompt = script.usage?.prompt ?? roughPromptTokens(body);
  const completion = script.usage?.completion ?? pieces;
  return { completion_tokens: completion, prompt_tokens: prompt, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: 0 } };
}

/** The `stream: false` shape (see agentmode.tools_req_nostream.txt). */
function completionObject(body: ChatBody, script: ScriptedReply): Record<string, unknown> {
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
    usage: usageOf(body, script, 1),
    id: `chatcmpl-${randomBytes(24).toString('base64url').slice(0, 32)}`,
  };
}
