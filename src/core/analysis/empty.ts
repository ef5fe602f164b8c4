// An empty reply: no answer text (thinking alone does not count) and no tool calls.
import type { ToolCall } from '../messages';
import { stripThinking } from './text';

export function isEmptyResponse(reply: { text: string; toolCalls?: readonly ToolCall[] }): boolean {
  if (reply.toolCalls && reply.toolCalls.length > 0) return false;
  return stripThinking(reply.text).trim() === '';
}
