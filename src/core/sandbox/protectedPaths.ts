// Which paths inside the workspace folders stay read-only in the sandbox: the sensitive files of
// approval/sensitivePaths.ts (.git, .vscode, CI files, the agents' rules files…) at the top of each folder, so
// an approved command cannot plant a git hook or an editor task any more than a file tool can without a dialog.
// The missing ones whose mere creation makes something run or steers the agent (HELD_WHEN_MISSING, and the
// user's own patterns) cannot be created either: the runner puts an empty read-only stand-in there for the
// command's lifetime, else `mkdir .vscode && echo … > .vscode/tasks.json` would get through. Each stand-in costs
// about a millisecond and shows in the file tree while the command runs, so only the names that act without
// anyone choosing to (git, the editor, agent rules, package-manager settings, MCP servers) are held. The others
// (direnv, dev containers, husky, CI, "*.code-workspace"…) act only once someone outside the sandbox does
// something (allows, reopens, commits, pushes), which no command can do (.git stays read-only): what a command
// made of them is removed right after it (createdProtected.ts). Nested repositories' .git folders (two levels
// down) stay read-only, and so do the files the host names (the MCP configuration it was started with) wherever
// they are in a writable folder.
// Not covered: package.json (sensitive only when its scripts change, which a sandbox cannot tell), other nested
// copies deeper in the tree (the approval gate still asks for the writes it can see), a new nested repository
// (`git init sub` is ordinary work), and a sensitive name that is a dangling symbolic link.
import * as path from 'node:path';
import type { FileSystemPort, ProtectedPath } from '../ports';
import { DEFAULT_SENSITIVE_PATTERNS, type SensitivePaths } from '../workspace/sensitivePaths';
import { isInside } from '../workspace/workspaceRoots';

/** A literal path a pattern names, as segments, and whether it names a folder ("x/**"). */
interface Literal {
  segments: string[];
  folder: boolean;
  /** Held while missing (see HELD_WHEN_MISSING). */
  hold?: boolean;
}

const GLOB_CHARS = /[*?[\]{}()!+@]/;

/**
 * Top-level names held even while missing: a git repository (its config can make git run commands), editor
 * tasks and settings, this agent's rules, and package-manager settings that choose the code npm or yarn runs.
 */
export const HELD_WHEN_MISSING: ReadonlySet<string> = new Set([
  '.git',
  '.vscode',
  'AGENTS.md',
  '.localharness',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.mcp.json',
]);

/** How deep nested repositories are looked for, and how many folders at most (a big tree must not slow every command). */
const NESTED_GIT_DEPTH = 2;
const NESTED_GIT_FOLDERS = 150;
/** Folders never searched for nested repositories: dependencies and build output. */
const NOT_SEARCHED = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'target', 'vendor', '.venv', 'venv', '__pycache__', '.cache', '.next']);

/** "/.vscode/**" → [".vscode"], folder; "AGENTS.md" → ["AGENTS.md"]; "*.code-workspace" → undefined (matched by listing). */
export function literalOf(pattern: string): Literal | undefined {
  let glob = pattern.trim().replace(/\\/g, '/').replace(/^\/+/, '');
  const folder = /\/\*\*$/.test(glob);
  glob = glob.replace(/\/\*\*$/, '').replace(/\/+$/, '');
  if (glob === '' || GLOB_CHARS.test(glob)) return undefined;
  const segments = glob.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.includes('..')) return undefined;
  return { segments, folder };
}

/** The default literal paths (package.json left out: only its command fields are sensitive). */
const DEFAULT_LITERALS: readonly Literal[] = DEFAULT_SENSITIVE_PATTERNS.filter((p) => !p.onlyCommandFields)
  .map((p) => literalOf(p.pattern))
  .filter((l): l is Literal => l !== undefined)
  .map((l) => ({ ...l, hold: HELD_WHEN_MISSING.has(l.segments[0]!) }));

