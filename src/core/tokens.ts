// Token estimation. A cheap estimate that later calibration (per model) corrects toward the server's counts.
import { modelText, type ChatMessage, type ToolDefinition } from './messages';
import { estimateImageTokens } from './images/imageText';

/** Roughly 4 characters a token for English prose, fewer for code and JSON (more punctuation). */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  let punctuation = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Punctuation and symbols tend to be their own tokens.
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) punctuation++;
  }
  return Math.ceil((text.length - punctuation) / 4.2 + punctuation * 0.6);
}

/** Per-message framing the chat templates add (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

export function estimateMessageTokens(message: ChatMessage): number {
  // What the message carries to the model: attached code, the text, the context the harness added.
  let n = MESSAGE_OVERHEAD + estimateTokens(modelText(message));
  for (const call of message.toolCalls ?? []) {
    n += estimateTokens(call.name) + estimateTokens(typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)) + 4;
  }
  for (const image of message.images ?? []) n += estimateImageTokens(image);
  return n;
}

export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
}

export function estimateToolDefinitionTokens(tools: readonly ToolDefinition[]): number {
  if (tools.length === 0) return 0;
  return estimateTokens(JSON.stringify(tools.map((t) => ({ type: 'function', function: t }))));
}
