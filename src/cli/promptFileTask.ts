// `run "/name more text"`: a prompt file of the workspace becomes the task (its mode unless --mode says otherwise).
// Anything else, a path like `/etc/hosts` included, stays the task as typed.
import type { FileSystemPort } from '../core/ports';
import type { WorkspaceFolder } from '../core/workspace/workspaceRoots';
import type { ChatMode } from '../core/modes/chatMode';
import { discoverPromptFiles, promptFileText } from '../core/promptFiles/promptFiles';
import { parseSlashCommand } from '../shared/slashCommand';

export interface PromptTask {
  text: string;
  mode?: ChatMode;
  /** The file's `tools`: the only tools the turn offers. */
  tools?: string[];
  /** The prompt file's name, when one was used. */
  prompt?: string;
}

export async function promptFileTask(task: string, fs: FileSystemPort, folders: readonly WorkspaceFolder[]): Promise<PromptTask> {
  const slash = parseSlashCommand(task);
  if (!slash) return { text: task };
  const prompt = (await discoverPromptFiles(fs, folders)).find((p) => p.name === slash.command);
  if (!prompt) return { text: task };
  return { text: promptFileText(prompt, slash.rest), prompt: prompt.name, ...(prompt.mode && { mode: prompt.mode }), ...(prompt.tools && { tools: prompt.tools }) };
}
