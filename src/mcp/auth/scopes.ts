// OAuth scope strings (space-separated sets).

function words(scope: string | undefined): string[] {
  return scope ? scope.split(/\s+/).filter(Boolean) : [];
}

/** Both sets in one string, each scope once, in the order first seen; undefined when both are empty. */
export function unionScope(a: string | undefined, b: string | undefined): string | undefined {
  const all = [...new Set([...words(a), ...words(b)])];
  return all.length ? all.join(' ') : undefined;
}

export function addScope(scope: string, extra: string): string {
  return unionScope(scope, extra)!;
}

/** Whether `granted` already holds every scope of `wanted` (an empty `wanted` is always covered). */
export function coversScope(granted: string, wanted: string | undefined): boolean {
  const have = new Set(words(granted));
  return words(wanted).every((s) => have.has(s));
}
