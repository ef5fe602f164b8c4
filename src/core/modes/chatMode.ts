// Agent, Plan and Ask: what one turn may do. The mode never touches the system prompt (the server keeps it cached):
// its note travels with the turn's user message (the working-context tail), the tools a turn offers are those of
// its risk levels, and the executor refuses any other call even when a model makes one up.
import type { RiskLevel } from '../tools/tool';

export type ChatMode = 'agent' | 'plan' | 'ask';
export const CHAT_MODES: readonly ChatMode[] = ['agent', 'plan', 'ask'];

export function isChatMode(value: unknown): value is ChatMode {
  return typeof value === 'string' && (CHAT_MODES as readonly string[]).includes(value);
}

/** The risk levels a turn in `mode` offers, within what the session allows (undefined: every tool). */
export function modeRisks(mode: ChatMode, session: readonly RiskLevel[] | undefined): readonly RiskLevel[] | undefined {
  if (mode === 'agent') return session;
  if (mode === 'ask') return [];
  return (session ?? ['read']).filter((r) => r === 'read');
}

export const PLAN_NOTE =
  '# Mode: Plan\nPlan only: you may read, list and search files, but change nothing (calls that write or run are refused). ' +
  'Answer with a concrete numbered plan: the files and functions to change, what to change in each, and how to check it. ' +
  'The user reviews the plan and runs it with Act.';
export const ASK_NOTE = '# Mode: Ask\nAnswer only: you have no tools this turn. Answer from the conversation, the attached and retrieved code.';
export const AGENT_NOTE = '# Mode: Agent\nYou may use all your tools again to make the changes.';

/** The note for this turn's message: always in Plan and Ask, in Agent only right after another mode. */
export function modeNote(mode: ChatMode, previous: ChatMode | undefined): string | undefined {
  if (mode === 'plan') return PLAN_NOTE;
  if (mode === 'ask') return ASK_NOTE;
  return previous && previous !== 'agent' ? AGENT_NOTE : undefined;
}

/** What the model reads when it calls a tool its mode does not allow (undefined: the call may go on). */
export function modeRefusal(mode: ChatMode, tool: { name: string; risk: RiskLevel } | undefined): string | undefined {
  if (mode === 'agent' || !tool) return undefined;
  if (mode === 'ask') return `Not run: this is Ask mode, where no tools run (${tool.name} included). Answer from what you already have.`;
  if (tool.risk === 'read') return undefined;
  return `Not run: this is Plan mode, where nothing is changed or executed (${tool.name} is a ${tool.risk} tool). Put this step in your plan instead; the user runs the plan with Act.`;
}

/** A prompt file's `tools` limit the turn: any other tool (but the loop-breaking ones) is refused. */
export function onlyRefusal(tool: { name: string; loopBreaking?: boolean }, only: readonly string[]): string | undefined {
  if (tool.loopBreaking || only.includes(tool.name)) return undefined;
  return `Not run: this request allows only these tools: ${only.join(', ')}.`;
}

export { actText } from '../../shared/planAct';
