// One model call: stream the reply, surface thinking/text as events, collect tool calls and usage.
import type { ChatMessage, ToolDefinition } from '../messages';
import { toChatRequest, type ChatProvider, type RoundReply } from '../provider';
import { readDeltas } from '../streamDeltas';
import type { EventBus } from './events';

export interface RoundRequest {
  provider: ChatProvider;
  model: string;
  messages: ChatMessage[];
  tools: readonly ToolDefinition[];
  signal: AbortSignal;
  think?: boolean;
  contextSize?: number;
  temperature?: number;
  maxTokens?: number;
}

// Declared with the provider (toolProtocol reads replies too and must not depend on the loop).
export type { RoundReply };

export async function streamRound(request: RoundRequest, bus: EventBus): Promise<RoundReply> {
  const reply: RoundReply = { text: '', thinking: '', toolCalls: [], finishReason: '' };
  await readDeltas(request.provider.chat(toChatRequest(request, request.tools)), {
    status: (message, reading) => bus.emit({ type: 'status', message, ...(reading && { reading }) }),
    thinking: (text) => {
      reply.thinking += text;
      bus.emit({ type: 'thinking', text });
    },
    text: (text) => {
      reply.text += text;
      bus.emit({ type: 'text', text });
    },
    toolCall: (call) => reply.toolCalls.push(call),
    usage: (usage) => {
      reply.usage = usage;
      bus.emit({ type: 'usage', ...usage });
    },
    done: (finishReason) => (reply.finishReason = finishReason),
  });
  return reply;
}
