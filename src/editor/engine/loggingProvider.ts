// Wraps a provider so every model request is summarised in the log: what went out, what came back, failures.
import type { ChatProvider, ChatRequest, ModelInfo, StreamDelta } from '../../core/provider';
import { TokenMeter } from '../../core/window/meter';
import type { Logger } from '../log/logger';

export class LoggingProvider implements ChatProvider {
  readonly id: ChatProvider['id'];
  readonly baseUrl: string;
  readonly capabilities: ChatProvider['capabilities'];
  private seq = 0;
  /**
   * Per-message estimates cached by object: every request carries the whole history, and re-estimating all of it
   * for one log line made each model call cost more the longer the chat (messages are never mutated once sent).
   */
  private readonly meter = new TokenMeter();

  constructor(
    private readonly inner: ChatProvider,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.id = inner.id;
    this.baseUrl = inner.baseUrl;
    this.capabilities = inner.capabilities;
    // Optional server features pass straight through.
    if (inner.runningContextLength) this.runningContextLength = (model, signal) => inner.runningContextLength!(model, signal);
    if (inner.embed) this.embed = (model, input, signal) => inner.embed!(model, input, signal);
    if (inner.serverStatus) this.serverStatus = (model, signal) => inner.serverStatus!(model, signal);
  }

  readonly runningContextLength?: ChatProvider['runningContextLength'];
  readonly serverStatus?: ChatProvider['serverStatus'];
  readonly embed?: ChatProvider['embed'];

  async *chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    const n = ++this.seq;
    const started = this.now();
    const estimate = this.meter.messages(request.messages) + this.meter.tools(request.tools);
    this.log.info(
      `request #${n} → ${this.id} ${this.baseUrl} model=${request.model} messages=${request.messages.length} tools=${request.tools.length}` +
        ` ~${estimate} tokens` +
        (request.contextSize !== undefined ? ` context=${request.contextSize}` : '') +
        (request.think !== undefined ? ` think=${request.think}` : ''),
    );
    let finish = '';
    let usage = '';
    let textChars = 0;
    let thinkingChars = 0;
    let toolCalls = 0;
    let completed = false;
    let failed = false;
    try {
      for await (const delta of this.inner.chat(request)) {
        if (delta.type === 'text') textChars += delta.text.length;
        else if (delta.type === 'thinking') thinkingChars += delta.text.length;
        else if (delta.type === 'tool_call') toolCalls++;
        else if (delta.type === 'usage') {
          const cached = delta.cachedTokens !== undefined ? ` cached=${delta.cachedTokens}${delta.cachedEstimated ? '~' : ''}` : '';
          usage = ` usage=${delta.promptTokens}+${delta.completionTokens}${cached}`;
        }
        else if (delta.type === 'done') finish = delta.finishReason;
        yield delta;
      }
      completed = true;
    } catch (err) {
      failed = true;
      if (request.signal.aborted) {
        this.log.info(`request #${n} cancelled after ${this.now() - started} ms`);
        throw err;
      }
      this.log.error(`request #${n} failed after ${this.now() - started} ms: ${(err as Error)?.message ?? String(err)}`);
      throw err;
    } finally {
      if (completed) {
        this.log.info(
          `reply #${n} ← ${this.now() - started} ms finish=${finish || 'none'} text=${textChars} thinking=${thinkingChars} toolCalls=${toolCalls}${usage}`,
        );
      } else if (!failed) {
        this.log.debug(`request #${n} closed by the reader after ${this.now() - started} ms`);
      }
    }
  }

  listModels(signal: AbortSignal): Promise<ModelInfo[]> {
    return this.inner.listModels(signal);
  }

  modelInfo(model: string, signal: AbortSignal): Promise<ModelInfo> {
    return this.inner.modelInfo(model, signal);
  }
}
