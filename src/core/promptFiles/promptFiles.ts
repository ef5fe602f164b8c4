// Prompt files: reusable prompts the user runs as `/name` — Copilot's `.github/prompts/NAME.prompt.md` and our
// `.localharness/prompts/NAME.md`, in each workspace folder. Front matter: `description`, optional `mode`
// (agent, plan, ask; Copilot's `edit` runs as agent) and `tools` (the only tools the turn offers). The body is
// the message; `${input:…}` placeholders and `$ARGUMENTS` take the text typed after the command, which is
// otherwise added at the end.
import * as path from 'node:path';
import type { FileSystemPort } from '../ports';
import type { WorkspaceFolder } from '../workspace/workspaceRoots';
import { isChatMode, type ChatMode } from '../modes/chatMode';
import { listField, parseFrontMatter, textField } from '../skills/frontMatter';

export const PROMPT_DIRS = [
  { dir: '.github/prompts', suffix: '.prompt.md' },
  { dir: '.localharness/prompts', suffix: '.md' },
] as const;
const MAX_PROMPTS = 200;
const MAX_CHARS = 60_000;

export interface PromptFile {
  /** What follows the slash. */
  name: string;
  description?: string;
  mode?: ChatMode;
  tools?: string[];
  /** Absolute path. */
  file: string;
  body: string;
}

/** Every prompt file of the folders; the first of a name wins (folders in order, `.github` before `.localharness`). */
export async function discoverPromptFiles(fs: FileSystemPort, folders: readonly WorkspaceFolder[]): Promise<PromptFile[]> {
  const out: PromptFile[] = [];
  const names = new Set<string>();
  for (const folder of folders) {
    for (const place of PROMPT_DIRS) {
      const dir = path.join(folder.path, place.dir);
      const stat = await fs.lstat(dir).catch(() => undefined);
      if (stat?.kind !== 'directory') continue;
      const entries = await fs.readDirectory(dir).catch(() => []);
      for (const e of entries.filter((e) => e.kind === 'file' && e.name.toLowerCase().endsWith(place.suffix)).sort((a, b) => a.name.localeCompare(b.name))) {
        const name = e.name.slice(0, -place.suffix.length).replace(/\.prompt$/i, '');
        if (!/^[^\s/]+$/.test(name) || names.has(name) || out.length >= MAX_PROMPTS) continue;
        const text = await fs.readFile(path.join(dir, e.name)).catch(() => undefined);
        if (text === undefined) continue;
        names.add(name);
        out.push(promptFileOf(name, path.join(dir, e.name), text.slice(0, MAX_CHARS)));
      }
    }
  }
  return out;
}

export function promptFileOf(name: string, file: string, text: string): PromptFile {
  const fm = parseFrontMatter(text);
  const description = textField(fm, 'description');
  const rawMode = textField(fm, 'mode')?.toLowerCase();
  const mode = rawMode === 'edit' ? 'agent' : isChatMode(rawMode) ? rawMode : undefined;
  const tools = listField(fm, 'tools');
  return { name, file, body: fm.body.trim(), ...(description && { description }), ...(mode && { mode }), ...(tools?.length && { tools }) };
}

const PLACEHOLDER = /\$\{input:[^}]*\}|\$ARGUMENTS\b/g;

/** The message a prompt file becomes with the text typed after `/name`. Throws when there is nothing to send. */
export function promptFileText(prompt: PromptFile, typed = ''): string {
  const extra = typed.trim();
  const hasPlaceholder = PLACEHOLDER.test(prompt.body);
  PLACEHOLDER.lastIndex = 0;
  const body = hasPlaceholder ? prompt.body.replace(PLACEHOLDER, () => extra) : prompt.body;
  const text = !hasPlaceholder && extra ? `${body}\n\n${extra}` : body;
  if (text.trim() === '') throw new Error(`the prompt file /${prompt.name} (${prompt.file}) is empty`);
  return text.trim();
}
