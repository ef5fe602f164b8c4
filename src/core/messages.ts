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
  /**
   * What the harness told the model along with this message when it was first sent (the working context at the
   * start of a turn, retrieved code, a changed todo list): sent after `content`, kept byte for byte in every later
   * request so the server's prompt cache holds, and never shown as the message itself.
   */
  context?: string;
}

/** The text a message carries to the model: its content, then the context the harness added to it. */
export function modelText(m: Pick<ChatMessage, 'content' | 'context'>): string {
  if (!m.context) return m.content;
  return m.content ? `${m.content}\n\n${m.context}` : m.context;
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
