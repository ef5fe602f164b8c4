// ChatMessage / ToolDefinition → the OpenAI chat-completions request shapes.
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { argumentsToText, modelText, type ChatMessage, type ToolDefinition } from '../core/messages';
import type { ResponseFormat } from '../core/provider';

/** `withReasoning`: earlier reasoning goes back as `reasoning_content` (llama.cpp, for gpt-oss); others never get it. */
export function toOpenAIMessages(messages: readonly ChatMessage[], withReasoning = false): ChatCompletionMessageParam[] {
  return messages.map((m, i): ChatCompletionMessageParam => {
    if (withReasoning && m.role === 'assistant' && m.thinking) {
      return { ...toOpenAIMessages([{ ...m, thinking: '' }])[0]!, reasoning_content: m.thinking } as unknown as ChatCompletionMessageParam;
    }
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: modelText(m) };
      case 'assistant':
        if (m.toolCalls?.length) {
          return {
            role: 'assistant',
            // As recorded from llama.cpp: an assistant turn that only calls tools has `content: null`.
            content: modelText(m) === '' ? null : modelText(m),
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: argumentsToText(c.arguments) },
            })),
          };
        }
        return { role: 'assistant', content: modelText(m) };
      case 'tool':
        if (!m.toolCallId) {
          throw new TypeError(`Message ${i} is a tool result without toolCallId; OpenAI-compatible servers need it to match the call.`);
        }
        return { role: 'tool', tool_call_id: m.toolCallId, content: modelText(m) };
    }
  });
}

export function toOpenAITools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/**
 * `response_format: {type: "json_schema", json_schema: {name, schema, strict: false}}`. Not strict: OpenAI's strict mode
 * rejects schemas with optional fields, and local servers (llama.cpp, LM Studio, vLLM) constrain by the schema anyway.
 */
export function toOpenAIResponseFormat(format: ResponseFormat): ResponseFormatJSONSchema {
  return { type: 'json_schema', json_schema: { name: schemaName(format.name), schema: format.schema, strict: false } };
}

/** OpenAI allows a-z, A-Z, 0-9, '_' and '-', at most 64 characters; some servers reject anything else. */
function schemaName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64);
  return clean === '' ? 'response' : clean;
}
