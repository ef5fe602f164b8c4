// Project rules the user keeps in the workspace: AGENTS.md and .localharness/rules/*.md in each folder.
// Read through the FileSystemPort (works in the editor and the CLI), capped so a huge file cannot crowd
// out the conversation.
import * as path from 'node:path';
import type { FileSystemPort } from '../ports';
import type { WorkspaceFolder } from '../workspace/workspaceRoots';

export interface RulesOptions {
  /** Cap on all rules text together. */
  maxChars?: number;
  /** Cap per file. */
  maxFileChars?: number;
}

export interface WorkspaceRules {
  /** The rules, each file under a "## <file>" heading; empty when there are none. */
  text: string;
  /** Files read, relative to their folder (prefixed with the folder name in multi-root workspaces). */
  files: string[];
  /** Some text was cut to stay within the caps. */
  truncated: boolean;
}

export const RULES_DIR = '.localharness/rules';
export const DEFAULT_RULES_MAX_CHARS = 6000;

export async function loadWorkspaceRules(fs: FileSystemPort, folders: readonly WorkspaceFolder[], signal: AbortSignal, options: RulesOptions = {}): Promise<WorkspaceRules> {
  const maxChars = options.maxChars ?? DEFAULT_RULES_MAX_CHARS;
  const maxFileChars = options.maxFileChars ?? Math.min(maxChars, 4000);
  const result: WorkspaceRules = { text: '', files: [], truncated: false };
  const sections: string[] = [];
  let used = 0;
  for (const folder of folders) {
    for (const rel of await candidates(fs, folder.path)) {
      if (signal.aborted) throw new Error('Loading the workspace rules was cancelled.');
      if (used >= maxChars) {
        result.truncated = true;
        return finish(result, sections);
      }
      const content = await readRegularFile(fs, path.join(folder.path, rel));
      if (content === undefined || content.trim() === '') continue;
      const label = folders.length > 1 ? `${folder.name}/${rel}` : rel;
      let body = content.trim();
      const room = Math.min(maxFileChars, maxChars - used);
      used += Math.min(body.length, room); // the caps count the rules' own text, not our cut notes
      if (body.length > room) {
        body = `${body.slice(0, room)}\n[… rest of ${label} left out to save space]`;
        result.truncated = true;
      }
      result.files.push(label);
      sections.push(`## ${label}\n${body}`);
    }
  }
  return finish(result, sections);
}

function finish(result: WorkspaceRules, sections: string[]): WorkspaceRules {
  result.text = sections.join('\n\n');
  return result;
}

/** AGENTS.md first, then the rules folder's markdown files in name order. */
async function candidates(fs: FileSystemPort, root: string): Promise<string[]> {
  const out = ['AGENTS.md'];
  const dir = path.join(root, RULES_DIR);
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (stat?.kind !== 'directory') return out;
  const entries = await fs.readDirectory(dir).catch(() => []);
  const names = entries.filter((e) => e.kind === 'file' && e.name.toLowerCase().endsWith('.md')).map((e) => e.name);
  names.sort();
  return out.concat(names.map((n) => `${RULES_DIR}/${n}`));
}

/** Only regular files: a symlink could point outside the workspace. */
async function readRegularFile(fs: FileSystemPort, file: string): Promise<string | undefined> {
  const stat = await fs.lstat(file).catch(() => undefined);
  if (stat?.kind !== 'file') return undefined;
  return fs.readFile(file).catch(() => undefined);
}
