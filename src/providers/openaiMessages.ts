// ChatMessage / ToolDefinition → the OpenAI chat-completions request shapes.
import type {
  ChatCompletionContentPartImage,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { argumentsToText, modelText, type ChatMessage, type ToolDefinition } from '../core/messages';
import type { ResponseFormat } from '../core/provider';
import { dataUrl, type ImagePart } from '../core/images/imagePart';

/** `withReasoning`: earlier reasoning goes back as `reasoning_content` (llama.cpp, for gpt-oss); others never get it. */
export function toOpenAIMessages(messages: readonly ChatMessage[], withReasoning = false): ChatCompletionMessageParam[] {
  // A tool result's images cannot ride on the tool message (text only there): they follow the run of tool results
  // as a user message of image parts, the shape OpenAI-compatible servers accept.
  const out: ChatCompletionMessageParam[] = [];
  let pending: ImagePart[] = [];
  messages.forEach((m, i) => {
    if (pending.length && m.role !== 'tool') out.push(toolImagesMessage(pending.splice(0)));
    out.push(withReasoning && m.role === 'assistant' && m.thinking ? ({ ...toOpenAIMessage(m, i), reasoning_content: m.thinking } as unknown as ChatCompletionMessageParam) : toOpenAIMessage(m, i));
    if (m.role === 'tool' && m.images?.length) pending.push(...m.images);
  });
  if (pending.length) out.push(toolImagesMessage(pending));
  return out;
}

function toolImagesMessage(images: readonly ImagePart[]): ChatCompletionMessageParam {
  const names = images.map((i) => i.name).join(', ');
  return { role: 'user', content: [{ type: 'text', text: `The image${images.length === 1 ? '' : 's'} read above: ${names}` }, ...images.map(imageUrlPart)] };
}

function imageUrlPart(image: ImagePart): ChatCompletionContentPartImage {
  return { type: 'image_url', image_url: { url: dataUrl(image) } };
}

function toOpenAIMessage(m: ChatMessage, i: number): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      // With images: content parts, the text first (llama.cpp, LM Studio and vLLM all read this order).
      if (m.images?.length) return { role: 'user', content: [{ type: 'text', text: modelText(m) }, ...m.images.map(imageUrlPart)] };
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
