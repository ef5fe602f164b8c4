// Named test doubles for the model behind the compression pass. CompressingModel plays a capable model: it
// reads the listing in the pass's request and summarises what it offers, oldest first, as JSON. GarbageModel
// answers in prose or with unusable JSON; FailingModel errors like a server returning HTTP 500.
import type { ChatMessage } from '../../../src/core/messages';
import { ProviderError, type ChatProvider, type ChatRequest, type ModelInfo, type ProviderCapabilities, type StreamDelta } from '../../../src/core/provider';
import { referencePromptTokens } from '../tokens/referenceTokenizer';

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

  constructor(
    private readonly options: { batch?: number; summary?: (role: string, id: number) => string; note?: string; id?: 'ollama' | 'openai' } = {},
  ) {
    super(options.id);
  }

  /** Answers the pass's request (the last user message lists what to summarise) with the JSON it asks for. */
  protected reply(request: ChatRequest): StreamDelta[] {
    const last = [...request.messages].reverse().find((m) => m.role === 'user');
    const entries = last ? parseListing(last) : [];
    const todo = entries.filter((e) => !this.done.has(e.id)).slice(0, this.options.batch ?? 6);
    if (todo.length === 0) return [{ type: 'text', text: 'Nothing left to summarise.' }];
    const summaries = todo.map((e) => {
      this.done.add(e.id);
      const summary = e.role === 'tool' ? (this.options.note ?? 'the gist was noted') : (this.options.summary?.(e.role, e.id) ?? `${e.role} message ${e.id} in brief`);
      return { id: e.id, summary };
    });
    return [{ type: 'text', text: JSON.stringify({ summaries }) }];
  }
}

export class GarbageModel extends TestModel {
  private n = 0;

  protected reply(): StreamDelta[] {
    this.n++;
    // Alternates prose with JSON that is broken or names nothing usable.
    if (this.n % 2 === 1) return [{ type: 'text', text: 'Sure! The conversation looks fine to me. Lorem ipsum dolor sit amet.' }];
    return [{ type: 'text', text: '{"summaries": [{"id": "three", "summary": ' }];
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
