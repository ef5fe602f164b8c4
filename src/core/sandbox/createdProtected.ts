// After a sandboxed command: sensitive files it created at the top of a workspace folder under a name the sandbox
// could not hold beforehand (a glob name such as "*.code-workspace", or one of the names not held, protectedPaths.ts).
// Every process of the command has ended by then (its PID namespace is gone), so nothing read them yet: they are
// removed and reported, and the sensitive-write dialog stays the one way to make them.
// Empty ones are left alone: another command running at the same time may hold that name with an empty stand-in,
// and an empty file runs nothing (the next command finds it and keeps it read-only).
import * as path from 'node:path';
import type { FileSystemPort, SandboxPolicy } from '../ports';
import type { SensitivePaths } from '../workspace/sensitivePaths';
import { isInside } from '../workspace/workspaceRoots';

export interface CreatedProtectedInput {
  policy: SandboxPolicy;
  /** The workspace folders as bound (real paths). */
  folders: readonly string[];
  sensitive: SensitivePaths;
  /** Paths a dialog allowed for this command (real paths): created there on purpose. */
  granted: readonly string[];
  fs: FileSystemPort;
}

/** The protected files the command created (paths), removed where the file system can. */
export async function removeCreatedProtected(input: CreatedProtectedInput): Promise<string[]> {
  const { fs } = input;
  const known = new Set(input.policy.readOnly.map((p) => p.path));
  const found: string[] = [];
  for (const folder of input.folders) {
    const entries = await fs.readDirectory(folder).catch(() => []);
    for (const entry of entries) {
      if (entry.kind !== 'file') continue;
      const abs = path.join(folder, entry.name);
      if (known.has(abs) || input.granted.some((g) => isInside(abs, g) || isInside(g, abs))) continue;
      const match = input.sensitive.match(entry.name, true);
      if (!match || match.onlyCommandFields) continue;
      const stat = await fs.lstat(abs).catch(() => undefined);
      if (!stat || stat.size === 0) continue;
      found.push(abs);
    }
  }
  for (const file of found) await fs.remove?.(file).catch(() => undefined);
  return found;
}
