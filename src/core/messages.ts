// The conversation as the core sees it: provider-neutral messages.

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call as the model produced it. `arguments` is raw: providers may hand us an object or a (possibly invalid) JSON string. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

export interface ChatMessage {
  role: Role;
  content: string;
  thinking?: string;
  toolCalls?: ToolCall[];
  /** For role "tool": the call this result answers. */
  toolCallId?: string;
  /** For role "tool": the tool's name (Ollama wants it as `tool_name`). */
  toolName?: string;
}

/** A tool definition in the shape both wire formats accept (`{type:"function", function:{…}}`). */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export function argumentsToText(args: ToolCall['arguments']): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}
