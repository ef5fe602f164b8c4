// Where a path really is on disk when it may not exist yet: the approval's write targets and the sandbox's
// granted paths must name the same place, or a grant misses the file it was meant for.
import * as path from 'node:path';
import type { FileSystemPort } from '../ports';

/**
 * The deepest part of `p` that resolves, with links resolved, plus the rest; undefined when nothing does.
 * ("tmp/new/file" under a linked tmp folder → "/private/tmp/new/file".)
 */
export async function realAncestorJoined(p: string, fs: Pick<FileSystemPort, 'realpath'>): Promise<string | undefined> {
  let probe = p;
  const rest: string[] = [];
  for (;;) {
    const real = await fs.realpath(probe).catch(() => undefined);
    if (real !== undefined) return path.join(real, ...rest);
    const parent = path.dirname(probe);
    if (parent === probe) return undefined;
    rest.unshift(path.basename(probe));
    probe = parent;
  }
}
