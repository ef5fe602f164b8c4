// One model call: stream the reply, surface thinking/text as events, collect tool calls and usage.
import type { ChatMessage, ToolCall, ToolDefinition } from '../messages';
import { toChatRequest, usageOf, type ChatProvider, type PromptUsage } from '../provider';
import type { EventBus } from './events';

export interface RoundRequest {
  provider: ChatProvider;
  model: string;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  signal: AbortSignal;
  think?: boolean;
  contextSize?: number;
  temperature?: number;
  maxTokens?: number;
}

export interface RoundReply {
  text: string;
  thinking: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage?: PromptUsage;
}

export async function streamRound(request: RoundRequest, bus: EventBus): Promise<RoundReply> {
  const reply: RoundReply = { text: '', thinking: '', toolCalls: [], finishReason: '' };
  const stream = request.provider.chat(toChatRequest(request, request.tools));
  for await (const delta of stream) {
    switch (delta.type) {
      case 'status':
        bus.emit({ type: 'status', message: delta.message });
        break;
      case 'thinking':
        reply.thinking += delta.text;
        bus.emit({ type: 'thinking', text: delta.text });
        break;
      case 'text':
        reply.text += delta.text;
        bus.emit({ type: 'text', text: delta.text });
        break;
      case 'tool_call':
        reply.toolCalls.push(delta.call);
        break;
      case 'usage':
        reply.usage = usageOf(delta);
        bus.emit({ type: 'usage', ...reply.usage });
        break;
      case 'done':
        reply.finishReason = delta.finishReason;
        break;
    }
  }
  return reply;
}
