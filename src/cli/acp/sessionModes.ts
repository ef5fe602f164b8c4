// Agent, Plan and Ask as ACP session modes: offered in session/new and session/load, chosen with session/set_mode.
// The chosen mode goes with each prompt's turn; it never changes the system prompt (see core/modes/chatMode.ts).
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { CHAT_MODES, isChatMode, type ChatMode } from '../../core/modes/chatMode';

const MODES: Record<ChatMode, { name: string; description: string }> = {
  agent: { name: 'Agent', description: 'Reads, edits files and runs commands (asking as the approval settings say)' },
  plan: { name: 'Plan', description: 'Reads and searches, changes nothing: answers with a numbered plan' },
  ask: { name: 'Ask', description: 'Answers from the conversation and attached code; no tools run' },
};

export function modeState(current: ChatMode): acp.SessionModeState {
  return { currentModeId: current, availableModes: CHAT_MODES.map((id) => ({ id, ...MODES[id] })) };
}

/** The mode a session/set_mode names; anything else is the client's error, said plainly. */
export function requestedMode(modeId: unknown): ChatMode {
  if (isChatMode(modeId)) return modeId;
  throw RequestError.invalidParams({ modeId }, `unknown mode "${String(modeId)}"; the modes are ${CHAT_MODES.join(', ')}`);
}
