// A restore writes the absolute paths stored in the session database. That file is the user's, and can be edited,
// copied from another machine, or outlive a workspace that moved; so every stored path is checked against today's
// workspace folders, by the same rules the agent's tools obey (no `..`, no symbolic link leading out), before it is
// read or written. Files that fail are refused and reported; the rest of the restore goes ahead.
import * as nodePath from 'node:path';
import { PathError, type WorkspaceRoots } from '../workspace/workspaceRoots';

export interface RefusedFile {
  path: string;
  /** Why it was not touched, for the user ("outside the workspace folder /home/me/app"). */
  reason: string;
}

/** Why a restore must not touch the stored path `stored`; undefined when it lies inside the workspace. */
export async function restoreRefusal(roots: WorkspaceRoots, stored: string): Promise<string | undefined> {
  // The agent's tools store resolved paths only. Anything else (a relative path, `..`, `//`) is not ours to interpret:
  // `a/../b` goes wherever the link at `a` points, not where it reads.
  if (!nodePath.isAbsolute(stored) || nodePath.resolve(stored) !== stored) return 'not a plain absolute path (the session database was changed by hand?)';
  const folders = roots.folders.map((f) => f.path).join(', ');
  if (!roots.folderOf(stored)) return `outside the workspace (${folders})`;
  try {
    if ((await roots.resolve(stored)) !== stored) return 'not a plain absolute path';
  } catch (err) {
    if (!(err instanceof PathError)) throw err;
    // "Path "x" leads outside the workspace through a symbolic link." and the like, without the advice to the model.
    return err.message.replace(/^Path "[^"]*" /, '').replace(/\.$/, '');
  }
  return undefined;
}

/** Splits the files a restore would touch into those inside the workspace and those refused. */
export async function confineToWorkspace<T extends { path: string }>(roots: WorkspaceRoots, files: readonly T[]): Promise<{ inside: T[]; refused: RefusedFile[] }> {
  const inside: T[] = [];
  const refused: RefusedFile[] = [];
  for (const file of files) {
    const reason = await restoreRefusal(roots, file.path);
    if (reason === undefined) inside.push(file);
    else refused.push({ path: file.path, reason });
  }
  return { inside, refused };
}

/** One line per refused file, for logs, the CLI and the editor. */
export function refusedText(refused: readonly RefusedFile[]): string {
  return `${refused.length} file(s) not restored, never written: ${refused.map((r) => `${r.path} (${r.reason})`).join('; ')}.`;
}
