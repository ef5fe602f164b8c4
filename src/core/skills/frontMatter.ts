// The front matter of SKILL.md and prompt files: `---`, lines of `key: value`, `---`, then the markdown body.
// Only that simple form (what skills and prompt files use): a value may be quoted, a `[a, b]` list, or go on in
// indented lines (folded, as `>` and `|` blocks are read too: into one line). A YAML
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
  let last: string | undefined;
  for (const line of match[1]!.split(/\r?\n/)) {
    // An indented line continues the value before it (a folded description, or a `>` / `|` block).
    const previous = last === undefined ? undefined : fields[last];
    if (/^[ \t]+\S/.test(line) && typeof previous === 'string') {
      fields[last!] = previous === '' ? line.trim() : `${previous} ${line.trim()}`;
      continue;
    }
    const kv = /^([A-Za-z][\w-]*)[ \t]*:[ \t]*(.*)$/.exec(line);
    last = undefined;
    if (!kv) continue; // comments, blank lines, nested YAML we do not read
    const value = kv[2]!.trim();
    last = kv[1]!.toLowerCase();
    fields[last] = /^[>|][+-]?$/.test(value) ? '' : value.startsWith('[') && value.endsWith(']') ? listOf(value) : unquote(value);
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
