// Text protocol: rewrites the conversation so a model without native tool calling can read it. Its own
// earlier calls become `<tool>` blocks in its messages and tool results become user messages.
import { argumentsToText, modelText, type ChatMessage, type ToolCall } from '../messages';
import { localNaming, type ToolNaming } from './toolIndex';
import { TEXT_PROTOCOL_HEADER } from './textPrompt';

export interface TextProtocolMessageOptions {
  naming?: ToolNaming;
  /** The tool-calling part, appended to the system message when it is not there yet. */
  systemPart?: string;
}

export function toTextProtocolMessages(messages: readonly ChatMessage[], options: TextProtocolMessageOptions = {}): ChatMessage[] {
  const naming = options.naming ?? localNaming;
  const out: ChatMessage[] = [];
  const push = (message: ChatMessage) => {
    const last = out[out.length - 1];
    // Strict chat templates want user and assistant to alternate: merge neighbouring user messages.
    if (last && last.role === 'user' && message.role === 'user') {
      last.content = `${last.content}\n\n${message.content}`;
      if (message.images?.length) last.images = [...(last.images ?? []), ...message.images];
    } else out.push(message);
  };
  for (const m of messages) {
    if (m.role === 'system') {
      const part = options.systemPart;
      const content = part && !m.content.includes(TEXT_PROTOCOL_HEADER) ? `${m.content}\n\n${part}` : m.content;
      push({ role: 'system', content });
    } else if (m.role === 'assistant') {
      const blocks = (m.toolCalls ?? []).map((c) => toolBlockText(c, naming));
      const content = [modelText(m).trim(), ...blocks].filter((s) => s !== '').join('\n');
      push({ role: 'assistant', content, ...(m.thinking !== undefined && { thinking: m.thinking }) });
    } else if (m.role === 'tool') {
      const name = m.toolName ? naming(m.toolName).tool : 'tool';
      push({ role: 'user', content: `[Result of ${name}]\n${modelText(m)}`, ...(m.images?.length && { images: [...m.images] }) });
    } else {
      push({ role: 'user', content: modelText(m), ...(m.images?.length && { images: [...m.images] }) });
    }
  }
  return out;
}

export function toolBlockText(call: ToolCall, naming: ToolNaming = localNaming): string {
  const { server, tool } = naming(call.name);
  let args: unknown = call.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(argumentsToText(args) || '{}');
    } catch {
      // Keep what the model wrote; the result message already told it the arguments were invalid.
    }
  }
  return `<tool>${JSON.stringify({ server_name: server, tool_name: tool, arguments: args })}</tool>`;
}
