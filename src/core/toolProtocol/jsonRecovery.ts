// Native mode: recovers tool calls that the model printed as JSON in its text instead of calling them
// (`{"name": "read_file", "arguments": {...}}`, bare or in a ``` fence). Only a call that names an offered
// tool with arguments the tool accepts is recovered; anything else stays text.
import type { ToolCall } from '../messages';
import { matchingBracket } from '../structured/jsonBrackets';

export interface RecoveredCalls {
  calls: ToolCall[];
  /** The text with the recovered JSON (and its fence) removed. */
  text: string;
}

/** Says whether a candidate call is runnable (offered tool, valid arguments). */
export type CallValidator = (call: ToolCall) => boolean;

interface Span {
  start: number;
  end: number;
  json: string;
}

export function recoverJsonToolCalls(text: string, isValid: CallValidator, newId: () => string): RecoveredCalls {
  const calls: ToolCall[] = [];
  const used: Span[] = [];
  for (const span of candidateSpans(text)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(span.json);
    } catch {
      continue;
    }
    const items = Array.isArray(parsed) ? parsed : [parsed];
    const found: ToolCall[] = [];
    for (const item of items) {
      const call = asCall(item, newId);
      if (!call || !isValid(call)) {
        found.length = 0;
        break;
      }
      found.push(call);
    }
    if (found.length === 0) continue;
    calls.push(...found);
    used.push(span);
  }
  if (calls.length === 0) return { calls, text };
  let rest = text;
  for (const span of [...used].sort((a, b) => b.start - a.start)) rest = rest.slice(0, span.start) + rest.slice(span.end);
  // Tool markup that only wrapped the JSON is noise now.
  rest = rest.replace(/<(tool|tool_call)>\s*<\/\1>/g, '').replace(/\n{3,}/g, '\n\n').trim();
  return { calls, text: rest };
}

/** `{name, arguments}` (or the OpenAI `{function: {…}}` shape, or `tool_name`/`parameters`…) as a call; undefined otherwise. */
export function asCall(item: unknown, newId: () => string): ToolCall | undefined {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return undefined;
  let obj = item as Record<string, unknown>;
  if (obj.function && typeof obj.function === 'object') obj = obj.function as Record<string, unknown>;
  const name = [obj.name, obj.tool_name, obj.tool].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (!name) return undefined;
  const args = obj.arguments ?? obj.parameters ?? obj.args ?? obj.input;
  if (args === undefined) return undefined; // a bare {"name": …} is more likely data than a call
  if (typeof args === 'string') return { id: newId(), name: name.trim(), arguments: args };
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  return { id: newId(), name: name.trim(), arguments: args as Record<string, unknown> };
}

/** Fenced blocks first (their whole fence is removed), then top-level {…} / […] spans outside fences. */
function candidateSpans(text: string): Span[] {
  const spans: Span[] = [];
  const fence = /```[a-zA-Z]*[ \t]*\n([\s\S]*?)\n?[ \t]*```/g;
  const covered: Array<[number, number]> = [];
  for (const m of text.matchAll(fence)) {
    const start = m.index!;
    const end = start + m[0].length;
    covered.push([start, end]);
    const body = m[1]!.trim();
    if (body.startsWith('{') || body.startsWith('[')) spans.push({ start, end, json: body });
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    if (covered.some(([s, e]) => i >= s && i < e)) continue;
    const end = matchingBracket(text, i);
    if (end < 0) continue;
    spans.push({ start: i, end: end + 1, json: text.slice(i, end + 1) });
    i = end;
  }
  return spans;
}
