// What the editor adds to the core's system prompt and tool offer for workspaces it must not change:
// Restricted Mode (untrusted) offers read tools only, no folder offers none. Pure (unit-tested).
import type { PromptPart } from '../../core/prompt/parts';
import type { RiskLevel } from '../../core/tools/tool';

export type ToolAccess = 'all' | 'read-only' | 'none';

export const RESTRICTED_NOTE =
  'This workspace is not trusted: you only have read tools (list, read, search). You cannot edit files or run commands; if the task needs that, say what to change and ask the user to trust the workspace.';
export const NO_FOLDER_NOTE = 'No folder is open, so you have no tools. Answer from the conversation, or ask the user to open a folder.';

/** Ranked just below the base instructions: the model must not plan around tools it does not have. */
const RESTRICTION_PRIORITY = 95;

export function restrictionParts(access: ToolAccess): PromptPart[] {
  if (access === 'read-only') return [{ name: 'restrictions', priority: RESTRICTION_PRIORITY, text: RESTRICTED_NOTE }];
  if (access === 'none') return [{ name: 'restrictions', priority: RESTRICTION_PRIORITY, text: NO_FOLDER_NOTE }];
  return [];
}

/** The risk levels offered to the model; undefined = every tool. */
export function allowedRisksFor(access: ToolAccess): readonly RiskLevel[] | undefined {
  if (access === 'read-only') return ['read'];
  if (access === 'none') return [];
  return undefined;
}
