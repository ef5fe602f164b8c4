// Confines every tool path to the workspace folders: no absolute paths outside, no `..`, no symlink escapes.
import * as path from 'node:path';
import type { FileSystemPort } from '../ports';
import { errorMessage } from '../../shared/format';

export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathError';
  }
}

export interface WorkspaceFolder {
  name: string;
  /** Absolute path of the folder. */
  path: string;
}

export class WorkspaceRoots {
  constructor(
    readonly folders: readonly WorkspaceFolder[],
    private readonly fs: FileSystemPort,
  ) {
    if (folders.length === 0) throw new Error('at least one workspace folder is required');
  }

  get primary(): WorkspaceFolder {
    return this.folders[0]!;
  }

  /**
   * Turn a path from the model into an absolute path inside a workspace folder.
   * Relative paths resolve against the first folder, or against the folder whose name is their first segment
   * in a multi-root workspace. Throws PathError with a message the model can act on.
   */
  async resolve(userPath: string): Promise<string> {
    const { folder, absolute } = this.lexical(userPath);
    await this.checkSymlinks(folder, absolute);
    return absolute;
  }

  /** What resolve() checks before it looks at the disk: the same rules and errors, no symlink check. */
  lexical(userPath: string): { folder: WorkspaceFolder; absolute: string } {
    const raw = (userPath ?? '').trim();
    if (raw.includes('\0')) throw new PathError('Path contains a NUL character.');
    return this.lexicalResolve(raw === '' ? '.' : raw);
  }

  /** The path relative to its workspace folder, for messages and tracking ("src/a.ts"). */
  relative(absolute: string): string {
    const folder = this.folderOf(absolute);
    if (!folder) return absolute;
    const rel = path.relative(folder.path, absolute) || '.';
    const shown = rel.split(path.sep).join('/');
    return this.folders.length > 1 ? `${folder.name}/${shown}` : shown;
  }

  folderOf(absolute: string): WorkspaceFolder | undefined {
    return this.folders.find((f) => isInside(f.path, absolute));
  }

  private lexicalResolve(raw: string): { folder: WorkspaceFolder; absolute: string } {
    const cleaned = raw.replace(/\\/g, '/');
    if (path.isAbsolute(cleaned)) {
      const absolute = path.resolve(cleaned);
      const folder = this.folderOf(absolute);
      if (!folder) {
        throw new PathError(
          `Path "${raw}" is outside the workspace. Use a path relative to the workspace root (${this.folders.map((f) => f.path).join(', ')}).`,
        );
      }
      return { folder, absolute };
    }
    if (cleaned === '~' || cleaned.startsWith('~/')) {
      // Only a shell expands "~"; taken literally it would quietly create a "~" folder in the workspace.
      throw new PathError(`Path "${raw}" points into the home directory, which is outside the workspace. Use a path relative to the workspace root.`);
    }
    if (cleaned.split('/').includes('..')) {
      throw new PathError(`Path "${raw}" uses "..", which is not allowed. Use a path relative to the workspace root.`);
    }
    let folder = this.primary;
    let rest = cleaned;
    if (this.folders.length > 1) {
      const [first, ...tail] = cleaned.split('/');
      const named = this.folders.find((f) => f.name === first);
      if (named) {
        folder = named;
        rest = tail.join('/') || '.';
      }
    }
    const absolute = path.resolve(folder.path, rest);
    if (!isInside(folder.path, absolute)) {
      throw new PathError(`Path "${raw}" is outside the workspace.`);
    }
    return { folder, absolute };
  }

  /** The deepest existing ancestor, with symlinks resolved, must still be inside the folder. */
  private async checkSymlinks(folder: WorkspaceFolder, absolute: string): Promise<void> {
    // Both lookups at once: every tool call checks its paths, often more than once, and the model waits.
    // The folder is looked up each time (not kept): a folder that is itself a link may be re-pointed.
    // Most paths exist, so one realpath answers for them; the rest walk up to their deepest existing ancestor.
    const [realRoot, whole] = await Promise.all([
      this.fs.realpath(folder.path).catch(() => undefined),
      this.fs.realpath(absolute).catch(() => undefined),
    ]);
    if (realRoot === undefined) throw new PathError(`Workspace folder ${folder.path} does not exist.`);
    const real = whole ?? (await this.realAncestor(absolute));
    if (real !== undefined && !isInside(realRoot, real)) {
      throw new PathError(`Path "${this.relative(absolute)}" leads outside the workspace through a symbolic link.`);
    }
  }

  private async realAncestor(absolute: string): Promise<string | undefined> {
    let probe = absolute;
    for (;;) {
      // ELOOP, EACCES…: a path we cannot inspect is a path we cannot vouch for.
      const stat = await this.fs.lstat(probe).catch((err: unknown) => {
        throw new PathError(`Path "${this.relative(absolute)}" cannot be checked (${errorMessage(err)}).`);
      });
      if (stat) break;
      const parent = path.dirname(probe);
      if (parent === probe) return undefined;
      probe = parent;
    }
    const real = await this.fs.realpath(probe).catch(() => undefined);
    if (real === undefined) {
      // A dangling symlink: refuse, since a write would follow it wherever it points.
      throw new PathError(`Path "${this.relative(absolute)}" goes through a broken symbolic link.`);
    }
    return real;
  }
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  // Only a whole ".." segment leaves the root: "..config" is an ordinary name inside it.
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}
