// What one step has done so far, carried across its attempts (and rebuilt from history for a resumed step): the
// prompt it was first sent, the exchange the executor sees after it, and the evidence the step's status is read
// from — its successful calls (progress is a success not seen before; a repeat is not), their results, and the
// paths its calls used.
import { argumentsToText, type ChatMessage, type ToolCall } from '../messages';

export interface StepThread {
  /** The step's user message as first sent (goal, inputs, hot context). */
  base: string;
  /** Calls of earlier segments, one line each (a long step restarts its segment to fit the window). */
  done: string[];
  /** What the executor sees after the user message, append-only within a segment. */
  exchange: ChatMessage[];
  /** Successful results, `name: content`, in order: the step's record for later steps and the answer. */
  results: string[];
  /** Successful calls by name and arguments. */
  keys: Set<string>;
  /** Path-like argument values of every call the step made (its calls on named files). */
  touched: Set<string>;
}

/** A result the executor can act on but that is no success (the forms the tool executor writes). */
export const FAILED_RESULT = /^(Error|Not run|Cancelled|The user denied)\b/;

export function newThread(base: string): StepThread {
  return { base, done: [], exchange: [], results: [], keys: new Set(), touched: new Set() };
}

/** A resumed step's thread: its calls and results from history count as already done. */
export function threadFrom(base: string, messages: readonly ChatMessage[]): StepThread {
  const thread = newThread(base);
  thread.exchange = [...messages];
  const calls = new Map<string, ToolCall>();
  for (const m of messages) {
    for (const call of m.toolCalls ?? []) {
      calls.set(call.id, call);
      touch(thread, call);
    }
    const call = m.role === 'tool' && m.toolCallId ? calls.get(m.toolCallId) : undefined;
    if (call && !FAILED_RESULT.test(m.content)) observeSuccess(thread, call, m.content);
  }
  return thread;
}

/** Records a successful call; true when it is progress (not a repeat of an earlier success). */
export function observeSuccess(thread: StepThread, call: ToolCall, content: string): boolean {
  const key = callKey(call);
  thread.results.push(`${call.name}: ${content}`);
  if (thread.keys.has(key)) return false;
  thread.keys.add(key);
  return true;
}

export function touch(thread: StepThread, call: ToolCall): void {
  for (const value of pathValues(call)) thread.touched.add(value);
}

export function callKey(call: ToolCall): string {
  return `${call.name} ${canonical(call.arguments)}`;
}

/** The request the executor is sent for this thread (after the fixed system prompt). */
export function threadMessages(thread: StepThread): ChatMessage[] {
  return [{ role: 'user', content: promptOf(thread) }, ...thread.exchange];
}

export function promptOf(thread: StepThread): string {
  if (thread.done.length === 0) return thread.base;
  return `${thread.base}\n\nAlready done in this step (these calls ran and are not shown again; do not repeat them):\n${thread.done.join('\n')}`;
}

/** String arguments that look like paths (a dot or slash in them), lower-cased basenames and full values. */
function pathValues(call: ToolCall): string[] {
  const args = parsed(call.arguments);
  const out: string[] = [];
  for (const value of Object.values(args)) {
    if (typeof value !== 'string' || !/[./\\]/.test(value) || value.length > 400) continue;
    const norm = value.trim().replace(/\\/g, '/').replace(/^\.\//, '').toLowerCase();
    out.push(norm, norm.split('/').pop() ?? norm);
  }
  return out;
}

function parsed(args: ToolCall['arguments']): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  try {
    const value: unknown = JSON.parse(args);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Arguments with sorted keys, so `{a, b}` and `{b, a}` are the same call. */
function canonical(args: ToolCall['arguments']): string {
  if (typeof args === 'string') {
    try {
      return stable(JSON.parse(args));
    } catch {
      return argumentsToText(args);
    }
  }
  return stable(args);
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${stable(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
