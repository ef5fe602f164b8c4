// The conversation as the core sees it: provider-neutral messages.
import { formatAttachedMessage, type AttachedBlock } from '../shared/attachedMessage';
import type { ImagePart } from './images/imagePart';

/** Code (or an MCP resource) the user attached to a message, as read when it was sent. */
export type MessageAttachment = AttachedBlock;

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
  /** For role "user": what the user attached (data; the prompt text is made of it only when the request is built). */
  attachments?: MessageAttachment[];
  /**
   * Images the model sees with this message: the user's (role "user") or a tool's (read_file of an image). Sent as
   * Ollama `images` / OpenAI `image_url` parts; once compressed or evicted a one-line stand-in replaces them.
   */
  images?: ImagePart[];
}

/**
 * The text a message carries to the model: the attached code (fenced blocks headed `path:start-end`) before the
 * user's own words, then the context the harness added.
 */
export function modelText(m: Pick<ChatMessage, 'content' | 'context' | 'attachments'>): string {
  const content = m.attachments?.length ? formatAttachedMessage(m.content, m.attachments) : m.content;
  if (!m.context) return content;
  return content ? `${content}\n\n${m.context}` : m.context;
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
