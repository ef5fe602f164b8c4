// ChatMessage / ToolDefinition → the OpenAI chat-completions request shapes.
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { argumentsToText, type ChatMessage, type ToolDefinition } from '../core/messages';

export function toOpenAIMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m, i): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content };
      case 'assistant':
        if (m.toolCalls?.length) {
          return {
            role: 'assistant',
            // As recorded from llama.cpp: an assistant turn that only calls tools has `content: null`.
            content: m.content === '' ? null : m.content,
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: argumentsToText(c.arguments) },
            })),
          };
        }
        return { role: 'assistant', content: m.content };
      case 'tool':
        if (!m.toolCallId) {
          throw new TypeError(`Message ${i} is a tool result without toolCallId; OpenAI-compatible servers need it to match the call.`);
        }
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

export function toOpenAITools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}
