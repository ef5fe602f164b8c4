// The system prompt for editor turns: the core's default parts, the hot context as its own part (rebuilt
// before every model call), and a note when the workspace is restricted. Pure (unit-tested).
import type { ContextTracker } from '../../core/context/tracker';
import { renderHotContext } from '../../core/context/hotContext';
import { assemblePrompt, type PromptPart } from '../../core/prompt/parts';
import { defaultPromptParts, type SystemInfo } from '../../core/prompt/systemPrompt';

export type ToolAccess = 'all' | 'read-only' | 'none';

export const RESTRICTED_NOTE =
  'This workspace is not trusted: you only have read tools (list, read, search). You cannot edit files or run commands; if the task needs that, say what to change and ask the user to trust the workspace.';
export const NO_FOLDER_NOTE = 'No folder is open, so you have no tools. Answer from the conversation, or ask the user to open a folder.';

export interface PromptSource {
  systemInfo: SystemInfo;
  tracker: ContextTracker;
  access: ToolAccess;
  loopBreakingTools: boolean;
  /** Token budget for the system prompt; lower-priority parts are dropped first. */
  budgetTokens?: number;
}

export function buildSystemPrompt(source: PromptSource): string {
  const parts: PromptPart[] = defaultPromptParts(source.systemInfo, {
    hotContext: renderHotContext(source.tracker.snapshot()),
    loopBreakingTools: source.loopBreakingTools,
  });
  if (source.access === 'read-only') parts.push({ name: 'restrictions', priority: 95, text: RESTRICTED_NOTE });
  if (source.access === 'none') parts.push({ name: 'restrictions', priority: 95, text: NO_FOLDER_NOTE });
  return assemblePrompt(parts, source.budgetTokens ?? Infinity).text;
}
