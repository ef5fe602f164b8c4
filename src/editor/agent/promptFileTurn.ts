// A message `/name more text` naming one of the workspace's prompt files becomes that file's text (and mode).
// MCP prompts (`/server.prompt`) are routed before this; anything else stays the message as typed.
import type { FileSystemPort } from '../../core/ports';
import type { ChatMode } from '../../core/modes/chatMode';
import type { WorkspaceFolder } from '../../core/workspace/workspaceRoots';
import { discoverPromptFiles, promptFileText, type PromptFile } from '../../core/promptFiles/promptFiles';
import { parseSlashCommand, type SlashCommandInfo } from '../../shared/slashCommand';

export interface ResolvedPromptFile {
  name: string;
  file: string;
  text: string;
  mode?: ChatMode;
  tools?: string[];
}

export async function resolvePromptFile(message: string, fs: FileSystemPort, folders: readonly WorkspaceFolder[]): Promise<ResolvedPromptFile | undefined> {
  const slash = parseSlashCommand(message);
  if (!slash || folders.length === 0) return undefined;
  const prompt = (await discoverPromptFiles(fs, folders)).find((p) => p.name === slash.command);
  if (!prompt) return undefined;
  return { name: prompt.name, file: prompt.file, text: promptFileText(prompt, slash.rest), ...(prompt.mode && { mode: prompt.mode }), ...(prompt.tools && { tools: prompt.tools }) };
}

/** The panel's slash commands for the prompt files. */
export function promptFileCommands(prompts: readonly PromptFile[]): SlashCommandInfo[] {
  return prompts.map((p) => ({ command: p.name, description: [p.description ?? 'prompt file', p.mode && p.mode !== 'agent' ? `(${p.mode})` : ''].filter(Boolean).join(' ') }));
}