export interface ProtectedPathsInput {
  /** The workspace folders as they are on disk (links resolved). */
  folders: readonly string[];
  /** Other writable folders (a package cache the user opened): their sensitive files are protected, none held. */
  otherFolders?: readonly string[];
  fs: FileSystemPort;
  /** The sensitive-path matcher (defaults plus the user's extra patterns). */
  sensitive: SensitivePaths;
  /** The user's extra patterns, for the literal paths among them (always held while missing). */
  extraPatterns?: readonly string[];
  /** Paths a sensitive-write dialog allowed for this command: what contains them stays writable. */
  granted?: readonly string[];
  /** Files the host protects wherever they are (real paths: the MCP configuration it started with). */
  files?: readonly string[];
  /** After a command: only the sensitive paths that exist now (none held, no nested repositories or host files). */
  existingOnly?: boolean;
}

export async function protectedPaths(input: ProtectedPathsInput): Promise<ProtectedPath[]> {
  const extra = (input.extraPatterns ?? []).map(literalOf).filter((l): l is Literal => l !== undefined);
  const literals = [...DEFAULT_LITERALS, ...extra.map((l) => ({ ...l, hold: true }))];
  const unheld = literals.map((l) => ({ ...l, hold: false }));
  const existingOnly = input.existingOnly === true;
  const perFolder = await Promise.all([
    ...input.folders.map((folder) => protectedIn(folder, existingOnly ? unheld : literals, input)),
    ...(input.otherFolders ?? []).map((folder) => protectedIn(folder, unheld, input)),
    ...(existingOnly ? [] : input.folders.map((folder) => nestedRepositories(folder, input.fs))),
    existingOnly ? [] : hostFiles(input),
  ]);
  const all = perFolder.flat();
  // An outer protected path covers what is inside it; a granted write opens the protected path holding it.
  const granted = (input.granted ?? []).map((g) => path.resolve(g));
  const kept = all.filter((p) => !granted.some((g) => isInside(p.path, g)));
  return kept.filter((p, i) => !kept.some((o, j) => j !== i && o.path !== p.path && isInside(o.path, p.path)) && kept.findIndex((o) => o.path === p.path) === i);
}

async function protectedIn(folder: string, literals: readonly Literal[], input: ProtectedPathsInput): Promise<ProtectedPath[]> {
  const { fs } = input;
  // One listing answers for most literals: their first part is not there, and only what is gets looked at further.
  const entries = await fs.readDirectory(folder).catch(() => []);
  const present = new Map(entries.map((e) => [e.name.toLowerCase(), e.name]));
  const fromLiterals = await Promise.all(
    literals.map((l): Promise<ProtectedPath | undefined> | ProtectedPath | undefined => {
      const first = present.get(l.segments[0]!.toLowerCase());
      if (first !== undefined) return protectLiteral(folder, { ...l, segments: [first, ...l.segments.slice(1)] }, fs);
      if (!l.hold) return undefined;
      return { path: path.join(folder, l.segments[0]!), exists: false, kind: l.segments.length > 1 || l.folder ? 'directory' : 'file' };
    }),
  );
  const found = fromLiterals.filter((p): p is ProtectedPath => p !== undefined);
  // Names no literal covers ("*.code-workspace", the user's "**/.env*"): what is at the top of the folder now.
  for (const entry of entries) {
    const match = input.sensitive.match(entry.name, true);
    if (!match || match.onlyCommandFields) continue;
    const abs = path.join(folder, entry.name);
    if (entry.kind === 'symlink' && !(await resolves(abs, fs))) continue;
    found.push({ path: abs, exists: true, kind: entry.kind === 'directory' ? 'directory' : 'file' });
  }
  return found;
}

