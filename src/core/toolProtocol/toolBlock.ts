// Turns the JSON inside a `<tool>` block into tool calls, or into precise feedback the model can act on
// (the seeds' ParseError, MissingField and ToolNotFound).
import type { ToolCall } from '../messages';
import type { ToolIndex } from './toolIndex';

export type ToolBlockErrorKind = 'parse_error' | 'missing_field' | 'invalid_field' | 'tool_not_found';

export interface ToolBlockError {
  kind: ToolBlockErrorKind;
  /** What is wrong and how to fix it, written for the model. */
  message: string;
}

export interface ToolBlockResult {
  calls: ToolCall[];
  errors: ToolBlockError[];
}

const TOOL_NAME_KEYS = ['tool_name', 'name', 'tool', 'function'] as const;
const SERVER_KEYS = ['server_name', 'server'] as const;
const ARG_KEYS = ['arguments', 'args', 'parameters', 'input'] as const;

export function parseToolBlock(content: string, index: ToolIndex, newId: () => string): ToolBlockResult {
  const source = unfence(content).trim();
  if (source === '') return { calls: [], errors: [{ kind: 'parse_error', message: 'The <tool> block is empty. Put one JSON object inside it.' }] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (first) {
    try {
      parsed = JSON.parse(withoutTrailingCommas(source));
    } catch {
      return {
        calls: [],
        errors: [
          {
            kind: 'parse_error',
            message: `The <tool> block is not valid JSON (${(first as Error).message}) in: ${snippet(source)}. Use double quotes, escape quotes and newlines inside strings (\\" and \\n), and put exactly one JSON object between <tool> and </tool>.`,
          },
        ],
      };
    }
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  const result: ToolBlockResult = { calls: [], errors: [] };
  for (const item of items) {
    const one = toCall(item, index, newId);
    if ('error' in one) result.errors.push(one.error);
    else result.calls.push(one.call);
  }
  return result;
}

function toCall(item: unknown, index: ToolIndex, newId: () => string): { call: ToolCall } | { error: ToolBlockError } {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    return { error: { kind: 'invalid_field', message: `The <tool> block must hold a JSON object with "server_name", "tool_name" and "arguments", got ${describe(item)}.` } };
  }
  let obj = item as Record<string, unknown>;
  // The OpenAI shape {"type": "function", "function": {"name": …, "arguments": …}}.
  if (obj.function && typeof obj.function === 'object' && !Array.isArray(obj.function)) obj = { ...obj, ...(obj.function as Record<string, unknown>) };
  const toolName = firstString(obj, TOOL_NAME_KEYS);
  if (toolName === undefined) {
    const present = Object.keys(obj).map((k) => `"${k}"`).join(', ') || 'no fields';
    return {
      error: {
        kind: 'missing_field',
        message: `The <tool> block is missing "tool_name" (it has ${present}). Each call needs "server_name", "tool_name" and "arguments", e.g. ${example(index)}.`,
      },
    };
  }
  const server = firstString(obj, SERVER_KEYS);
  const name = index.resolve(server, toolName);
  if (name === undefined) {
    const where = server ? ` on server "${server}"` : '';
    return { error: { kind: 'tool_not_found', message: `There is no tool "${toolName}"${where}. Available tools: ${index.describeNames()}. Call one of these by its exact name.` } };
  }
  const argKey = ARG_KEYS.find((k) => k in obj);
  let args: unknown = argKey === undefined ? {} : obj[argKey];
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args);
    } catch {
      return { error: { kind: 'invalid_field', message: `"arguments" for ${toolName} must be a JSON object, not a string, e.g. ${example(index, name)}.` } };
    }
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { error: { kind: 'invalid_field', message: `"arguments" for ${toolName} must be a JSON object, got ${describe(args)}, e.g. ${example(index, name)}.` } };
  }
  return { call: { id: newId(), name, arguments: args as Record<string, unknown> } };
}

/** One correction message for all the problems of a reply. */
export function toolBlockFeedback(errors: readonly ToolBlockError[], index: ToolIndex): string {
  const lines = errors.map((e) => `- ${e.message}`);
  return `Your tool call could not be run:\n${lines.join('\n')}\nWrite each call exactly like this: ${example(index)}`;
}

export function example(index: ToolIndex, name?: string): string {
  const tool = (name && index.get(name)) || index.tools[0];
  if (!tool) return '<tool>{"server_name": "local", "tool_name": "…", "arguments": {}}</tool>';
  const schema = tool.definition.parameters as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    const type = schema.properties?.[key]?.type;
    args[key] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : '…';
  }
  return `<tool>${JSON.stringify({ server_name: tool.server, tool_name: tool.tool, arguments: args })}</tool>`;
}

function firstString(obj: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}

function unfence(text: string): string {
  const m = /^\s*```[a-zA-Z]*\s*\n?([\s\S]*?)\n?\s*```\s*$/.exec(text);
  return m ? m[1]! : text;
}

function withoutTrailingCommas(text: string): string {
  return text.replace(/,\s*([}\]])/g, '$1');
}

function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
