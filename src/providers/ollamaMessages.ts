// ChatMessage / ToolDefinition → Ollama `/api/chat` shapes.
import type { Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import { modelText, type ChatMessage, type ToolCall, type ToolDefinition } from '../core/messages';

/**
 * Key under which an assistant's unparseable string arguments are sent back to Ollama. Ollama wants an
 * object there; wrapping keeps the model's exact (broken) output in the history instead of dropping it.
 */
export const RAW_ARGUMENTS_KEY = '__raw_arguments';

/** `withReasoning`: the model's template needs its earlier reasoning back (gpt-oss); others never get it. */
export function toOllamaMessages(messages: readonly ChatMessage[], withReasoning = false): OllamaMessage[] {
  // Ollama takes `images` (bare base64) on any message, a tool result's included.
  return messages.map((m) => withImages(m, toOllamaMessage(m, withReasoning)));
}

function withImages(m: ChatMessage, out: OllamaMessage): OllamaMessage {
  return m.images?.length ? { ...out, images: m.images.map((i) => i.data) } : out;
}

function toOllamaMessage(m: ChatMessage, withReasoning: boolean): OllamaMessage {
  const reasoning = withReasoning && m.role === 'assistant' && m.thinking ? { thinking: m.thinking } : {};
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: modelText(m),
      ...reasoning,
      tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: argumentsObject(c.arguments) } })),
    };
  }
  if (m.role === 'assistant') return { role: 'assistant', content: modelText(m), ...reasoning };
  if (m.role === 'tool') {
    return { role: 'tool', content: modelText(m), ...(m.toolName && { tool_name: m.toolName }) };
  }
  return { role: m.role, content: modelText(m) };
}

export function argumentsObject(args: ToolCall['arguments']): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  const trimmed = args.trim();
  if (trimmed === '') return {};
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through: keep the raw text
  }
  return { [RAW_ARGUMENTS_KEY]: args };
}

export function toOllamaTools(tools: readonly ToolDefinition[]): OllamaTool[] {
  return tools.map((t) => ({
    type: 'function',
    // ollama-js types `parameters` more narrowly than JSON Schema; the server accepts any schema object.
    function: { name: t.name, description: t.description, parameters: t.parameters as OllamaTool['function']['parameters'] },
  }));
}