/** The literal path itself when it exists; else its first missing part, which the command must not create. */
async function protectLiteral(folder: string, literal: Literal, fs: FileSystemPort): Promise<ProtectedPath | undefined> {
  let current = folder;
  for (const [i, segment] of literal.segments.entries()) {
    const next = path.join(current, segment);
    const stat = await fs.lstat(next).catch(() => undefined);
    const last = i === literal.segments.length - 1;
    if (!stat) return literal.hold ? { path: next, exists: false, kind: last && !literal.folder ? 'file' : 'directory' } : undefined;
    if (stat.kind === 'symlink') {
      // A link is protected where it leads (the runner binds through it); one leading nowhere cannot be bound.
      if (!(await resolves(next, fs))) return undefined;
      if (last) return { path: next, exists: true, kind: 'file' };
      const real = await fs.realpath(next);
      // Led outside the folder: that place is read-only already, and nothing can be put in it.
      if (!isInside(folder, real)) return undefined;
      current = next;
      continue;
    }
    if (last) return { path: next, exists: true, kind: stat.kind === 'directory' ? 'directory' : 'file' };
    if (stat.kind !== 'directory') return { path: next, exists: true, kind: 'file' };
    current = next;
  }
  return undefined;
}

/** The .git of repositories inside the folder (not the folder's own), a few levels down. */
async function nestedRepositories(folder: string, fs: FileSystemPort): Promise<ProtectedPath[]> {
  const found: ProtectedPath[] = [];
  let level = [folder];
  let visited = 0;
  for (let depth = 1; depth <= NESTED_GIT_DEPTH && level.length > 0; depth++) {
    const dirs = level.slice(0, Math.max(0, NESTED_GIT_FOLDERS - visited));
    visited += dirs.length;
    // One level at a time, its folders listed together: each listing shows the sub-folders and their .git at once.
    const listed = await Promise.all(dirs.map(async (dir) => ({ dir, entries: await fs.readDirectory(dir).catch(() => []) })));
    const next: string[] = [];
    for (const { dir, entries } of listed) {
      const git = dir === folder ? undefined : entries.find((e) => e.name === '.git');
      // A submodule's .git is a file naming a folder under the outer .git, which is protected already.
      if (git && (git.kind === 'directory' || git.kind === 'file')) found.push({ path: path.join(dir, '.git'), exists: true, kind: git.kind });
      for (const e of entries) if (e.kind === 'directory' && !NOT_SEARCHED.has(e.name)) next.push(path.join(dir, e.name));
    }
    level = next;
  }
  // The last level's folders were not listed: look for their .git directly.
  const last = level.slice(0, Math.max(0, NESTED_GIT_FOLDERS - visited));
  const gits = await Promise.all(last.map(async (dir) => ({ dir, stat: await fs.lstat(path.join(dir, '.git')).catch(() => undefined) })));
  for (const { dir, stat } of gits) {
    if (stat && (stat.kind === 'directory' || stat.kind === 'file')) found.push({ path: path.join(dir, '.git'), exists: true, kind: stat.kind });
  }
  return found;
}

/** The host's own files inside a writable folder (outside one, they are read-only already). */
async function hostFiles(input: ProtectedPathsInput): Promise<ProtectedPath[]> {
  const writable = [...input.folders, ...(input.otherFolders ?? [])];
  const out: ProtectedPath[] = [];
  for (const file of input.files ?? []) {
    if (!writable.some((w) => isInside(w, file))) continue;
    const stat = await input.fs.lstat(file).catch(() => undefined);
    // A missing one cannot be created either (an empty stand-in); a link is protected where it leads.
    if (!stat) {
      // A stand-in needs its folder (bubblewrap would make the missing ones, and they would stay).
      if (await input.fs.lstat(path.dirname(file)).catch(() => undefined)) out.push({ path: file, exists: false, kind: 'file' });
    } else if (stat.kind === 'directory') out.push({ path: file, exists: true, kind: 'directory' });
    else if (stat.kind !== 'symlink' || (await resolves(file, input.fs))) out.push({ path: file, exists: true, kind: 'file' });
  }
  return out;
}

async function resolves(abs: string, fs: FileSystemPort): Promise<boolean> {
  return fs.realpath(abs).then(
    () => true,
    () => false,
  );
}
