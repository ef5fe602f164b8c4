// A fake Ollama server speaking `/api/chat` NDJSON as documented in Ollama's docs/api.md, plus
// `/api/tags`, `/api/show`, `/api/ps` and `/api/version`.
import { answerOllamaEmbed } from './embeddings';
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

export interface FakeOllamaModel {
  name: string;
  /** Reported as `model_info["<arch>.context_length"]`. */
  contextLength: number;
  /** e.g. ['completion', 'tools', 'thinking']. */
  capabilities: string[];
  /** `general.architecture`; default 'qwen3'. */
  architecture?: string;
}

export interface FakeOllamaOptions {
  /** Named in the "script ran out" error. */
  name?: string;
  /** Its waits run this many times faster, on the same time-lapse clock as the client (test/helpers/timeLapse.ts). */
  timeLapse?: number;
  /** Validate the conversation as vLLM / OpenAI do (badReplies.ts): a malformed one gets 400 with the reason. */
  strict?: boolean;
  /**
   * Installed models. When given, unknown names get Ollama's 404, `think: true` on a model without
   * 'thinking' and tools on a model without 'tools' get its 400. When omitted every name is accepted
   * as a model with context 131072 and capabilities completion, tools, thinking.
   */
  models?: FakeOllamaModel[];
  /**
   * `context_length` in `/api/ps` (the window the loaded model really runs, whatever num_ctx asked for):
   * one number for every model, or per model name. Absent or undefined: the field is left out, like
   * Ollama before it reported it. A model is listed only once a chat request used it.
   */
  runningContext?: number | ((model: string) => number | undefined);
  /**
   * `/api/embed`: the models that can embed (see embeddings.ts for the vectors). Absent: every name can.
   * Others answer like Ollama: an installed chat model (in `models`) 400 "does not support embeddings",
   * anything else 404 "not found, try pulling it first". `[]`: no embedding model at all.
   */
  embeddingModels?: string[];
  /**
   * The loaded model's prompt cache (default: on, no waiting; the reused count reported in
   * `prompt_eval_cached_count` as newer Ollama does; `reportCached: false` is an older Ollama).
   */
  promptCache?: PromptCacheOptions;
  /**
   * A prompt longer than the request's `num_ctx`: newer Ollama refuses it with a 400 when asked to
   * (`truncate: false` and `shift: false`), otherwise cuts it silently (the fake then answers as usual). Default off:
   * the fake does not check prompt length at all.
   */
  checkContext?: boolean;
  /** An older server or a strict proxy: a body with `truncate` or `shift` gets a 400 naming the field. */
  rejectOverflowFields?: boolean;
  /**
   * Apply `format` as Ollama does (a grammar from the JSON schema, or plain JSON for "json"): the reply is JSON of
   * the schema whatever the script wanted to write (grammar.ts). Default off: the field is ignored.
   */
  appliesResponseFormat?: boolean;
}

/** Ollama's words for a prompt it will not fit (llm/server.go, context shift off). */
export const OLLAMA_PROMPT_TOO_LONG =
  'the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length';

const NDJSON_HEADERS = { 'content-type': 'application/x-ndjson' };

