// Checks the tool definitions a server lists, and validates call arguments against their JSON Schemas.
// A broken definition skips that one tool; the schema itself goes to the model untouched.
import { z } from 'zod';

export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

/** Returns undefined when the arguments are valid, else a precise description of every problem. */
export type ArgumentValidator = (args: Record<string, unknown>) => string | undefined;

export type CheckedTool =
  | { ok: true; tool: McpToolDefinition; validate: ArgumentValidator; warning?: string }
  | { ok: false; name: string; reason: string };

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_SCHEMA_CHARS = 100_000;
const MAX_DEPTH = 64;

export function checkToolDefinition(raw: unknown): CheckedTool {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, name: '(unnamed)', reason: 'the tool entry is not an object' };
  const entry = raw as Record<string, unknown>;
  const name = typeof entry.name === 'string' ? entry.name : '';
  if (name.trim() === '') return { ok: false, name: '(unnamed)', reason: 'the tool has no name' };
  const bad = (reason: string): CheckedTool => ({ ok: false, name, reason });

  const execution = entry.execution as { taskSupport?: unknown } | undefined;
  if (execution?.taskSupport === 'required') return bad('it can only run as an MCP task, which Local Harness does not support');
  if (entry.description !== undefined && typeof entry.description !== 'string') return bad('"description" is not a string');

  const schema = entry.inputSchema;
  if (schema === undefined) return bad('it has no inputSchema');
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return bad('inputSchema is not a JSON object');
  const inputSchema = schema as Record<string, unknown>;
  if (inputSchema.type !== 'object') return bad(`inputSchema.type must be "object", got ${JSON.stringify(inputSchema.type)}`);
  let size: number;
  try {
    size = JSON.stringify(inputSchema).length;
  } catch {
    return bad('inputSchema cannot be serialised');
  }
  if (size > MAX_SCHEMA_CHARS) return bad(`inputSchema is ${Math.round(size / 1024)} KB, more than the ${MAX_SCHEMA_CHARS / 1000} KB allowed`);
  const problem = schemaProblem(inputSchema, 'inputSchema', 0);
  if (problem) return bad(problem);

  const annotations = (typeof entry.annotations === 'object' && entry.annotations !== null ? entry.annotations : undefined) as
    | McpToolDefinition['annotations']
    | undefined;
  const tool: McpToolDefinition = {
    name,
    inputSchema,
    ...(typeof entry.title === 'string' && { title: entry.title }),
    ...(typeof entry.description === 'string' && { description: entry.description }),
    ...(annotations && { annotations }),
  };
  const compiled = compileValidator(inputSchema);
  return compiled.warning ? { ok: true, tool, validate: compiled.validate, warning: compiled.warning } : { ok: true, tool, validate: compiled.validate };
}

/** Structural check of a (sub)schema: wrong shapes here mean the server's definition is broken. */
function schemaProblem(schema: unknown, path: string, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return `${path} is nested more than ${MAX_DEPTH} levels deep`;
  if (typeof schema === 'boolean') return undefined;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return `${path} must be a schema object or boolean`;
  const s = schema as Record<string, unknown>;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    for (const t of types) if (typeof t !== 'string' || !JSON_TYPES.has(t)) return `${path}.type has an unknown type ${JSON.stringify(t)}`;
  }
  if (s.required !== undefined && (!Array.isArray(s.required) || s.required.some((r) => typeof r !== 'string'))) {
    return `${path}.required must be an array of property names`;
  }
  if (s.enum !== undefined && !Array.isArray(s.enum)) return `${path}.enum must be an array`;
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions'] as const) {
    const value = s[key];
    if (value === undefined) continue;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${path}.${key} must be an object`;
    for (const [k, sub] of Object.entries(value as Record<string, unknown>)) {
      const p = schemaProblem(sub, `${path}.${key}.${k}`, depth + 1);
      if (p) return p;
    }
  }
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'] as const) {
    const value = s[key];
    if (value === undefined) continue;
    const subs = key === 'items' && Array.isArray(value) ? value : [value];
    for (const [i, sub] of subs.entries()) {
      const p = schemaProblem(sub, `${path}.${key}${subs.length > 1 || Array.isArray(value) ? `[${i}]` : ''}`, depth + 1);
      if (p) return p;
    }
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const value = s[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) return `${path}.${key} must be an array of schemas`;
    for (const [i, sub] of value.entries()) {
      const p = schemaProblem(sub, `${path}.${key}[${i}]`, depth + 1);
      if (p) return p;
    }
  }
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    if (s[key] !== undefined && typeof s[key] !== 'number') return `${path}.${key} must be a number`;
  }
  return undefined;
}

/**
 * zod v4 turns the JSON Schema into a validator. Keywords it can't express (not, if/then/else) are dropped
 * from the validator's copy only, so those constraints are left to the server; draft-07 `definitions` become `$defs`.
 */
function compileValidator(schema: Record<string, unknown>): { validate: ArgumentValidator; warning?: string } {
  const prepared = withDefs(schema);
  let zodSchema: z.ZodType | undefined;
  let warning: string | undefined;
  try {
    zodSchema = z.fromJSONSchema(prepared as never);
  } catch {
    try {
      zodSchema = z.fromJSONSchema(withoutUnsupported(prepared, 0) as never);
      warning = 'some schema keywords (not, if/then/else) are checked by the server only';
    } catch (err) {
      warning = `arguments are checked by the server only (${(err as Error).message})`;
    }
  }
  if (!zodSchema) return { validate: () => undefined, ...(warning && { warning }) };
  const compiled = zodSchema;
  const validate: ArgumentValidator = (args) => {
    const result = compiled.safeParse(args);
    return result.success ? undefined : formatIssues(result.error.issues, args);
  };
  return warning ? { validate, warning } : { validate };
}

function withDefs(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.definitions === undefined || schema.$defs !== undefined) return schema;
  const text = JSON.stringify(schema).replace(/"#\/definitions\//g, '"#/$defs/');
  const { definitions, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return { ...rest, $defs: definitions };
}

function withoutUnsupported(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withoutUnsupported(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === 'not' || k === 'if' || k === 'then' || k === 'else') continue;
    out[k] = withoutUnsupported(v, depth + 1);
  }
  return out;
}

function formatIssues(issues: readonly z.core.$ZodIssue[], args: Record<string, unknown>): string {
  return issues
    .map((issue) => {
      const where = issue.path.length ? `"${issue.path.map(String).join('.')}"` : 'arguments';
      if (issue.code === 'invalid_type' && valueAt(args, issue.path) === undefined) {
        return `${where} is required (expected ${issue.expected})`;
      }
      if (issue.code === 'unrecognized_keys') return `${where}: unknown ${issue.keys.length > 1 ? 'properties' : 'property'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
