// Registry names for MCP tools: `<server>__<tool>`, limited to what OpenAI-style APIs accept.

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/** `server__tool` with every other character replaced by `_`, cut to 64 characters. */
export function sanitizeToolName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `${clean(server)}__${clean(tool)}`.slice(0, MAX_LENGTH);
}

/** The first of `base`, `base_2`, `base_3`, … (kept within 64 characters) that `taken` says is free. */
export function uniqueToolName(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = base.slice(0, MAX_LENGTH - suffix.length) + suffix;
    if (!taken(candidate)) return candidate;
  }
}
