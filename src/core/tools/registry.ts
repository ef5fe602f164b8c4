// One registry for built-in and MCP tools: lookup, JSON-Schema export and argument validation.
import { z } from 'zod';
import type { ToolCall, ToolDefinition } from '../messages';
import type { RiskLevel, Tool } from './tool';

export type ParsedCall =
  | { ok: true; tool: Tool; args: unknown }
  | { ok: false; error: string; tool?: Tool };

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new Error(`tool "${tool.name}" is already registered`);
    this.tools.set(tool.name, tool);
  }

  unregister(name: string): void {
    this.tools.delete(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(filter?: (tool: Tool) => boolean): Tool[] {
    const all = [...this.tools.values()];
    return filter ? all.filter(filter) : all;
  }

  /** Definitions for the model, optionally limited to some risk levels (untrusted workspaces get read tools only). */
  definitions(allowedRisks?: readonly RiskLevel[]): ToolDefinition[] {
    return this.list((t) => !allowedRisks || allowedRisks.includes(t.risk)).map(toDefinition);
  }

  /** Parse and validate a raw call. Every failure says exactly what to fix. */
  parse(call: ToolCall, allowedRisks?: readonly RiskLevel[]): ParsedCall {
    const tool = this.tools.get(call.name);
    const offered = this.list((t) => !allowedRisks || allowedRisks.includes(t.risk));
    if (!tool || !offered.includes(tool)) {
      // Named, not described: the model has the definitions; a long MCP list would cost every later request.
      const names = offered.slice(0, MAX_NAMES_LISTED).map((t) => t.name).join(', ');
      const more = offered.length > MAX_NAMES_LISTED ? ` (and ${offered.length - MAX_NAMES_LISTED} more; tool_search finds them)` : '';
      return { ok: false, error: `Unknown tool "${call.name}". Available tools: ${names}${more}.` };
    }
    let raw: unknown = call.arguments;
    if (typeof raw === 'string') {
      const text = raw.trim();
      if (text === '') raw = {};
      else {
        try {
          raw = JSON.parse(text);
        } catch (e) {
          return {
            ok: false,
            tool,
            error: `The arguments for ${tool.name} are not valid JSON (${(e as Error).message}). Send a JSON object matching the tool's parameters, e.g. ${exampleFor(tool)}.`,
          };
        }
      }
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      return { ok: false, tool, error: `The arguments for ${tool.name} must be a JSON object, got ${describe(raw)}.` };
    }
    const result = tool.schema.safeParse(raw);
    if (!result.success) {
      return { ok: false, tool, error: `Invalid arguments for ${tool.name}: ${formatIssues(result.error)}` };
    }
    return { ok: true, tool, args: result.data };
  }
}

const MAX_NAMES_LISTED = 20;

export function toDefinition(tool: Tool): ToolDefinition {
  return { name: tool.name, description: tool.description, parameters: tool.jsonSchema ?? jsonSchemaOf(tool.schema) };
}

const schemaCache = new WeakMap<z.ZodType, Record<string, unknown>>();

/** zod v4's JSON-Schema export, without the `$schema` noise that costs tokens. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let out = schemaCache.get(schema);
  if (!out) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    out = rest;
    schemaCache.set(schema, out);
  }
  return out;
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length ? `"${issue.path.join('.')}"` : 'arguments';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function exampleFor(tool: Tool): string {
  const schema = tool.jsonSchema ?? jsonSchemaOf(tool.schema);
  const props = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = (schema.required ?? []) as string[];
  const example: Record<string, unknown> = {};
  for (const key of required) example[key] = props[key]?.type === 'number' || props[key]?.type === 'integer' ? 1 : '…';
  return JSON.stringify(example);
}
