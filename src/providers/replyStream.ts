// The streaming scaffold both providers share: one request's abort linked to the caller's signal, the first-byte
// deadline with its "loading model…" status, `<think>` tags split out of the text, a reply that ends without its
// final chunk reported as cut (or empty), tool calls after the text, and every failure as a ProviderError. Breaking
// out of the iteration closes the HTTP request. A wire format only says what its chunks mean (ReplyChunks).
import type { ProviderError, StreamDelta } from '../core/provider';
import type { ToolCall } from '../core/messages';
import { linkAbort } from './abort';
import type { ProviderClock } from './clock';
import { guardFirstItem } from './firstByteGuard';
import type { ReadingPlan } from './readingTime';
import { capitalise } from '../shared/format';
import { abortedError, emptyResponseError, incompleteStreamError, toProviderError, type ErrorContext } from './networkErrors';
import { ThinkTagSplitter, type SplitPiece } from './thinkTagSplitter';

/** What one chunk of a wire format carried; text still goes through the `<think>` splitter. */
export type ChunkDelta = StreamDelta | { type: 'raw_text'; text: string };

/** One reply's reading of a wire format's chunks. */
export interface ReplyChunks<Chunk> {
  read(chunk: Chunk): Iterable<ChunkDelta>;
  /** Set once the final chunk came (a reply without one was cut). */
  finishReason(): string | undefined;
  /** The tool calls, complete, once the stream ended. */
  toolCalls(): Iterable<ToolCall>;
  /** Whether any tool call (or a piece of one) came yet. */
  sawToolCalls(): boolean;
}

export interface ReplyStreamOptions<Chunk> {
  /** The caller's signal: aborting it cancels the request. */
  signal: AbortSignal;
  /** Opens the stream with the request's own signal. */
  open: (signal: AbortSignal) => Promise<AsyncIterable<Chunk>>;
  chunks: ReplyChunks<Chunk>;
  /** "Ollama at http://…", for messages. */
  label: string;
  firstByte: { timeoutMs: number; statusDelayMs: number; clock: ProviderClock; reading?: ReadingPlan; onFirstItem?: (waitedMs: number) => void };
  errorContext: ErrorContext;
  /** The client library's own errors as ProviderErrors; `produced` says whether any content came first. */
  mapError: (err: unknown, produced: boolean) => ProviderError | undefined;
}

export async function* streamReply<Chunk>(options: ReplyStreamOptions<Chunk>): AsyncGenerator<StreamDelta> {
  const { signal, chunks, label } = options;
  const abort = linkAbort(signal);
  const splitter = new ThinkTagSplitter();
  let produced = false;
  let completed = false;
  try {
    const open = async () => (await options.open(abort.signal))[Symbol.asyncIterator]();
    const serverLabel = capitalise(label);
    for await (const item of guardFirstItem(open, { ...options.firstByte, abort: () => abort.abort(), serverLabel })) {
      if (item.kind === 'status') {
        yield { type: 'status', message: item.message, ...(item.reading && { reading: item.reading }) };
        continue;
      }
      for (const delta of chunks.read(item.value)) {
        if (delta.type === 'raw_text' || delta.type === 'text' || delta.type === 'thinking') produced = true;
        if (delta.type === 'raw_text') yield* pieces(splitter.push(delta.text));
        else yield delta;
      }
    }
    // A client library may end a cancelled stream quietly; a cancelled reply must not look finished.
    if (signal.aborted) throw abortedError(signal.reason);
    yield* pieces(splitter.flush());
    const finishReason = chunks.finishReason();
    if (!finishReason) throw produced || chunks.sawToolCalls() ? incompleteStreamError(label) : emptyResponseError(label);
    for (const call of chunks.toolCalls()) yield { type: 'tool_call', call };
    completed = true;
    yield { type: 'done', finishReason };
  } catch (err) {
    throw toProviderError(err, options.errorContext, (e) => options.mapError(e, produced || chunks.sawToolCalls()));
  } finally {
    if (!completed) abort.abort();
    abort.dispose();
  }
}

function* pieces(split: Iterable<SplitPiece>): Iterable<StreamDelta> {
  for (const piece of split) yield piece.kind === 'text' ? { type: 'text', text: piece.text } : { type: 'thinking', text: piece.text };
}
