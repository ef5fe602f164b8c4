// Assembles the system prompt from named, prioritised parts (seed 004). When the budget is tight the
// lowest-priority parts are left out first, and the result says which ones.
import type { ToolDefinition } from '../messages';
import type { Todo } from '../workingContext/tracker';
import { todoMark } from '../workingContext/hotContext';
import type { ToolProtocol } from '../toolProtocol/protocolSetting';
import { renderTextProtocolPart } from '../toolProtocol/textPrompt';
import { ToolIndex, type ToolNaming } from '../toolProtocol/toolIndex';
import { assemblePrompt, type AssembledPrompt, type PromptPart } from './parts';
import { BASE_INSTRUCTIONS, LOOP_RULES, type SystemInfo } from './systemPrompt';

export const PART_PRIORITY = {
  base: Infinity,
  /** Without it a model in xml mode cannot call anything. */
  tool_calling: Infinity,
  loop_rules: 90,
  user_instructions: 85,
  rules_files: 80,
  planning: 75,
  hot_context: 70,
  capabilities: 50,
  chain_of_thought: 30,
  /** Retrieved code is the least needed and the largest optional part: the first to go when the window is tight. */
  retrieved_context: 20,
} as const;

/** The skills' list: just below the rules files (a skill is a rules pack loaded on demand). */
export const SKILLS_PRIORITY = 78;

export const CHAIN_OF_THOUGHT = 'Before each step, think briefly: what you know, what is missing, and which tool gets it. Keep that reasoning short.';
export const LOOP_BREAKING_RULE = '- When everything is done, call task_completion with a summary; use ask_question only when you truly cannot proceed.';

export interface PromptInput {
  system: SystemInfo;
  /** The user's own instructions (setting). */
  userInstructions?: string;
  /** Rules from the workspace (see loadWorkspaceRules). */
  rules?: string;
  /** The skills' names and descriptions (see core/skills). */
  skills?: string;
  /** task_completion / ask_question are offered. */
  loopBreakingTools?: boolean;
  chainOfThought?: boolean;
  /** In xml mode the tool list and calling rules become part of the prompt. */
  toolProtocol?: ToolProtocol;
  tools?: readonly ToolDefinition[];
  toolNaming?: ToolNaming;
  todos?: readonly Todo[];
  /** The slot for retrieved code context (indexing). */
  retrievedContext?: string;
  hotContext?: string;
  /** Host-specific parts (e.g. the editor's Restricted Mode note), placed after the loop rules. */
  extraParts?: readonly PromptPart[];
  /** Token budget for the whole system prompt; parts are dropped to fit. */
  budgetTokens?: number;
  count?: (text: string) => number;
}

export interface BuiltPrompt extends AssembledPrompt {
  /** Set when parts were dropped: a line for the event stream. */
  notice?: string;
}

export function promptParts(input: PromptInput): PromptPart[] {
  const parts: PromptPart[] = [{ name: 'base', priority: PART_PRIORITY.base, text: BASE_INSTRUCTIONS }];
  const add = (name: keyof typeof PART_PRIORITY, text: string | undefined) => {
    if (text && text.trim()) parts.push({ name, priority: PART_PRIORITY[name], text });
  };
  add('user_instructions', input.userInstructions && `User instructions:\n${input.userInstructions.trim()}`);
  add('rules_files', input.rules && `Project rules:\n${input.rules.trim()}`);
  if (input.skills?.trim()) parts.push({ name: 'skills', priority: SKILLS_PRIORITY, text: input.skills });
  add('loop_rules', LOOP_RULES + (input.loopBreakingTools ? `\n${LOOP_BREAKING_RULE}` : ''));
  for (const part of input.extraParts ?? []) if (part.text.trim()) parts.push(part);
  add('capabilities', capabilitiesText(input.system));
  if (input.chainOfThought) add('chain_of_thought', CHAIN_OF_THOUGHT);
  if (input.toolProtocol === 'xml') add('tool_calling', renderTextProtocolPart(new ToolIndex(input.tools ?? [], input.toolNaming)));
  add('planning', planningText(input.todos));
  add('retrieved_context', input.retrievedContext && `Possibly relevant code:\n${input.retrievedContext.trim()}`);
  add('hot_context', input.hotContext);
  return parts;
}

export function composeSystemPrompt(input: PromptInput): BuiltPrompt {
  const budget = input.budgetTokens ?? Infinity;
  const assembled = input.count ? assemblePrompt(promptParts(input), budget, input.count) : assemblePrompt(promptParts(input), budget);
  if (assembled.dropped.length === 0) return assembled;
  return { ...assembled, notice: `The system prompt was over its budget of ${budget} tokens; left out: ${assembled.dropped.join(', ')}.` };
}

export function capabilitiesText(info: SystemInfo): string {
  const folders = info.workspaceFolders.length ? info.workspaceFolders.join(', ') : '(none)';
  return `Environment: ${info.os}, shell ${info.shell}. Workspace: ${folders}.`;
}

function planningText(todos: readonly Todo[] | undefined): string | undefined {
  if (!todos || todos.length === 0) return undefined;
  return `Plan (work through the open items in order; keep the list current):\n${todos.map((t) => `- [${todoMark(t)}] ${t.text}`).join('\n')}`;
}
