// Which files a tool call would change: the file of write_file/edit_file, what a run_command line visibly
// writes, and path-like arguments of other writing tools (move_file, MCP tools). Used to spot sensitive files
// and to remember what the user refused to have written in this turn.
import * as path from 'node:path';
import type { FileSystemPort } from '../ports';
import type { ApprovalDescription, RiskLevel } from '../tools/tool';
import { realAncestorJoined } from '../workspace/realLocation';
import { isInside, type WorkspaceRoots } from '../workspace/workspaceRoots';
import { findShellWrites } from './shellWrites';

export interface WriteTarget {
  /** For people and the model: workspace-relative ("src/a.ts"), "~/.bashrc", or an absolute path elsewhere. */
  display: string;
  /** What the sensitive patterns see: relative to its workspace folder (or the home folder); absolute elsewhere. */
  matchPath: string;
  inWorkspace: boolean;
  /** Identity across calls ("was this file's write denied earlier?"). */
  key: string;
  /** Where it is on disk (absent for a "~/…" path of a shell line). */
  abs?: string;
  /** The tool or shell construct that writes it. */
  via: string;
  /** write_file / edit_file: the proposed change, so package.json counts only when its scripts change. */
  change?: { before: string | undefined; after: string };
}

export interface TargetRequest {
  toolName: string;
  risk: RiskLevel;
  args: unknown;
  description: ApprovalDescription;
}

export interface TargetEnv {
  roots: WorkspaceRoots;
  fs: FileSystemPort;
}

/** Argument names that hold a path in writing tools that describe no change themselves (move_file, MCP tools). */
export const PATH_ARGUMENT_KEYS = ['path', 'destination', 'source', 'file', 'filename'] as const;

export async function writeTargetsOf(request: TargetRequest, env: TargetEnv): Promise<WriteTarget[]> {
  const raw: Array<{ abs?: string; home?: string; via: string; change?: WriteTarget['change'] }> = [];
  const change = request.description.fileChange;
  if (change) {
    raw.push({ abs: path.resolve(change.path), via: request.toolName, change: { before: change.before, after: change.after } });
  } else if (request.description.command !== undefined) {
    const cwd = await commandDirectory(request.args, env.roots);
    for (const w of findShellWrites(request.description.command)) raw.push({ ...shellPath(w.path, cwd), via: w.via });
  } else if (request.risk !== 'read' && request.args && typeof request.args === 'object') {
    const args = request.args as Record<string, unknown>;
    for (const key of PATH_ARGUMENT_KEYS) {
      const values = Array.isArray(args[key]) ? (args[key] as unknown[]) : [args[key]];
      for (const value of values) {
        if (typeof value === 'string' && value.trim() !== '') raw.push({ abs: toolPath(value, env.roots), via: request.toolName });
      }
    }
  }

  const targets: WriteTarget[] = [];
  const seen = new Set<string>();
  const add = (t: WriteTarget) => {
    if (seen.has(t.key)) return;
    seen.add(t.key);
    targets.push(t);
  };
  for (const r of raw) {
    if (r.home !== undefined) {
      add({ display: `~/${r.home}`, matchPath: r.home, inWorkspace: false, key: `~/${r.home}`.toLowerCase(), via: r.via });
      continue;
    }
    const target = describeAbsolute(r.abs!, env.roots, r.via, r.change);
    add(target);
    // A symbolic link (of the file or a folder above it) sends the write somewhere else: judge that place too.
    const real = await realLocation(r.abs!, env);
    if (real !== undefined && real !== r.abs) add(describeAbsolute(real, env.roots, r.via, r.change));
  }
  return targets;
}

function describeAbsolute(abs: string, roots: WorkspaceRoots, via: string, change: WriteTarget['change']): WriteTarget {
  const folder = roots.folderOf(abs);
  const base = folder
    ? { display: roots.relative(abs), matchPath: path.relative(folder.path, abs).split(path.sep).join('/') || '.', inWorkspace: true }
    : { display: abs, matchPath: abs.split(path.sep).join('/'), inWorkspace: false };
  return { ...base, key: abs.toLowerCase(), abs, via, ...(change && { change }) };
}

async function commandDirectory(args: unknown, roots: WorkspaceRoots): Promise<string> {
  const cwd = (args as { cwd?: unknown } | null)?.cwd;
  if (typeof cwd !== 'string') return roots.primary.path;
  return roots.resolve(cwd).catch(() => roots.primary.path);
}

/** A path a shell would write, from the command's directory; "~/x" stays a home path. */
function shellPath(written: string, cwd: string): { abs?: string; home?: string } {
  if (written === '~' || written.startsWith('~')) {
    const slash = written.indexOf('/');
    return { home: slash < 0 ? '' : written.slice(slash + 1).replace(/^\/+/, '') };
  }
  return { abs: path.resolve(cwd, written) };
}

/** A path argument as the tools read it; one outside the workspace stays as given (the tool refuses it). */
function toolPath(value: string, roots: WorkspaceRoots): string {
  // Where the path points, links not followed: realLocation() adds where it really lands.
  try {
    return roots.lexical(value).absolute;
  } catch {
    const cleaned = value.replace(/\\/g, '/');
    return path.isAbsolute(cleaned) ? path.resolve(cleaned) : path.resolve(roots.primary.path, cleaned);
  }
}

/**
 * Where a write to `abs` really lands: the deepest existing ancestor with links resolved, plus the rest,
 * expressed under the workspace folder's own path when it is inside one (tmp folders are often links).
 */
async function realLocation(abs: string, env: TargetEnv): Promise<string | undefined> {
  // All lookups at once: this runs for every write a tool call asks approval for.
  const [whole, ...realFolders] = await Promise.all(
    [abs, ...env.roots.folders.map((f) => f.path)].map((p) => env.fs.realpath(p).catch(() => undefined)),
  );
  const real = whole ?? (await realAncestorJoined(path.dirname(abs), env.fs).then((dir) => dir && path.join(dir, path.basename(abs))));
  if (real === undefined) return undefined;
  for (const [i, folder] of env.roots.folders.entries()) {
    const realFolder = realFolders[i];
    if (realFolder !== undefined && isInside(realFolder, real)) return path.join(folder.path, path.relative(realFolder, real));
  }
  return real;
}