export async function startFakeOllamaServer(script: Script, options: FakeOllamaOptions = {}): Promise<FakeServerHandle> {
  const player = new ScriptPlayer(script, options.name ?? 'ollama');
  const findModel = (name: unknown): FakeOllamaModel | undefined => {
    if (typeof name !== 'string') return undefined;
    if (!options.models) return { name, contextLength: 131072, capabilities: ['completion', 'tools', 'thinking'] };
    return options.models.find((m) => m.name === name || m.name === `${name}:latest`);
  };
  const loaded = new Map<string, FakeOllamaModel>();
  const cache = new PromptCacheModel(options.promptCache);
  const harness = await startHarness(async ({ path, method, body, reply }) => {
    if (method === 'POST' && path === '/api/chat') {
      if (!isObject(body)) {
        reply.json(400, { error: 'invalid JSON body' });
        return;
      }
      harness.recordChat(body);
      const problem = options.strict ? conversationProblem(body, 'ollama') : undefined;
      if (problem) {
        refuseConversation(reply, problem, 'ollama');
        return;
      }
      const model = findModel(body.model);
      if (!model) {
        reply.json(404, { error: `model "${String(body.model)}" not found, try pulling it first` });
        return;
      }
      if (body.think === true && !model.capabilities.includes('thinking')) {
        reply.json(400, { error: `"${model.name}" does not support thinking` });
        return;
      }
      if (Array.isArray(body.tools) && body.tools.length > 0 && !model.capabilities.includes('tools')) {
        reply.json(400, { error: `registry.ollama.ai/library/${model.name} does not support tools` });
        return;
      }
      if (options.rejectOverflowFields && ('truncate' in body || 'shift' in body)) {
        reply.json(400, { error: `json: unknown field "${'truncate' in body ? 'truncate' : 'shift'}"` });
        return;
      }
      const numCtx = isObject(body.options) && typeof body.options.num_ctx === 'number' ? body.options.num_ctx : undefined;
      if (options.checkContext && numCtx !== undefined && body.truncate === false && body.shift === false && roughPromptTokens(body) >= numCtx) {
        reply.json(400, { error: OLLAMA_PROMPT_TOO_LONG });
        return;
      }
      loaded.set(model.name, model);
      const next = player.next(body);
      if ('outOfScript' in next) {
        reply.json(500, { error: next.outOfScript });
        return;
      }
      const schema = options.appliesResponseFormat ? requestedSchema(body, 'ollama') : undefined;
      if (schema) next.reply = constrainReply(next.reply, schema);
      const prompt = next.reply.usage?.prompt ?? roughPromptTokens(body);
      const processing = next.reply.fault === 'http500' ? cache.refused(prompt) : cache.process(body, prompt);
      await answerChat(reply, body, next.reply, processing, cache);
      return;
    }
    if (method === 'GET' && path === '/api/tags') {
      const models = options.models ?? [];
      reply.json(200, { models: models.map(tagEntry) });
      return;
    }
    if (method === 'POST' && path === '/api/show') {
      const name = isObject(body) ? (body.model ?? body.name) : undefined;
      const model = findModel(name);
      if (!model) {
        reply.json(404, { error: `model '${String(name)}' not found` });
        return;
      }
      reply.json(200, showResponse(model));
      return;
    }
    if (method === 'GET' && path === '/api/ps') {
      reply.json(200, { models: [...loaded.values()].map((m) => psEntry(m, options.runningContext)) });
      return;
    }
    if (method === 'POST' && path === '/api/embed') {
      const isChatModel = (name: string) => !!options.models && !!findModel(name);
      answerOllamaEmbed(reply, body, { ...(options.embeddingModels && { embeddingModels: options.embeddingModels }), isChatModel });
      return;
    }
    if (method === 'GET' && path === '/api/version') {
      reply.json(200, { version: '0.12.6' });
      return;
    }
    reply.res.writeHead(404, { 'content-type': 'text/plain' });
    reply.res.end('404 page not found');
  }, '', options.timeLapse);
  return Object.assign(harness.handle, { promptCache: cache });
}

