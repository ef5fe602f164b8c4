// Named test doubles for the model behind the compression pass. CompressingModel plays a capable model: it
// reads the tools' own listings and compresses what they offer, oldest first. GarbageModel answers in prose
// or with unusable calls; FailingModel errors like a server returning HTTP 500.
import type { ChatMessage, ToolCall } from '../../../src/core/messages';
import { ProviderError, type ChatProvider, type ChatRequest, type ModelInfo, type ProviderCapabilities, type StreamDelta } from '../../../src/core/provider';
import { referencePromptTokens } from '../context/referenceTokenizer';

abstract class TestModel implements ChatProvider {
  readonly baseUrl = 'http://127.0.0.1:9';
  readonly capabilities: ProviderCapabilities = { thinking: false, keepAlive: false, tools: true, jsonMode: false, streaming: true, embeddings: false, contextSizeApi: false };
  readonly requests: ChatRequest[] = [];

  constructor(readonly id: 'ollama' | 'openai' = 'openai') {}

  async *chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    this.requests.push({ ...request, messages: structuredClone(request.messages) });
    for (const delta of this.reply(request)) {
      if (request.signal.aborted) throw new ProviderError('aborted', 'The request was cancelled.');
      yield delta;
    }
    yield { type: 'usage', promptTokens: referencePromptTokens(request.messages, request.tools), completionTokens: 20 };
    yield { type: 'done', finishReason: 'stop' };
  }

  protected abstract reply(request: ChatRequest): StreamDelta[];

  async listModels(): Promise<ModelInfo[]> {
    return [{ name: 'test-model' }];
  }

  async modelInfo(model: string): Promise<ModelInfo> {
    return { name: model };
  }
}

export class CompressingModel extends TestModel {
  private readonly done = new Set<number>();
  private callNo = 0;

  constructor(
    private readonly options: { batch?: number; summary?: (role: string, id: number) => string; note?: string; id?: 'ollama' | 'openai' } = {},
  ) {
    super(options.id);
  }

  protected reply(request: ChatRequest): StreamDelta[] {
    const tools = request.messages.filter((m) => m.role === 'tool');
    const last = tools[tools.length - 1];
    if (!last) return [this.call('get_compression_metadata', {})];
    if (/target is met|Done: stop now/.test(last.content)) return [{ type: 'text', text: 'The target is met.' }];
    const listing = [...tools].reverse().find((m) => m.content.includes('Messages you may compress'));
    const entries = listing ? parseListing(listing) : [];
    const todo = entries.filter((e) => !this.done.has(e.id)).slice(0, this.options.batch ?? 6);
    if (todo.length === 0) {
      // Everything listed is handled: check, and if the tools want more, list again.
      return /Not yet/.test(last.content) ? [this.call('get_compression_metadata', {})] : [this.call('verify_compression_target', {})];
    }
    const deltas: StreamDelta[] = [];
    const segment = todo.filter((e) => e.role !== 'tool');
    for (const e of todo.filter((e) => e.role === 'tool')) {
      this.done.add(e.id);
      deltas.push(this.call('compress_tool_result', { id: e.id, note: this.options.note ?? 'the gist was noted' }));
    }
    if (segment.length) {
      for (const e of segment) this.done.add(e.id);
      deltas.push(this.call('compress_conversation_segment', { messages: segment.map((e) => ({ id: e.id, summary: this.options.summary?.(e.role, e.id) ?? `${e.role} message ${e.id} in brief` })) }));
    }
    return deltas;
  }

  private call(name: string, args: Record<string, unknown>): StreamDelta {
    const call: ToolCall = { id: `cmp_${++this.callNo}`, name, arguments: JSON.stringify(args) };
    return { type: 'tool_call', call };
  }
}

export class GarbageModel extends TestModel {
  private n = 0;

  protected reply(): StreamDelta[] {
    this.n++;
    // Alternates prose with calls that name no real tool or carry broken JSON.
    if (this.n % 2 === 1) return [{ type: 'text', text: 'Sure! The conversation looks fine to me. Lorem ipsum dolor sit amet.' }];
    return [
      { type: 'tool_call', call: { id: `g${this.n}a`, name: 'compress_everything', arguments: '{}' } },
      { type: 'tool_call', call: { id: `g${this.n}b`, name: 'compress_tool_result', arguments: '{"id": 3, "note": ' } },
    ];
  }
}

/** Never answers: waits until the request is cancelled (a user pressing Stop during compression). */
export class HangingModel extends TestModel {
  override async *chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    this.requests.push(request);
    await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
    throw new ProviderError('aborted', 'The request was cancelled.');
  }

  protected reply(): StreamDelta[] {
    return [];
  }
}

export class FailingModel extends TestModel {
  protected reply(): StreamDelta[] {
    throw new ProviderError('http', 'The server at http://127.0.0.1:9 answered HTTP 500: model crashed', { status: 500 });
  }
}

function parseListing(message: ChatMessage): Array<{ id: number; role: string }> {
  return [...message.content.matchAll(/^#(\d+) (tool result|user|assistant) /gm)].map((m) => ({ id: Number(m[1]), role: m[2] === 'tool result' ? 'tool' : m[2]! }));
}
