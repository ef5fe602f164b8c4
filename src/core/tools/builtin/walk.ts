// A bounded, gitignore-aware walk over a workspace folder through FileSystemPort.readDirectory.
// Symbolic links are never followed (no loops, no escapes); .git and node_modules are always skipped.
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { FileSystemPort } from '../../ports';

export interface WalkOptions {
  fs: FileSystemPort;
  /** Workspace folder the walk happens in (its .gitignore rules apply). */
  folderRoot: string;
  /** Directory to start from, inside folderRoot. */
  start: string;
  /** Stop after this many directory entries have been examined. */
  maxEntries: number;
  signal: AbortSignal;
}

export interface WalkedFile {
  abs: string;
  /** Path relative to the folder root, with forward slashes. */
  rel: string;
}

export interface WalkStats {
  entries: number;
  /** True when maxEntries stopped the walk early. */
  truncated: boolean;
}

const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/** Longest stretch of walking without giving the event loop a turn (entries that need no I/O come back-to-back). */
const YIELD_EVERY_MS = 8;

interface Rules {
  /** Directory the .gitignore lives in, relative to the folder root ('' for the root). */
  base: string;
  ig: Ignore;
}

export async function* walkFiles(options: WalkOptions, stats: WalkStats): AsyncGenerator<WalkedFile> {
  const { fs, folderRoot, signal } = options;
  const startRel = toPosix(path.relative(folderRoot, options.start));
  let rules: Rules[] = [];
  // Rules from the folder root down to the start directory apply to everything below it.
  const ancestors = startRel === '' ? [''] : ['', ...startRel.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))];
  for (const dir of ancestors) {
    const loaded = await loadRules(fs, folderRoot, dir);
    if (loaded) rules.push(loaded);
  }
  const explicitlyIgnored = ancestors.slice(1).some((dir) => ALWAYS_SKIPPED.has(dir.split('/').pop()!) || isIgnored(rules, dir, true));
  if (explicitlyIgnored) {
    // The caller asked for an ignored directory by name (e.g. node_modules/pkg): search it, with only its own rules.
    rules = rules.filter((r) => r.base === startRel);
  }

  let lastYield = Date.now();
  // Depth-first, sorted, so results are stable between runs.
  const stack: Array<{ rel: string; rules: Rules[] }> = [{ rel: startRel, rules }];
  while (stack.length) {
    if (signal.aborted) return;
    const { rel: dirRel, rules: dirRules } = stack.pop()!;
    const dirAbs = dirRel === '' ? folderRoot : path.join(folderRoot, ...dirRel.split('/'));
    let entries: Array<{ name: string; kind: string }>;
    try {
      entries = await fs.readDirectory(dirAbs);
    } catch {
      continue; // unreadable directory: skip it, the walk goes on
    }
    let active = dirRules;
    // The start directory's own rules were loaded with its ancestors above.
    if (dirRel !== startRel) {
      const own = await loadRules(fs, folderRoot, dirRel);
      if (own) active = [...dirRules, own];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (stats.entries >= options.maxEntries) {
        stats.truncated = true;
        return;
      }
      stats.entries++;
      if (Date.now() - lastYield > YIELD_EVERY_MS) {
        // Awaiting a resolved promise lets no timer or I/O callback run; a macrotask does (Ctrl-C, the editor).
        await new Promise((resolve) => setTimeout(resolve, 0));
        lastYield = Date.now();
        if (signal.aborted) return;
      }
      if (entry.kind === 'symlink' || entry.kind === 'other') continue;
      const isDir = entry.kind === 'directory';
      if (isDir && ALWAYS_SKIPPED.has(entry.name)) continue;
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (isIgnored(active, rel, isDir)) continue;
      if (isDir) subdirs.push(rel);
      else yield { abs: path.join(dirAbs, entry.name), rel };
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ rel: subdirs[i]!, rules: active });
  }
}

async function loadRules(fs: FileSystemPort, folderRoot: string, dirRel: string): Promise<Rules | undefined> {
  const file = path.join(folderRoot, ...(dirRel === '' ? [] : dirRel.split('/')), '.gitignore');
  const stat = await fs.lstat(file).catch(() => undefined);
  if (!stat || stat.kind !== 'file' || stat.size > 1024 * 1024) return undefined;
  try {
    return { base: dirRel, ig: ignore().add(await fs.readFile(file)) };
  } catch {
    return undefined; // an unreadable .gitignore is treated as absent
  }
}

/** Deeper .gitignore files win over shallower ones, as in git; `!pattern` re-includes. */
function isIgnored(rules: readonly Rules[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    if (r.base !== '' && !rel.startsWith(r.base + '/')) continue;
    const sub = r.base === '' ? rel : rel.slice(r.base.length + 1);
    if (sub === '') continue;
    const result = r.ig.test(isDir ? sub + '/' : sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
