// Compact, readable tool signatures for the text protocol prompt: `read_file(path: string, start_line?: integer)`.
// Far fewer tokens than the JSON Schema, and small models follow them well.

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
};

export function typeText(schema: Schema | undefined, depth = 0): string {
  if (!schema) return 'any';
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join('|');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map((v) => typeText(v, depth)))].join('|');
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null').join('|') : schema.type;
  if (type === 'array') return `${typeText(schema.items, depth + 1)}[]`;
  if (type === 'object' && schema.properties && depth < 2) return `{${paramList(schema, depth + 1)}}`;
  return type ?? 'any';
}

export function paramList(schema: Schema, depth = 0): string {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, prop]) => `${name}${required.has(name) ? '' : '?'}: ${typeText(prop, depth)}`)
    .join(', ');
}

/** Parameter descriptions worth their tokens, one short clause each. */
export function paramNotes(schema: Schema, maxChars = 90): string {
  return Object.entries(schema.properties ?? {})
    .filter(([, prop]) => typeof prop.description === 'string' && prop.description.trim() !== '')
    .map(([name, prop]) => `${name}: ${clip(prop.description!.trim(), maxChars)}`)
    .join('; ');
}

export function clip(text: string, maxChars: number): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > maxChars ? `${one.slice(0, maxChars - 1)}…` : one;
}
