// The front matter of SKILL.md and prompt files: `---`, lines of `key: value`, `---`, then the markdown body.
// Only that simple form (what skills and prompt files use): a value may be quoted, or a `[a, b]` list. A YAML
// library would add its weight to the extension for three keys. Pure.

export interface FrontMatter {
  /** Keys in lower case; lists as string arrays. */
  fields: Record<string, string | string[]>;
  body: string;
}

export function parseFrontMatter(text: string): FrontMatter {
  const src = text.replace(/^\uFEFF/, '');
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(src);
  if (!match) return { fields: {}, body: src };
  const fields: Record<string, string | string[]> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z][\w-]*)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (!kv) continue; // comments, blank lines, nested YAML we do not read
    const value = kv[2]!.trim();
    fields[kv[1]!.toLowerCase()] = value.startsWith('[') && value.endsWith(']') ? listOf(value) : unquote(value);
  }
  return { fields, body: src.slice(match[0].length) };
}

/** A field as one string (the first item of a list), trimmed; undefined when absent or empty. */
export function textField(fm: FrontMatter, key: string): string | undefined {
  const v = fm.fields[key];
  const text = (Array.isArray(v) ? v.join(', ') : v)?.trim();
  return text ? text : undefined;
}

/** A field as a list: `[a, b]`, or `a, b`. */
export function listField(fm: FrontMatter, key: string): string[] | undefined {
  const v = fm.fields[key];
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : v.split(',')).map((s) => unquote(s.trim())).filter((s) => s !== '');
}

function listOf(value: string): string[] {
  return value.slice(1, -1).split(',').map((s) => unquote(s.trim())).filter((s) => s !== '');
}

function unquote(value: string): string {
  if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) {
    return value.slice(1, -1);
  }
  return value;
}
