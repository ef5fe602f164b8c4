// One Ollama reply's `/api/chat` lines turned into the provider's deltas: thinking, content, complete tool calls,
// and the done line with its counts and durations.
import type { ChatResponse } from 'ollama';
import type { ServerTimings } from '../core/provider';
import type { ToolCall } from '../core/messages';
import { newToolCallId } from './ids';
import { isRecord, nonNegative } from './jsonValues';
import type { ChunkDelta, ReplyChunks } from './replyStream';

/** One reply's `/api/chat` lines: thinking, content, complete tool calls, and the done line with its counts. */
export class OllamaChunks implements ReplyChunks<ChatResponse> {
  private readonly calls: ToolCall[] = [];
  private reason: string | undefined;

  constructor(private readonly estimateCached: (promptTokens: number) => number) {}

  *read(chunk: ChatResponse): Iterable<ChunkDelta> {
    const message = chunk.message;
    if (message?.thinking) yield { type: 'thinking', text: message.thinking };
    if (message?.content) yield { type: 'raw_text', text: message.content };
    for (const raw of message?.tool_calls ?? []) this.calls.push(toToolCall(raw));
    if (!chunk.done) return;
    this.reason = chunk.done_reason || 'stop';
    // Newer Ollama versions say how much of the prompt came from the loaded model's cache.
    const cached = (chunk as { prompt_eval_cached_count?: unknown }).prompt_eval_cached_count;
    const timings = timingsOf(chunk);
    yield {
      type: 'usage',
      promptTokens: chunk.prompt_eval_count ?? 0,
      completionTokens: chunk.eval_count ?? 0,
      ...(typeof cached === 'number' && cached >= 0
        ? { cachedTokens: cached }
        : { cachedTokens: this.estimateCached(chunk.prompt_eval_count ?? 0), cachedEstimated: true }),
      ...(timings && { timings }),
    };
  }

  finishReason(): string | undefined {
    return this.reason;
  }

  toolCalls(): Iterable<ToolCall> {
    return this.calls;
  }

  sawToolCalls(): boolean {
    return this.calls.length > 0;
  }
}

function toToolCall(raw: { function: { name: string; arguments: unknown }; id?: unknown }): ToolCall {
  const args = raw.function.arguments;
  return {
    id: typeof raw.id === 'string' && raw.id ? raw.id : newToolCallId(),
    name: raw.function.name,
    // Objects as Ollama sends them; some proxies send a JSON string, which stays raw for the registry to parse.
    arguments: typeof args === 'string' ? args : isRecord(args) ? args : {},
  };
}

/** The done line's durations (nanoseconds) in milliseconds; undefined when it has none. */
function timingsOf(chunk: Record<string, unknown> | object): ServerTimings | undefined {
  const c = chunk as Record<string, unknown>;
  const ms = (v: unknown) => {
    const ns = nonNegative(v);
    return ns === undefined ? undefined : ns / 1e6;
  };
  const loadMs = ms(c.load_duration);
  const promptMs = ms(c.prompt_eval_duration);
  const generationMs = ms(c.eval_duration);
  if (loadMs === undefined && promptMs === undefined && generationMs === undefined) return undefined;
  return { ...(loadMs !== undefined && { loadMs }), ...(promptMs !== undefined && { promptMs }), ...(generationMs !== undefined && { generationMs }) };
}
