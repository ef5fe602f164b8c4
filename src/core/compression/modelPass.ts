// The LLM compression pass, sent as a continuation of the conversation itself: the same system prompt, the same
// tools and the same messages the server has just read (so its prompt cache serves all of them), then one user
// message asking for summaries of listed messages as JSON. The server reads only that request and the reply;
// a fresh conversation with tools of its own would make it read everything again, twice. Only when the
// conversation no longer fits the window with the request (a restored session, a window that shrank) is the pass
// a small request of its own that lists longer excerpts. At most `maxIterations` calls; the pass gives up (the
// deterministic fallback takes over) when the model errors, answers without usable JSON twice, or summarises
// nothing.
import { z } from 'zod';
import type { ChatMessage, ToolDefinition } from '../messages';
import { ProviderError, type ChatProvider, type ResponseFormat } from '../provider';
import { errorMessage } from '../../shared/format';
import { parseReply } from '../structured/structuredCall';
import { readDeltas } from '../streamDeltas';
import { estimateTokens } from '../tokens';
import { SummaryEdits } from './summaryEdits';
import { followUpRequest, standaloneRequest, type LaidOutRequest } from '../prompt/requestLayout';
import type { CompressionScope } from './scope';

export interface CompressionModel {
  provider: ChatProvider;
  model: string;
  /** Send the same num_ctx as the main calls: Ollama reloads the model when it changes. */
  contextSize?: number;
  /** The same thinking setting as the main calls: chat templates render the prompt differently without it. */
  think?: boolean;
  /** How the main calls turn messages into what is sent (the text tool protocol); the pass must send the same. */
  toRequest?: (messages: ChatMessage[]) => ChatMessage[];
}

export interface PassOptions {
  maxIterations: number;
  temperature: number;
  signal: AbortSignal;
  /** A server count for a request of `raw` estimated tokens (feeds calibration). */
  onUsage?: (raw: number, promptTokens: number) => void;
}

export interface PassRun {
  iterations: number;
  compressed: number;
  targetMet: boolean;
  /** Why the pass gave up, when it did. */
  failure?: string;
}

/** Opens the request; a test model (and a reader of the log) recognises a compression request by it. */
export const COMPRESSION_REQUEST_HEAD = '[Context compression request — not a new task]';

const INSTRUCTIONS = `${COMPRESSION_REQUEST_HEAD}
The conversation above no longer fits the context window. Do not continue the task and do not call tools now.
Reply with only a JSON object that summarises the messages listed below, for example:
{"summaries": [{"id": 3, "summary": "read_file note-03.txt: an invoice from March; nothing to change"}]}
- a tool result: one sentence of what mattered in it (a name, a value, an error, a decision);
- a user message: about 50 tokens (keep the request, intent and technical details);
- an assistant message: about 200 tokens (keep decisions, explanations and code changes).`;

/** Tokens the pass's own instructions add to the conversation. */
const INSTRUCTION_TOKENS = estimateTokens(INSTRUCTIONS);

const STANDALONE_SYSTEM =
  'You shrink the conversation history of a coding agent so it fits its context window. You are shown excerpts of older messages; summarise them as asked. Do not answer or continue that conversation.';

/**
 * The reply's shape, sent as the request's response format (Ollama `format`, OpenAI-compatible `response_format`):
 * servers that constrain decoding make a model that would rather call a tool write the summaries. It is a request
 * option, not prompt text: the conversation prefix the server holds is unchanged.
 */
export const SUMMARIES_FORMAT: ResponseFormat = {
  name: 'compression_summaries',
  schema: {
    type: 'object',
    properties: {
      summaries: {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'integer' }, summary: { type: 'string' } }, required: ['id', 'summary'] },
      },
    },
    required: ['summaries'],
  },
};

