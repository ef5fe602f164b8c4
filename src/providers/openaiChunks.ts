// One OpenAI-compatible reply's SSE chunks turned into the provider's deltas: reasoning, content, tool call pieces
// rebuilt by index, llama.cpp's reading progress, and usage with the reused (cached) count.
import type { ServerTimings } from '../core/provider';
import type { ToolCall } from '../core/messages';
import { newToolCallId } from './ids';
import { nonNegative } from './jsonValues';
import { progressFromLlamaCpp, readingMessage } from './readingTime';
import type { ChunkDelta, ReplyChunks } from './replyStream';
import { ToolCallAccumulator, type ToolCallPiece } from './toolCallAccumulator';

/** The parts of a streamed chunk we read, including the non-standard reasoning fields. */
export interface StreamChunk {
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: ToolCallPiece[];
    } | null;
    finish_reason?: string | null;
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } | null } | null;
  /** llama.cpp: `cache_n` prompt tokens reused from the slot's cache, `prompt_n` read, and how long each part took. */
  timings?: { cache_n?: number; prompt_n?: number; prompt_ms?: number; predicted_ms?: number } | null;
  /** llama.cpp with `return_progress`: how far it read the prompt (counts include the cached prefix). */
  prompt_progress?: { total?: number; cache?: number; processed?: number; time_ms?: number } | null;
}

/** Reads shorter than this pass too quickly to be worth a status line. */
const SHOWN_READ_TOKENS = 256;

/** The reused prompt tokens as the server reports them: OpenAI-style details (vLLM, newer llama.cpp), else llama.cpp's timings. */
function reusedTokens(chunk: StreamChunk): number | undefined {
  const details = chunk.usage?.prompt_tokens_details?.cached_tokens;
  if (typeof details === 'number' && details >= 0) return details;
  const fromTimings = chunk.timings?.cache_n;
  return typeof fromTimings === 'number' && fromTimings >= 0 ? fromTimings : undefined;
}

/** llama.cpp's own timings of the request (LM Studio and vLLM send none). */
function serverTimings(chunk: StreamChunk): ServerTimings | undefined {
  const t = chunk.timings;
  const promptMs = nonNegative(t?.prompt_ms);
  const generationMs = nonNegative(t?.predicted_ms);
  if (promptMs === undefined && generationMs === undefined) return undefined;
  return { ...(promptMs !== undefined && { promptMs }), ...(generationMs !== undefined && { generationMs }) };
}

/** One reply's SSE chunks: reasoning, content, tool call pieces rebuilt by index, usage with the cached count. */
export class OpenAIChunks implements ReplyChunks<StreamChunk> {
  private readonly calls = new ToolCallAccumulator(newToolCallId);
  private sawCalls = false;
  private reason: string | undefined;

  constructor(private readonly estimateCached: (promptTokens: number) => number) {}

  *read(chunk: StreamChunk): Iterable<ChunkDelta> {
    // Reading progress is life (the chunk itself passed the first-byte guard) and worth showing on a long read.
    const progress = progressFromLlamaCpp(chunk.prompt_progress);
    if (progress && progress.total >= SHOWN_READ_TOKENS) yield { type: 'status', message: readingMessage(progress), reading: progress };
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) yield { type: 'thinking', text: reasoning };
      if (delta.content) yield { type: 'raw_text', text: delta.content };
      for (const piece of delta.tool_calls ?? []) {
        this.sawCalls = true;
        this.calls.add(piece);
      }
      if (choice.finish_reason) this.reason = choice.finish_reason;
    }
    if (chunk.usage && typeof chunk.usage.prompt_tokens === 'number') {
      const cached = reusedTokens(chunk);
      const timings = serverTimings(chunk);
      yield {
        type: 'usage',
        promptTokens: chunk.usage.prompt_tokens,
        completionTokens: chunk.usage.completion_tokens ?? 0,
        ...(cached !== undefined ? { cachedTokens: cached } : { cachedTokens: this.estimateCached(chunk.usage.prompt_tokens), cachedEstimated: true }),
        ...(timings && { timings }),
      };
    }
  }

  finishReason(): string | undefined {
    return this.reason;
  }

  toolCalls(): Iterable<ToolCall> {
    return this.calls.finish();
  }

  sawToolCalls(): boolean {
    return this.sawCalls;
  }
}
