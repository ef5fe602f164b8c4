// A response format the way llama.cpp and Ollama apply it: the schema becomes a grammar the sampler must follow,
// so whatever the model "wanted" to write, the reply is JSON of that schema and nothing else — no tool call, no
// prose around it. Used by the fake servers when they are started with `appliesResponseFormat`; a server without
// it (the default) ignores the field, like one that does not support it.
//   Ollama: `format` is a JSON schema object, or "json".
//   OpenAI-compatible: `response_format` is {type: "json_schema", json_schema: {schema}} or {type: "json_object"}.
import type { ChatBody, ScriptedReply } from './script';

type Schema = Record<string, unknown>;

/** The schema the request constrains its reply to; `{}` for plain JSON; undefined when it asks for none. */
export function requestedSchema(body: ChatBody, wire: 'ollama' | 'openai'): Schema | undefined {
  if (wire === 'ollama') {
    if (body.format === 'json') return {};
    return isSchema(body.format) ? body.format : undefined;
  }
  const rf = body.response_format;
  if (!isSchema(rf)) return undefined;
  if (rf.type === 'json_object') return {};
  if (rf.type === 'json_schema' && isSchema(rf.json_schema)) return isSchema(rf.json_schema.schema) ? rf.json_schema.schema : {};
  return undefined;
}

/**
 * The reply as decoding under the schema's grammar lets it out: the JSON the model wrote, when a value of the schema
 * is in its text; otherwise the smallest value of the schema (a model forced off a tool call fills in the least).
 * Tool calls cannot be written under the grammar. Faults are the server's, not the sampler's: unchanged.
 */
export function constrainReply(reply: ScriptedReply, schema: Schema): ScriptedReply {
  if (reply.fault) return reply;
  const { toolCalls: _dropped, ...rest } = reply;
  const found = jsonValues(reply.text ?? '').find((v) => matches(v, schema));
  return { ...rest, text: JSON.stringify(found !== undefined ? found : smallest(schema)) };
}

function isSchema(v: unknown): v is Schema {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Every JSON object or array that parses, from each opening bracket in the text (the whole text first). */
function jsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  const tryParse = (s: string) => {
    try {
      out.push(JSON.parse(s));
    } catch {
      /* not JSON */
    }
  };
  tryParse(text.trim());
  for (let i = 0; i < text.length; i++) {
    const open = text[i];
    if (open !== '{' && open !== '[') continue;
    const end = closing(text, i);
    if (end > i) tryParse(text.slice(i, end + 1));
  }
  return out;
}

/** Index of the bracket closing the one at `start` (strings respected), or -1. */
function closing(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') if (--depth === 0) return i;
  }
  return -1;
}

/** The subset of JSON Schema the product sends: type, properties, required, items, enum. */
export function matches(value: unknown, schema: Schema): boolean {
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) return false;
  switch (schema.type) {
    case undefined:
      return Object.keys(schema).length > 0 || (value !== null && typeof value === 'object');
    case 'object': {
      if (!isSchema(value)) return false;
      const props = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      if (required.some((k) => !(k in value))) return false;
      return Object.entries(props).every(([k, s]) => !(k in value) || (isSchema(s) && matches(value[k], s)));
    }
    case 'array':
      return Array.isArray(value) && (!isSchema(schema.items) || value.every((v) => matches(v, schema.items as Schema)));
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return false;
  }
}

function smallest(schema: Schema): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  switch (schema.type) {
    case 'array':
      return [];
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default: {
      const props = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      return Object.fromEntries(required.map((k) => [k, isSchema(props[k]) ? smallest(props[k]) : {}]));
    }
  }
}