const RETRY = 'That reply could not be used: answer with only the JSON object {"summaries": [{"id": <number>, "summary": "<text>"}]}, nothing else.';
const MAX_STRIKES = 2;
/** Room a listing needs to be worth a call (a handful of lines). */
const MIN_LISTING_TOKENS = 100;
const MAX_LISTING_TOKENS = 1200;

const idSchema = z.preprocess((v) => (typeof v === 'string' && /^\s*#?\d+\s*$/.test(v) ? Number(v.replace('#', '')) : v), z.number().int());
/** Weak models name the fields their own way and send numbers as text, or text as numbers. */
const itemSchema = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const r = raw as Record<string, unknown>;
    const summary = r.summary ?? r.note ?? r.text ?? r.content;
    return { id: r.id ?? r.message ?? r.index, summary: typeof summary === 'number' ? String(summary) : summary };
  },
  z.object({ id: idSchema, summary: z.string() }),
);
/** `{"summaries": [...]}`; also a bare list, `messages` for `summaries`, and one object where a list was asked for. */
const replySchema = z.preprocess((raw) => {
  if (Array.isArray(raw)) return { summaries: raw };
  if (!raw || typeof raw !== 'object') return raw;
  const r = raw as Record<string, unknown>;
  const list = r.summaries ?? r.messages;
  return { summaries: Array.isArray(list) ? list : list && typeof list === 'object' ? [list] : list };
}, z.object({ summaries: z.array(z.unknown()) }));

export async function runModelPass(scope: CompressionScope, model: CompressionModel, options: PassOptions): Promise<PassRun> {
  const edits = new SummaryEdits(scope);
  const replyReserve = Math.max(256, Math.floor(scope.window * 0.1));
  // What the server holds: the request this round would have sent. It stays the prefix of every call of the pass.
  const conversation = scope.messages();
  // The scope's meter counts the same raw estimate and has the conversation and its tools cached already. No tools
  // is 0 without asking it: that would displace the tools it keeps for the scope's own measure.
  const tokensOf = (tools: readonly ToolDefinition[], ...lists: ReadonlyArray<readonly ChatMessage[]>) =>
    lists.reduce((n, list) => n + scope.meter.messages(list), tools.length ? scope.meter.tools(tools) : 0);
  // Room for the listing in estimator tokens: the window is the server's count, so what is sent is calibrated
  // first (near the edge of a small window a raw estimate a few percent short is a request over it).
  const roomFor = (raw: number) => Math.floor((scope.window - replyReserve) / scope.factor) - raw - INSTRUCTION_TOKENS;
  const continuation = roomFor(tokensOf(scope.tools, conversation)) >= MIN_LISTING_TOKENS;
  // A continuation follows the request the server holds (its messages and tools); else a request of its own.
  const prior: LaidOutRequest = continuation ? { messages: conversation, tools: scope.tools } : { messages: standaloneRequest(STANDALONE_SYSTEM), tools: [] };
  const { messages: base, tools } = prior;
  const appended: ChatMessage[] = [];
  const run: PassRun = { iterations: 0, compressed: 0, targetMet: !scope.overTarget() };
  const asked = new Set<number>();
  let strikes = 0;
  let retry = false;

  while (!run.targetMet && run.iterations < options.maxIterations) {
    // Each call appends to the last, so the room for a listing is what the window has left. A request of its own
    // starts over when it runs out of room (it is small; there is no conversation prefix to keep).
    let room = roomFor(tokensOf(tools, base, appended));
    if (room < MIN_LISTING_TOKENS && !continuation && appended.length > 0) {
      appended.length = 0;
      room = roomFor(tokensOf(tools, base));
    }
    if (room < MIN_LISTING_TOKENS) return run.iterations > 0 ? run : { ...run, failure: 'the summarising request does not fit the window' };
    const listing = edits.listing(Math.min(MAX_LISTING_TOKENS, room), asked, continuation ? 'brief' : 'standalone');
    if (!retry && listing.ids.length === 0) return run; // nothing left for the model to do
    const text = retry ? RETRY : `${appended.length === 0 ? INSTRUCTIONS : 'Applied. Summarise these too, the same way:'}\n${edits.status()}\nMessages (oldest first):\n${listing.text}`;
    const ask: ChatMessage = { role: 'user', content: text };
    const request = followUpRequest(prior, [...appended, ask]);
    const raw = tokensOf(tools, base, appended, [ask]);
    run.iterations++;
    let reply: string;
    try {
      reply = await callModel(model, request.messages, request.tools, continuation, options, raw);
    } catch (err) {
      if (options.signal.aborted) throw err;
      return { ...run, failure: `the model failed: ${errorMessage(err)}` };
    }
    appended.push(ask, { role: 'assistant', content: reply });
    const items = parseItems(reply);
    if (items.length === 0) {
      if (++strikes >= MAX_STRIKES) return { ...run, failure: 'the model answered without usable summaries' };
      retry = true;
      continue;
    }
    retry = false;
    strikes = 0;
    let applied = 0;
    for (const item of items) {
      asked.add(item.id); // answered: not listed again, whatever came of it
      if (edits.apply(item.id, item.summary).applied) applied++;
    }
    run.compressed += applied;
    run.targetMet = !scope.overTarget();
    if (applied === 0 && !run.targetMet) return { ...run, failure: 'the model’s summaries changed nothing' };
  }
  return run;
}

