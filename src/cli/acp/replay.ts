// A stored conversation as ACP updates (session/load): the user's messages, the agent's thoughts and answers,
// each tool call with its result, in the order they happened.
import type * as acp from '@agentclientprotocol/sdk';
import type { ChatMessage } from '../../core/messages';
import { toolKind, toolLocations } from './eventUpdates';

export function replayUpdates(history: readonly ChatMessage[], workspace: string): acp.SessionUpdate[] {
  const out: acp.SessionUpdate[] = [];
  for (const m of history) {
    if (m.role === 'user') {
      if (m.content) out.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: m.content } });
    } else if (m.role === 'assistant') {
      if (m.thinking) out.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: m.thinking } });
      if (m.content) out.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: m.content } });
      for (const call of m.toolCalls ?? []) {
        const args = typeof call.arguments === 'string' ? parseArgs(call.arguments) : call.arguments;
        out.push({ sessionUpdate: 'tool_call', toolCallId: call.id, title: call.name, kind: toolKind(call.name), status: 'pending', locations: toolLocations(args, workspace), rawInput: args });
      }
    } else if (m.role === 'tool' && m.toolCallId) {
      out.push({ sessionUpdate: 'tool_call_update', toolCallId: m.toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: m.content } }] });
    }
  }
  return out;
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
