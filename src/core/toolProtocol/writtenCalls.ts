// What the rows of the call-syntax table (callSyntaxes.ts) share: the region a row reads out of the text, the
// context it reads with, and turning a written name and arguments into a call of an offered tool.
import type { ToolCall } from '../messages';
import type { CallValidator } from './jsonRecovery';
import type { ToolBlockError } from './toolBlock';
import type { ToolIndex } from './toolIndex';

export type CallSyntaxId = 'text-protocol' | 'hermes' | 'qwen3-coder' | 'mistral' | 'devstral' | 'harmony' | 'json';

export interface RowContext {
  /** Tools a call may name. */
  known: ToolIndex;
  /** Whether a call read from JSON text is runnable (JSON in prose is often data, so only runnable calls count). */
  validate: CallValidator;
  newId: () => string;
}

/** What a row read at one place in the text. */
export interface Region {
  syntax: CallSyntaxId;
  /** Index just past what the row consumed. */
  end: number;
  calls: ToolCall[];
  /** Call-looking text that could not be read: one correction each. */
  errors: ToolBlockError[];
  /** Text the row decided is prose after all (JSON that is data), or a harmony `final` message. */
  prose?: string;
  /** Reasoning the row found (a harmony `analysis` message). */
  thinking?: string;
  /** The text stopped before the call's end (the model stopped, or the output limit cut it). */
  unfinished?: boolean;
}

/**
 * A row of the table. `read` looks at `text` from `at`: a Region when a call in its syntax (or its decided
 * absence) starts there, `more` when it might and the text so far cannot tell (never when `final`), undefined
 * when this is not its syntax.
 */
export interface CallSyntax {
  id: CallSyntaxId;
  /** How the README and the notices name it. */
  label: string;
  read(text: string, at: number, final: boolean, ctx: RowContext): Region | 'more' | undefined;
}

/** The literal among `literals` at `at`; `more` when the text ends inside one (and more may come). */
export function literalAt(text: string, at: number, literals: readonly string[], final: boolean): string | 'more' | undefined {
  const rest = text.slice(at, at + Math.max(...literals.map((l) => l.length)));
  for (const lit of literals) if (rest.startsWith(lit)) return lit;
  if (!final && rest.length > 0 && literals.some((lit) => lit.length > rest.length && lit.startsWith(rest))) return 'more';
  return undefined;
}

/** A call of an offered tool from a written name; an unknown name is an error the model can act on. */
export function callOf(name: string, args: Record<string, unknown> | string, ctx: RowContext): { call: ToolCall } | { error: ToolBlockError } {
  const resolved = ctx.known.resolve(undefined, name.trim());
  if (!resolved) {
    return { error: { kind: 'tool_not_found', message: `There is no tool "${name.trim()}". Available tools: ${ctx.known.describeNames()}. Call one of these by its exact name.` } };
  }
  return { call: { id: ctx.newId(), name: resolved, arguments: args } };
}

/** Adds one call or its error to a region. */
export function addCall(region: Region, result: ReturnType<typeof callOf>): void {
  if ('call' in result) region.calls.push(result.call);
  else region.errors.push(result.error);
}

export function region(syntax: CallSyntaxId, end: number): Region {
  return { syntax, end, calls: [], errors: [] };
}

/** A call-looking text that cannot be read, with the reason. */
export function unreadable(syntax: CallSyntaxId, end: number, message: string, unfinished = false): Region {
  return { ...region(syntax, end), errors: [{ kind: 'parse_error', message }], ...(unfinished && { unfinished }) };
}

/**
 * Raw text values (Qwen3-Coder's `<parameter=k>v</parameter>`) as the tool's schema types: numbers, booleans and
 * JSON objects/arrays are parsed; strings stay as written. A value that does not fit stays a string, so the tool's
 * own validation names the problem.
 */
export function coerceArguments(values: Record<string, string>, toolName: string, known: ToolIndex): Record<string, unknown> {
  const schema = known.get(toolName)?.definition.parameters as { properties?: Record<string, { type?: unknown }> } | undefined;
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(values)) {
    const declared = schema?.properties?.[key]?.type;
    const types = Array.isArray(declared) ? declared.map(String) : typeof declared === 'string' ? [declared] : [];
    out[key] = coerceValue(raw, types);
  }
  return out;
}

function coerceValue(raw: string, types: readonly string[]): unknown {
  if (types.includes('string')) return raw;
  const text = raw.trim();
  if ((types.includes('number') || types.includes('integer')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (types.includes('null') && text === 'null') return null;
  if (types.includes('object') || types.includes('array') || types.length === 0) {
    try {
      const parsed: unknown = JSON.parse(text);
      // Without a declared type only structured values are taken as JSON: "42" may well be meant as text.
      if (types.length > 0 || (parsed !== null && typeof parsed === 'object')) return parsed;
    } catch {
      // not JSON: the tool's validation says what it expected
    }
  }
  return raw;
}

/** Index of the first `closer` outside JSON strings from `from`, or -1 (a `</tool>` inside file content is data). */
export function closerOutsideStrings(text: string, from: number, closer: string): number {
  let inString = false;
  let escaped = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '<' && text.startsWith(closer, i)) return i;
  }
  return -1;
}