async function answerChat(reply: ReplyWriter, body: ChatBody, script: ScriptedReply, processing: PromptProcessing, cache: PromptCacheModel): Promise<void> {
  await reply.sleep((script.delayMs ?? 0) + processing.promptMs);
  if (reply.gone) return;
  if (script.fault === 'http500') {
    reply.json(script.status ?? 500, { error: script.errorMessage ?? 'scripted server error' }, errorHeaders(script));
    return;
  }
  if (answerBadReply(reply, script, 'ollama')) return;
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const lines = messageLines(script, model);
  const done = (message?: Record<string, unknown>) => doneLine(script, model, processing, cache, message);
  await reply.sleep(cache.generationMs(script.usage?.completion ?? roughCompletionTokens(script)));
  if (body.stream === false || script.fault === 'not_streamed') {
    reply.json(200, done(wholeMessage(script)));
    return;
  }
  reply.res.writeHead(200, NDJSON_HEADERS);
  reply.res.flushHeaders();
  if (script.fault === 'empty') {
    reply.end();
    return;
  }
  for (const line of lines) {
    await reply.sleep(script.chunkDelayMs ?? 0);
    if (reply.gone) return;
    reply.write(JSON.stringify(line) + '\n');
  }
  switch (script.fault) {
    case 'midstream_error':
      reply.write(JSON.stringify({ error: script.errorMessage ?? 'scripted mid-stream error' }) + '\n');
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
  reply.write(JSON.stringify(done()) + '\n');
  reply.end();
}

function messageLines(script: ScriptedReply, model: string): Array<Record<string, unknown>> {
  const size = script.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const line = (message: Record<string, unknown>) => ({
    model,
    created_at: new Date().toISOString(),
    message: { role: 'assistant', content: '', ...message },
    done: false,
  });
  const lines: Array<Record<string, unknown>> = [];
  let content = script.text ?? '';
  if (script.thinking && script.thinkTags) content = `<think>${script.thinking}</think>${content}`;
  else if (script.thinking) for (const piece of splitPieces(script.thinking, size)) lines.push(line({ thinking: piece }));
  for (const piece of splitPieces(content, size)) lines.push(line({ content: piece }));
  if (script.toolCalls?.length) {
    lines.push(
      line({
        tool_calls: script.toolCalls.map((call, index) => ({
          ...(call.id && { id: call.id }),
          function: {
            index,
            name: call.name,
            arguments: script.stringArguments || typeof call.arguments === 'string' ? argumentsText(call.arguments) : call.arguments,
          },
        })),
      }),
    );
  }
  return lines;
}

/** The final line: Ollama counts the whole prompt in `prompt_eval_count`; newer versions add the reused part. */
function doneLine(
  script: ScriptedReply,
  model: string,
  p: PromptProcessing,
  cache: PromptCacheModel,
  message: Record<string, unknown> = { role: 'assistant', content: '' },
): Record<string, unknown> {
  const completion = script.usage?.completion ?? roughCompletionTokens(script);
  const promptNs = Math.round(Math.max(0.01, p.promptMs) * 1e6);
  const evalNs = Math.round(Math.max(0.01, cache.generationMs(completion)) * 1e6);
  return {
    model,
    created_at: new Date().toISOString(),
    message,
    done_reason: script.finishReason ?? 'stop',
    done: true,
    total_duration: 1_334_875 + promptNs + evalNs,
    load_duration: 1_334_875,
    prompt_eval_count: p.promptTokens,
    ...(cache.reportsCached && { prompt_eval_cached_count: p.cachedTokens }),
    prompt_eval_duration: promptNs,
    eval_count: completion,
    eval_duration: evalNs,
  };
}

function wholeMessage(script: ScriptedReply): Record<string, unknown> {
  let content = script.text ?? '';
  if (script.thinking && script.thinkTags) content = `<think>${script.thinking}</think>${content}`;
  const message: Record<string, unknown> = { role: 'assistant', content };
  if (script.thinking && !script.thinkTags) message.thinking = script.thinking;
  if (script.toolCalls?.length) {
    message.tool_calls = script.toolCalls.map((call, index) => ({
      ...(call.id && { id: call.id }),
      function: { index, name: call.name, arguments: script.stringArguments ? argumentsText(call.arguments) : call.arguments },
    }));
  }
  return message;
}

function tagEntry(m: FakeOllamaModel): Record<string, unknown> {
  return {
    name: m.name,
    model: m.name,
    modified_at: '2025-05-04T17:37:44.706015396-07:00',
    size: 5_225_388_164,
    digest: 'fake-digest-' + m.name.replace(/[^a-z0-9]/gi, ''),
    details: detailsOf(m),
  };
}

function detailsOf(m: FakeOllamaModel): Record<string, unknown> {
  const family = m.architecture ?? 'qwen3';
  return { parent_model: '', format: 'gguf', family, families: [family], parameter_size: '8.2B', quantization_level: 'Q4_K_M' };
}

function psEntry(m: FakeOllamaModel, running: FakeOllamaOptions['runningContext']): Record<string, unknown> {
  const name = m.name.includes(':') ? m.name : `${m.name}:latest`;
  const contextLength = typeof running === 'function' ? running(m.name) : running;
  return {
    name,
    model: name,
    size: 6_654_289_920,
    digest: 'fake-digest-' + m.name.replace(/[^a-z0-9]/gi, ''),
    details: detailsOf(m),
    expires_at: new Date(Date.now() + 5 * 60_000).toISOString(),
    size_vram: 6_654_289_920,
    ...(contextLength !== undefined && { context_length: contextLength }),
  };
}

function showResponse(m: FakeOllamaModel): Record<string, unknown> {
  const arch = m.architecture ?? 'qwen3';
  return {
    license: '',
    modelfile: `FROM ${m.name}`,
    parameters: 'temperature 0.6',
    template: '{{ .Prompt }}',
    details: detailsOf(m),
    model_info: {
      'general.architecture': arch,
      'general.parameter_count': 8_190_735_360,
      [`${arch}.context_length`]: m.contextLength,
      [`${arch}.embedding_length`]: 4096,
    },
    capabilities: m.capabilities,
    modified_at: '2025-05-04T17:37:44.706015396-07:00',
  };
}
