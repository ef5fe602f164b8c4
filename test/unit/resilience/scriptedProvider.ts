// A ChatProvider that plays back scripted replies, one per call, and records every request. Each step can
// stream some deltas and then fail, which is how a cut-off stream or a mid-reply server error looks.
import type { ChatMessage, ToolDefinition } from '../../../src/core/messages';
import type { ChatProvider, ChatRequest, ModelInfo, ProviderCapabilities, StreamDelta } from '../../../src/core/provider';
import { ProviderError } from '../../../src/core/provider';

export interface ScriptStep {
  deltas: StreamDelta[];
  /** Thrown after the deltas. */
  error?: ProviderError;
}

export interface RecordedRequest {
  model: string;
  messages: ChatMessage[];
  tools: readonly ToolDefinition[];
}

export interface ScriptedProviderOptions {
  id?: 'ollama' | 'openai';
  baseUrl?: string;
  capabilities?: Partial<ProviderCapabilities>;
  /** What modelInfo returns; an Error is thrown instead. */
  modelInfo?: ModelInfo | Error;
}

export class ScriptedProvider implements ChatProvider {
  readonly id: 'ollama' | 'openai';
  readonly baseUrl: string;
  readonly capabilities: ProviderCapabilities;
  readonly requests: RecordedRequest[] = [];
  modelInfoCalls = 0;
  private readonly steps: ScriptStep[];

  constructor(steps: ScriptStep[], private readonly options: ScriptedProviderOptions = {}) {
    this.steps = [...steps];
    this.id = options.id ?? 'openai';
    this.baseUrl = options.baseUrl ?? 'http://127.0.0.1:9';
    this.capabilities = { thinking: true, keepAlive: false, tools: true, jsonMode: false, streaming: true, embeddings: false, contextSizeApi: false, ...options.capabilities };
  }

  get remaining(): number {
    return this.steps.length;
  }

  async *chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    this.requests.push({ model: request.model, messages: structuredClone(request.messages), tools: structuredClone(request.tools) });
    const step = this.steps.shift();
    if (!step) throw new Error(`ScriptedProvider: no scripted reply left for request ${this.requests.length}`);
    for (const delta of step.deltas) {
      if (request.signal.aborted) throw new ProviderError('aborted', 'The request was cancelled.');
      yield delta;
    }
    if (step.error) throw step.error;
  }

  async listModels(): Promise<ModelInfo[]> {
    return [{ name: 'scripted' }];
  }

  async modelInfo(model: string): Promise<ModelInfo> {
    this.modelInfoCalls++;
    const info = this.options.modelInfo;
    if (info instanceof Error) throw info;
    return info ?? { name: model };
  }
}

/** A reply streamed as the given text chunks. */
export function textReply(...chunks: string[]): ScriptStep {
  return { deltas: [...chunks.map((text) => ({ type: 'text', text }) as StreamDelta), { type: 'done', finishReason: 'stop' }] };
}

/** A reply with one native tool call. */
export function toolReply(name: string, args: Record<string, unknown>, id = `call_${name}_${Math.random().toString(36).slice(2, 8)}`): ScriptStep {
  return { deltas: [{ type: 'tool_call', call: { id, name, arguments: JSON.stringify(args) } }, { type: 'done', finishReason: 'tool_calls' }] };
}

/** Some text, then the stream breaks. */
export function cutReply(error: ProviderError, ...chunks: string[]): ScriptStep {
  return { deltas: chunks.map((text) => ({ type: 'text', text }) as StreamDelta), error };
}

export const serverError = () => new ProviderError('http', 'The server answered HTTP 500: internal error.', { status: 500 });
export const streamCut = () => new ProviderError('incomplete_stream', 'The reply stream ended early.');
export const refused = () => new ProviderError('connection_refused', 'Nothing is listening at http://127.0.0.1:9.');
