// After a sandboxed command: sensitive paths it created in a workspace folder that the sandbox did not hold
// beforehand (protectedPaths.ts holds only the names that act on their own; a glob name such as
// "*.code-workspace" cannot be held at all). Each acts only once someone outside the sandbox does something (allows
// an .envrc, reopens in a container, commits, pushes), and every process of the command has ended by now (its PID
// namespace is gone): what it made is removed and reported, and the sensitive-write dialog stays the one way to
// make such a file. Files are removed; folders are emptied and left (an empty one runs nothing, and the next
// command finds it and keeps it read-only).
import * as path from 'node:path';
import type { FileSystemPort, SandboxPolicy } from '../ports';
import type { SensitivePaths } from '../workspace/sensitivePaths';
import { isInside } from '../workspace/workspaceRoots';
import { protectedPaths } from './protectedPaths';

export interface CreatedProtectedInput {
  policy: SandboxPolicy;
  /** The workspace folders as bound (real paths). */
  folders: readonly string[];
  sensitive: SensitivePaths;
  extraPatterns: readonly string[];
  /** Paths a dialog allowed for this command (real paths): created there on purpose. */
  granted: readonly string[];
  fs: FileSystemPort;
}

/** A runaway folder must not hold the result back. */
const MAX_REMOVED = 2000;

/** The protected paths the command created (as paths), with what they held removed. */
export async function removeCreatedProtected(input: CreatedProtectedInput): Promise<string[]> {
  const { fs, policy } = input;
  const now = await protectedPaths({ folders: input.folders, fs, sensitive: input.sensitive, extraPatterns: input.extraPatterns, existingOnly: true });
  // Protected before the command (read-only, or held by a stand-in): it could not make anything there.
  const before = policy.readOnly.map((p) => p.path);
  const created = now.filter(
    (p) => p.exists && !before.some((b) => isInside(b, p.path) || isInside(p.path, b)) && !input.granted.some((g) => isInside(p.path, g) || isInside(g, p.path)),
  );
  const budget = { left: MAX_REMOVED };
  for (const p of created) await removeTree(p.path, fs, budget);
  return created.map((p) => p.path);
}

async function removeTree(target: string, fs: FileSystemPort, budget: { left: number }): Promise<void> {
  if (budget.left-- <= 0) return;
  const stat = await fs.lstat(target).catch(() => undefined);
  if (!stat) return;
  if (stat.kind !== 'directory') {
    await fs.remove?.(target).catch(() => undefined);
    return;
  }
  const entries = await fs.readDirectory(target).catch(() => []);
  for (const e of entries) await removeTree(path.join(target, e.name), fs, budget);
}
