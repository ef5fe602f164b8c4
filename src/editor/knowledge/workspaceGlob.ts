// "Index Workspace…": the glob the user types and the files.exclude / search.exclude patterns its matches are
// checked against. Pure (picomatch), unit-tested.
import picomatch from 'picomatch';

export const DEFAULT_WORKSPACE_GLOB = '**/*.{ts,tsx,js,jsx,py,md}';

/** Patterns set to `true` in exclude settings (`{"**\/node_modules": true}`); conditional ones (`{when: …}`) are left out. */
export function enabledPatterns(...settings: ReadonlyArray<Record<string, unknown> | undefined>): string[] {
  const out = new Set<string>();
  for (const setting of settings) {
    for (const [pattern, on] of Object.entries(setting ?? {})) if (on === true && pattern.trim() !== '') out.add(pattern.trim());
  }
  return [...out];
}

/**
 * A test for workspace-relative, '/'-separated paths: true when the path or one of its folders matches a pattern
 * (VS Code's excludes name folders, e.g. `**\/node_modules`, and hide everything below them).
 */
export function excludedBy(patterns: readonly string[]): (relPath: string) => boolean {
  if (patterns.length === 0) return () => false;
  const isMatch = picomatch(patterns.map((p) => p.replace(/^\.\//, '').replace(/\/+$/, '')), { dot: true });
  return (relPath) => {
    const parts = relPath.split('/');
    for (let i = 1; i <= parts.length; i++) if (isMatch(parts.slice(0, i).join('/'))) return true;
    return false;
  };
}

/** Undefined when the glob can be used, else why not (the InputBox shows it). */
export function globProblem(glob: string): string | undefined {
  const trimmed = glob.trim();
  if (trimmed === '') return 'Type a glob pattern, e.g. src/**/*.ts.';
  if (trimmed.startsWith('/') || /^[a-z]:[\\/]/i.test(trimmed)) return 'Use a pattern relative to the workspace folder (no leading slash).';
  try {
    picomatch.makeRe(trimmed);
  } catch (err) {
    return `Not a valid glob: ${(err as Error).message}`;
  }
  return undefined;
}
