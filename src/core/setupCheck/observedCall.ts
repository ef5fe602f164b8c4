// A provider wrapper that times one request at a time and sees what the protocol parsing hides: when the first
// byte came, whether a tool call came through the API (native) or out of the text, and the server's own counts.
import type { ChatProvider, ChatRequest, PromptUsage, ServerTimings, StreamDelta } from '../provider';
import type { Clock } from '../ports';

export interface CallRecord {
  /** ms from sending the request to the first streamed text, thinking or tool call. */
  firstByteMs?: number;
  /** ms from sending the request to its end. */
  totalMs: number;
  /** Tool calls the server delivered through its API. */
  nativeCalls: number;
  usage?: PromptUsage & { timings?: ServerTimings };
}

export class ObservedProvider implements ChatProvider {
  readonly id: ChatProvider['id'];
  readonly baseUrl: string;
  readonly capabilities: ChatProvider['capabilities'];
  /** The latest request, once it ended (or failed). */
  last: CallRecord | undefined;

  constructor(
    private readonly inner: ChatProvider,
    private readonly clock: Clock,
  ) {
    this.id = inner.id;
    this.baseUrl = inner.baseUrl;
    this.capabilities = inner.capabilities;
  }

  async *chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    const started = this.clock.now();
    const record: CallRecord = { totalMs: 0, nativeCalls: 0 };
    this.last = undefined;
    try {
      for await (const delta of this.inner.chat(request)) {
        if (record.firstByteMs === undefined && (delta.type === 'text' || delta.type === 'thinking' || delta.type === 'tool_call')) {
          record.firstByteMs = this.clock.now() - started;
        }
        if (delta.type === 'tool_call') record.nativeCalls++;
        if (delta.type === 'usage') {
          const { type: _type, ...usage } = delta;
          record.usage = usage;
        }
        yield delta;
      }
    } finally {
      record.totalMs = this.clock.now() - started;
      record.firstByteMs ??= record.totalMs;
      this.last = record;
    }
  }

  listModels(signal: AbortSignal) {
    return this.inner.listModels(signal);
  }

  modelInfo(model: string, signal: AbortSignal) {
    return this.inner.modelInfo(model, signal);
  }
}
