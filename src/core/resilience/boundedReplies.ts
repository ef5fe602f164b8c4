// A ChatProvider whose replies cannot kill a session: text or thinking longer than a share of the window is cut,
// and a repetition loop is stopped while it streams (the request is closed, so the server stops generating).
// The reply then ends with a note saying what happened, which the model reads on its next turn and the user sees.
import type { ChatProvider, ChatRequest, ModelInfo, StreamDelta } from '../provider';
import { ReplyGuard, stopNote, type GuardStop } from '../analysis/replyGuard';

/** Characters of reply allowed per token of context window: about 40 % of the window at ~3.5 characters a token. */
export const REPLY_CHARS_PER_WINDOW_TOKEN = 1.5;
/** When the request does not say its window (32k tokens' worth). */
export const DEFAULT_MAX_REPLY_CHARS = 48_000;
/** Never below this, however small the window. */
const MIN_REPLY_CHARS = 4_000;

export interface BoundedReplyOptions {
  /** A fixed limit in characters (a setting); default: REPLY_CHARS_PER_WINDOW_TOKEN × the request's window. */
  maxReplyChars?: number;
}

export function maxReplyCharsFor(request: Pick<ChatRequest, 'contextSize'>, options: BoundedReplyOptions = {}): number {
  if (options.maxReplyChars !== undefined) return options.maxReplyChars;
  if (request.contextSize === undefined) return DEFAULT_MAX_REPLY_CHARS;
  return Math.max(MIN_REPLY_CHARS, Math.round(request.contextSize * REPLY_CHARS_PER_WINDOW_TOKEN));
}

export class BoundedReplyProvider implements ChatProvider {
  readonly id: ChatProvider['id'];
  readonly baseUrl: string;
  readonly capabilities: ChatProvider['capabilities'];
  readonly runningContextLength?: ChatProvider['runningContextLength'];
  readonly serverStatus?: ChatProvider['serverStatus'];
  readonly embed?: ChatProvider['embed'];

  constructor(
    private readonly inner: ChatProvider,
    private readonly options: BoundedReplyOptions = {},
  ) {
    this.id = inner.id;
    this.baseUrl = inner.baseUrl;
    this.capabilities = inner.capabilities;
    if (inner.runningContextLength) this.runningContextLength = (model, signal) => inner.runningContextLength!(model, signal);
    if (inner.embed) this.embed = (model, input, signal) => inner.embed!(model, input, signal);
    if (inner.serverStatus) this.serverStatus = (model, signal) => inner.serverStatus!(model, signal);
  }

  listModels(signal: AbortSignal): Promise<ModelInfo[]> {
    return this.inner.listModels(signal);
  }

  modelInfo(model: string, signal: AbortSignal): Promise<ModelInfo> {
    return this.inner.modelInfo(model, signal);
  }

  chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    return boundedStream(this.inner.chat(request), maxReplyCharsFor(request, this.options));
  }
}

/** Passes the stream through until the text or thinking goes wrong; then a note, a clean end, and the request closed. */
export async function* boundedStream(stream: AsyncIterable<StreamDelta>, maxChars: number): AsyncGenerator<StreamDelta> {
  const parts = { text: new Held(maxChars), thinking: new Held(maxChars) };
  for await (const delta of stream) {
    if (delta.type !== 'text' && delta.type !== 'thinking') {
      // Anything else (tool calls, usage, the end) comes after all the text: show what was held back first.
      yield* parts.thinking.flush('thinking');
      yield* parts.text.flush('text');
      yield delta;
      continue;
    }
    const part = parts[delta.type];
    const stop = part.guard.push(delta.text);
    part.all += delta.text;
    if (!stop) {
      yield* part.release(delta.type, part.guard.showable);
      continue;
    }
    // Keep what is before the cut (for a loop, one copy of the repeated passage), then the note.
    yield* part.release(delta.type, Math.max(stop.keep, part.shown));
    yield* ending(stop, delta.type === 'text' ? 'reply' : 'thinking');
    return; // leaving the loop closes the request: the server stops generating
  }
  yield* parts.thinking.flush('thinking');
  yield* parts.text.flush('text');
}

/** One part of the reply (text or thinking): all of it so far, and how much was passed on. */
class Held {
  readonly guard: ReplyGuard;
  all = '';
  shown = 0;

  constructor(maxChars: number) {
    this.guard = new ReplyGuard({ maxChars });
  }

  *release(type: 'text' | 'thinking', upTo: number): Generator<StreamDelta> {
    const end = Math.min(upTo, this.all.length);
    if (end <= this.shown) return;
    yield { type, text: this.all.slice(this.shown, end) };
    this.shown = end;
  }

  *flush(type: 'text' | 'thinking'): Generator<StreamDelta> {
    yield* this.release(type, this.all.length);
  }
}

function* ending(stop: GuardStop, what: 'reply' | 'thinking'): Generator<StreamDelta> {
  const note = stopNote(stop, what);
  yield { type: 'status', message: note.slice(1, -1) };
  yield { type: 'text', text: `\n\n${note}` };
  // A plain stop: the reply is complete as far as the turn is concerned (no "continue where you left off").
  yield { type: 'done', finishReason: 'stop' };
}
