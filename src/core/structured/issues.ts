// zod issues → short lines a model (and a user) can act on: "entities[2].line: Invalid input: expected number".
import type { z } from 'zod';

export function describeIssues(error: z.ZodError): string[] {
  const lines = error.issues.map((issue) => `${pathText(issue.path)}: ${issue.message}`);
  return [...new Set(lines)];
}

export function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(the whole reply)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
