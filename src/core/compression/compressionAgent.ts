// The LLM compression pass: a small agent loop of its own over a ChatProvider, with the four compression
// tools and at most `maxIterations` model calls. It stops when the target is met, and gives up (so the
// deterministic fallback takes over) when the model errors, answers in prose, or makes no progress.
import type { ChatMessage, ToolCall } from '../messages';
import { ProviderError, type ChatProvider } from '../provider';
import { estimateMessagesTokens, estimateToolDefinitionTokens } from '../tokens';
import { COMPRESSION_TOOLS, CompressionTools, MIN_LISTED_TOKENS } from './agentTools';
import { shortenToolCalls } from './marker';
import type { CompressionScope } from './scope';

export interface CompressionModel {
  provider: ChatProvider;
  model: string;
  /** Send the same num_ctx as the main calls: Ollama reloads the model when it changes. */
  contextSize?: number;
}

export interface AgentRunOptions {
  maxIterations: number;
  temperature: number;
  signal: AbortSignal;
  /** A server count for a request of `raw` estimated tokens (feeds calibration). */
  onUsage?: (raw: number, promptTokens: number) => void;
}

export interface AgentRun {
  iterations: number;
  compressed: number;
  targetMet: boolean;
  /** Why the pass gave up, when it did. */
  failure?: string;
}

export const COMPRESSION_AGENT_PROMPT = `You shrink the conversation history of a coding agent so it fits the context window. Do not answer or continue that conversation; only call tools.
1. Call get_compression_metadata to see what may be compressed (oldest first, with ids).
2. Compress the oldest and largest messages first. compress_tool_result for tool results, with a short note of what mattered (a value, an error, a decision). compress_conversation_segment for user messages (about 50 tokens: keep the request, intent and technical details) and assistant messages (about 200 tokens: keep decisions, explanations and code changes).
3. Call verify_compression_target; stop when it says the target is met.`;

const MAX_STRIKES = 2;
const MAX_IDLE = 3;

export async function runCompressionAgent(scope: CompressionScope, model: CompressionModel, options: AgentRunOptions): Promise<AgentRun> {
  const window = scope.window;
  const replyReserve = Math.max(256, Math.floor(window * 0.2));
  const tools = new CompressionTools(scope, Math.max(200, Math.min(1500, Math.floor(window * 0.3))));
  const toolTokens = estimateToolDefinitionTokens(COMPRESSION_TOOLS);
  const messages: ChatMessage[] = [
    { role: 'system', content: COMPRESSION_AGENT_PROMPT },
    { role: 'user', content: `${tools.status()}\nStart with get_compression_metadata.` },
  ];
  const run: AgentRun = { iterations: 0, compressed: 0, targetMet: !scope.overTarget() };
  let strikes = 0;
  let idle = 0;

  while (!run.targetMet && run.iterations < options.maxIterations) {
    const request = fitRequest(messages, window - replyReserve - toolTokens);
    if (!request) return { ...run, failure: 'the compression agent’s own prompt does not fit the window' };
    run.iterations++;
    let reply: { text: string; calls: ToolCall[] };
    try {
      reply = await callModel(model, request, options, estimateMessagesTokens(request) + toolTokens);
    } catch (err) {
      if (options.signal.aborted) throw err;
      const why = err instanceof ProviderError ? err.message : err instanceof Error ? err.message : String(err);
      return { ...run, failure: `the model failed: ${why}` };
    }

    if (reply.calls.length === 0) {
      if (++strikes >= MAX_STRIKES) return { ...run, failure: 'the model answered without calling the compression tools' };
      messages.push({ role: 'assistant', content: reply.text });
      messages.push({ role: 'user', content: 'Call the compression tools (start with get_compression_metadata); do not answer in text.' });
      continue;
    }

    messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.calls });
    let valid = 0;
    let compressed = 0;
    for (const call of reply.calls) {
      const outcome = tools.run(call);
      if (outcome.valid) valid++;
      compressed += outcome.compressed;
      messages.push({ role: 'tool', content: outcome.content, toolCallId: call.id, toolName: call.name });
    }
    run.compressed += compressed;
    run.targetMet = !scope.overTarget();
    if (valid === 0) {
      if (++strikes >= MAX_STRIKES) return { ...run, failure: 'the model’s tool calls were unusable' };
    } else strikes = 0;
    if (compressed > 0) idle = 0;
    else if (++idle >= MAX_IDLE && !run.targetMet) return { ...run, failure: 'the model made no progress' };
    if (!run.targetMet && scope.candidates(MIN_LISTED_TOKENS).length === 0) return run; // nothing left for the model to do
  }
  return run;
}

async function callModel(
  model: CompressionModel,
  messages: ChatMessage[],
  options: AgentRunOptions,
  raw: number,
): Promise<{ text: string; calls: ToolCall[] }> {
  let text = '';
  const calls: ToolCall[] = [];
  const stream = model.provider.chat({
    model: model.model,
    messages,
    tools: COMPRESSION_TOOLS,
    signal: options.signal,
    temperature: options.temperature,
    ...(model.contextSize !== undefined && { contextSize: model.contextSize }),
  });
  for await (const delta of stream) {
    if (delta.type === 'text') text += delta.text;
    else if (delta.type === 'tool_call') calls.push(delta.call);
    else if (delta.type === 'usage' && delta.promptTokens > 0) options.onUsage?.(raw, delta.promptTokens);
  }
  return { text, calls };
}

/**
 * The agent's own conversation, trimmed to `budget` tokens: older tool outputs give way first (the agent can
 * ask again), then the summaries it already applied shrink to stubs. Undefined when even that does not fit.
 */
function fitRequest(messages: ChatMessage[], budget: number): ChatMessage[] | undefined {
  if (estimateMessagesTokens(messages) <= budget) return messages;
  const trimmed = messages.map((m) => ({ ...m }));
  const toolIdx = trimmed.map((m, i) => (m.role === 'tool' ? i : -1)).filter((i) => i >= 0);
  for (const keep of [2, 1, 0]) {
    for (const i of toolIdx.slice(0, Math.max(0, toolIdx.length - keep))) {
      trimmed[i]!.content = '(earlier output omitted; call the tool again if you need it)';
    }
    for (const m of trimmed) if (m.toolCalls) m.toolCalls = shortenToolCalls(m.toolCalls, 40);
    if (estimateMessagesTokens(trimmed) <= budget) {
      messages.splice(0, messages.length, ...trimmed); // keep the trimmed form: it only grows from here
      return messages;
    }
  }
  return undefined;
}
