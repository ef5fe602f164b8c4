// What `@` offers for a query: the fixed mentions, folders and files of the workspace (those .gitignore leaves
// out are never offered), and the workspace symbols the editor found. No vscode import: tested under node.
import ignore from 'ignore';
import { MAX_MENTION_CANDIDATES, rankPaths, specialMentions, type MentionCandidate } from '../../shared/mentions';

/** Workspace-relative paths minus what the root .gitignore (and .git itself) leaves out. */
export function visiblePaths(paths: readonly string[], gitignore: string | undefined): string[] {
  const ig = ignore().add('.git/');
  if (gitignore) ig.add(gitignore);
  return paths.filter((p) => p !== '' && !ig.ignores(p));
}

/** Every folder that holds one of `files`, as "dir/" (the trailing slash tells folders from files). */
export function foldersOf(files: readonly string[]): string[] {
  const out = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) out.add(`${parts.slice(0, i).join('/')}/`);
  }
  return [...out];
}

export interface SymbolHit {
  name: string;
  kind: string;
  path: string;
  startLine: number;
  endLine: number;
}

export function mentionCandidates(input: {
  query: string;
  files: readonly string[];
  symbols?: readonly SymbolHit[];
  problems?: string;
  terminal?: string;
}): MentionCandidate[] {
  const out = specialMentions(input.query, input.problems, input.terminal);
  const folders = rankPaths(foldersOf(input.files), input.query, 8);
  const files = rankPaths(input.files, input.query, MAX_MENTION_CANDIDATES);
  // A query that names a folder best lists the folder first; otherwise files lead.
  const foldersFirst = folders.length > 0 && input.query !== '' && folders[0]!.toLowerCase().replace(/\/$/, '').split('/').pop()!.startsWith(input.query.toLowerCase());
  const folderItems = folders.map((f): MentionCandidate => ({ kind: 'folder', label: f, detail: 'folder', ref: f }));
  const fileItems = files.map((f): MentionCandidate => ({ kind: 'file', label: f, ref: f }));
  out.push(...(foldersFirst ? [...folderItems, ...fileItems] : [...fileItems, ...folderItems]));
  for (const s of input.symbols ?? []) {
    out.push({ kind: 'symbol', label: s.name, detail: `${s.kind} in ${s.path}:${s.startLine}`, ref: `${s.path}:${s.startLine}-${s.endLine}` });
  }
  return out.slice(0, MAX_MENTION_CANDIDATES);
}

/** A folder's files for `@folder`: one path a line, at most `max`, with a count of the rest. */
export function folderListing(files: readonly string[], folder: string, max = 300): string {
  const inside = files.filter((f) => f.startsWith(folder)).sort();
  const shown = inside.slice(0, max);
  const more = inside.length - shown.length;
  return `${inside.length} file${inside.length === 1 ? '' : 's'} in ${folder}:\n${shown.join('\n')}${more > 0 ? `\n… and ${more} more` : ''}`;
}

export interface Problem {
  path: string;
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
  code?: string;
}

/** `@problems`: errors first, then warnings, one a line, at most `max`. */
export function problemsText(problems: readonly Problem[], max = 100): string {
  if (problems.length === 0) return 'No problems: the editor reports no errors or warnings.';
  const order = { error: 0, warning: 1, info: 2, hint: 3 };
  const sorted = [...problems].sort((a, b) => order[a.severity] - order[b.severity] || a.path.localeCompare(b.path) || a.line - b.line);
  const lines = sorted.slice(0, max).map((p) => `${p.path}:${p.line}:${p.column} ${p.severity}: ${p.message}${p.source ? ` (${p.source}${p.code ? ` ${p.code}` : ''})` : ''}`);
  if (sorted.length > max) lines.push(`… and ${sorted.length - max} more`);
  return lines.join('\n');
}

/** "3 errors, 1 warning" for the list's detail line. */
export function problemsSummary(problems: readonly Problem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  if (errors + warnings === 0) return 'no errors or warnings';
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}
