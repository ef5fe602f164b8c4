// Skills: folders holding a SKILL.md (front matter `name` and `description`, a markdown body, optional files beside
// it) in the workspace's `.agents/skills/` and `.localharness/skills/` and in the user's own folder. Only the names
// and descriptions go into the system prompt; load_skill brings a body in when the model asks for it.
// Read through the FileSystemPort, regular files only (a symlink could point anywhere).
import * as path from 'node:path';
import type { FileSystemPort } from '../ports';
import type { WorkspaceFolder } from '../workspace/workspaceRoots';
import { parseFrontMatter, textField } from './frontMatter';

export const WORKSPACE_SKILL_DIRS = ['.agents/skills', '.localharness/skills'] as const;
export const SKILL_FILE = 'SKILL.md';
/** One skill's description in the prompt list: a line, not a paragraph. */
const MAX_DESCRIPTION = 160;
const MAX_SKILLS = 100;
/** Files listed beside a skill (they are read with read_file or load_skill {name, file}). */
const MAX_FILES = 50;

export interface Skill {
  name: string;
  description: string;
  /** The folder holding SKILL.md (absolute). */
  dir: string;
  /** Where it came from: a workspace folder's name or "user". */
  source: string;
}

export interface SkillSources {
  folders: readonly WorkspaceFolder[];
  /** The user's skills folder (absolute; ~/.localharness/skills by default in the hosts). */
  userFolder?: string;
}

/** Every skill, workspace first; a later skill with a name already seen is skipped (the first one wins). */
export async function discoverSkills(fs: FileSystemPort, sources: SkillSources, signal?: AbortSignal): Promise<Skill[]> {
  const places: Array<{ dir: string; source: string }> = [];
  for (const folder of sources.folders) for (const rel of WORKSPACE_SKILL_DIRS) places.push({ dir: path.join(folder.path, rel), source: folder.name });
  if (sources.userFolder) places.push({ dir: sources.userFolder, source: 'user' });
  const skills: Skill[] = [];
  const names = new Set<string>();
  for (const place of places) {
    if (signal?.aborted) throw new Error('Loading the skills was cancelled.');
    for (const entry of await directories(fs, place.dir)) {
      if (skills.length >= MAX_SKILLS) return skills;
      const dir = path.join(place.dir, entry);
      const text = await readRegular(fs, path.join(dir, SKILL_FILE));
      if (text === undefined) continue;
      const fm = parseFrontMatter(text);
      const name = textField(fm, 'name') ?? entry;
      const description = textField(fm, 'description');
      if (!description || names.has(name)) continue;
      names.add(name);
      skills.push({ name, description: oneLine(description), dir, source: place.source });
    }
  }
  return skills;
}

/** The compact list for the system prompt; empty when there are no skills. */
export function renderSkillList(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  // One short line each: twenty skills should cost a few hundred tokens, not the thousands their bodies would.
  // The header only says how to use one; that a skill is for when it fits goes without saying.
  const lines = skills.map((s) => `${s.name}: ${s.description}`);
  return `Skills (load one with load_skill):\n${lines.join('\n')}`;
}

/** SKILL.md's body and the files beside it (relative), or the text of one of those files. */
export async function readSkill(fs: FileSystemPort, skill: Skill, file?: string): Promise<string> {
  if (file !== undefined) {
    const rel = path.normalize(file);
    if (path.isAbsolute(rel) || rel === '..' || rel.startsWith(`..${path.sep}`)) throw new Error(`"${file}" is not a file of the skill ${skill.name}: give a path relative to its folder`);
    const target = path.join(skill.dir, rel);
    // A linked folder inside the skill could lead anywhere: the file must really be inside the skill's folder.
    const [realDir, realTarget] = await Promise.all([fs.realpath(skill.dir), fs.realpath(target).catch(() => undefined)]);
    if (realTarget !== undefined && path.relative(realDir, realTarget).startsWith('..')) throw new Error(`"${file}" leads outside the skill ${skill.name}'s folder`);
    const text = realTarget === undefined ? undefined : await readRegular(fs, target);
    if (text === undefined) throw new Error(`the skill ${skill.name} has no file "${file}"; its files: ${(await skillFiles(fs, skill.dir)).join(', ') || '(none)'}`);
    return text;
  }
  const text = await readRegular(fs, path.join(skill.dir, SKILL_FILE));
  if (text === undefined) throw new Error(`the skill ${skill.name} is gone (its SKILL.md cannot be read)`);
  const files = await skillFiles(fs, skill.dir);
  const listed = files.length ? `\n\nFiles of this skill (folder ${skill.dir}; read one with load_skill {"name": "${skill.name}", "file": "<path>"}):\n${files.map((f) => `- ${f}`).join('\n')}` : '';
  return `# Skill: ${skill.name}\n${parseFrontMatter(text).body.trim()}${listed}`;
}

/** Files in the skill's folder and its subfolders (regular files only), SKILL.md left out. */
async function skillFiles(fs: FileSystemPort, dir: string, prefix = '', out: string[] = []): Promise<string[]> {
  const entries = await fs.readDirectory(path.join(dir, prefix)).catch(() => []);
  for (const e of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length >= MAX_FILES) break;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.kind === 'file' && rel !== SKILL_FILE) out.push(rel);
    else if (e.kind === 'directory' && !e.name.startsWith('.') && prefix.split('/').length < 3) await skillFiles(fs, dir, rel, out);
  }
  return out;
}

async function directories(fs: FileSystemPort, dir: string): Promise<string[]> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (stat?.kind !== 'directory') return [];
  const entries = await fs.readDirectory(dir).catch(() => []);
  return entries.filter((e) => e.kind === 'directory').map((e) => e.name).sort();
}

async function readRegular(fs: FileSystemPort, file: string): Promise<string | undefined> {
  const stat = await fs.lstat(file).catch(() => undefined);
  if (stat?.kind !== 'file') return undefined;
  return fs.readFile(file).catch(() => undefined);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_DESCRIPTION ? `${line.slice(0, MAX_DESCRIPTION - 1)}…` : line;
}
