// Measures a request the way the budget needs it: system prompt, tool definitions and conversation apart,
// raw (the estimator's count) and calibrated (× the model's learned factor). Per-message counts are cached
// by object, so measuring a long history every round stays cheap; messages are never mutated in place.
import type { ChatMessage, ToolDefinition } from '../messages';
import { estimateMessageTokens, estimateToolDefinitionTokens } from '../tokens';

/** Tokens the chat template adds to open the assistant's reply. */
export const REPLY_PRIMING_TOKENS = 3;

export interface PromptMeasure {
  systemTokens: number;
  toolDefinitionTokens: number;
  messagesTokens: number;
  /** The estimator's total for the whole request. */
  raw: number;
  /** `raw` × the calibration factor: what we expect the server to count. */
  total: number;
}

export class TokenMeter {
  private readonly cache = new WeakMap<ChatMessage, number>();
  private lastTools: readonly ToolDefinition[] | undefined;
  private lastToolTokens = 0;

  message(m: ChatMessage): number {
    let n = this.cache.get(m);
    if (n === undefined) {
      n = estimateMessageTokens(m);
      this.cache.set(m, n);
    }
    return n;
  }

  messages(list: readonly ChatMessage[]): number {
    let n = 0;
    for (const m of list) n += this.message(m);
    return n;
  }

  tools(tools: readonly ToolDefinition[]): number {
    if (tools !== this.lastTools) {
      this.lastTools = tools;
      this.lastToolTokens = estimateToolDefinitionTokens(tools);
    }
    return this.lastToolTokens;
  }

  /** `messages[0]` is counted as the system prompt when its role is "system". */
  measure(messages: readonly ChatMessage[], tools: readonly ToolDefinition[], factor: number): PromptMeasure {
    const hasSystem = messages[0]?.role === 'system';
    const systemTokens = hasSystem ? this.message(messages[0]!) : 0;
    const messagesTokens = this.messages(hasSystem ? messages.slice(1) : messages);
    const toolDefinitionTokens = this.tools(tools);
    const raw = systemTokens + messagesTokens + toolDefinitionTokens + REPLY_PRIMING_TOKENS;
    return { systemTokens, toolDefinitionTokens, messagesTokens, raw, total: Math.ceil(raw * factor) };
  }
}