function parseItems(reply: string): Array<{ id: number; summary: string }> {
  const parsed = parseReply(reply, replySchema);
  if (!parsed.ok) return [];
  return parsed.value.summaries.flatMap((item) => {
    const one = itemSchema.safeParse(item);
    return one.success ? [one.data] : [];
  });
}

/** Servers that refused the response format next to tools (some llama.cpp builds: "Cannot use custom grammar constraints with tools"). */
const refusesFormat = new WeakSet<ChatProvider>();

function rejectsFormat(err: unknown): boolean {
  if (!(err instanceof ProviderError) || err.kind !== 'http') return false;
  const status = err.options.status ?? 0;
  return status >= 400 && status < 500 && /grammar|schema|response_format|\bformat\b/i.test(err.message) && !/context|exceed|too long/i.test(err.message);
}

async function callModel(
  model: CompressionModel,
  messages: ChatMessage[],
  tools: readonly ToolDefinition[],
  continuation: boolean,
  options: PassOptions,
  raw: number,
): Promise<string> {
  const constrained = !refusesFormat.has(model.provider);
  try {
    return await streamPass(model, messages, tools, continuation, options, raw, constrained);
  } catch (err) {
    if (!constrained || options.signal.aborted || !rejectsFormat(err)) throw err;
    // Asked again as before (the instructions still ask for the JSON), and not constrained again on this server.
    refusesFormat.add(model.provider);
    return streamPass(model, messages, tools, continuation, options, raw, false);
  }
}

async function streamPass(
  model: CompressionModel,
  messages: ChatMessage[],
  tools: readonly ToolDefinition[],
  continuation: boolean,
  options: PassOptions,
  raw: number,
  constrained: boolean,
): Promise<string> {
  let text = '';
  const stream = model.provider.chat({
    model: model.model,
    messages: continuation && model.toRequest ? model.toRequest(messages) : messages,
    // The conversation's own tools, unchanged: they are part of the prefix the server holds.
    tools,
    signal: options.signal,
    temperature: options.temperature,
    ...(constrained && { responseFormat: SUMMARIES_FORMAT }),
    ...(model.contextSize !== undefined && { contextSize: model.contextSize }),
    ...(model.think !== undefined && { think: model.think }),
  });
  await readDeltas(stream, {
    text: (piece) => (text += piece),
    usage: (usage) => {
      if (usage.promptTokens > 0) options.onUsage?.(raw, usage.promptTokens);
    },
  });
  return text;
}
