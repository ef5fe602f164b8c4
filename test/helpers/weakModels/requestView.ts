// Reads a chat request the way a model does: only the messages and tools it was sent, in either wire format
// (OpenAI: string arguments and tool_call_id; Ollama: object arguments, tool results paired by order).
// Every scripted model in this folder decides from this view alone.
import type { ChatBody } from '../fakeLlm';

export interface SeenCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface SeenMessage {
  role: string;
  content: string;
  calls: SeenCall[];
}

export interface SeenResult {
  /** Position in the request's messages. */
  index: number;
  content: string;
  /** The call this result answers, when the request still shows it. */
  call?: SeenCall;
}

export interface OfferedTool {
  name: string;
  parameters: Record<string, unknown>;
}

export interface RequestView {
  messages: SeenMessage[];
  results: SeenResult[];
  tools: OfferedTool[];
  /** The session summary block ('' when there is none). */
  summary: string;
  /** Everything the model can read: contents, the summary, its own calls' arguments. */
  visibleText: string;
}

const SUMMARY_HEAD = '# Session summary';

export function readRequest(request: ChatBody): RequestView {
  const raw = Array.isArray(request.messages) ? request.messages : [];
  const messages = raw.map(seenMessage);
  const results: SeenResult[] = [];
  const byId = new Map<string, SeenCall>();
  let queue: SeenCall[] = [];
  messages.forEach((m, index) => {
    if (m.role === 'assistant') {
      queue = [...m.calls];
      for (const c of m.calls) if (c.id) byId.set(c.id, c);
      return;
    }
    if (m.role !== 'tool') {
      queue = [];
      return;
    }
    const id = stringOr(raw[index]?.tool_call_id);
    let call = id ? byId.get(id) : undefined;
    if (call) queue = queue.filter((c) => c !== call);
    else call = queue.shift(); // Ollama: results follow their calls in order
    results.push({ index, content: m.content, ...(call && { call }) });
  });
  // The session summary opens the first message after the system prompt (older builds put it in the system prompt).
  const holder = messages.find((m) => m.content.includes(SUMMARY_HEAD));
  const summary = holder ? holder.content.slice(holder.content.indexOf(SUMMARY_HEAD)) : '';
  const visibleText = [
    summary,
    ...messages.filter((m) => m.role !== 'system').flatMap((m) => [m.content, ...m.calls.map((c) => JSON.stringify(c.args))]),
  ].join('\n');
  return { messages, results, tools: offeredTools(request), summary, visibleText };
}

export function offeredTools(request: ChatBody): OfferedTool[] {
  const tools = Array.isArray(request.tools) ? (request.tools as Array<{ function?: { name?: unknown; parameters?: unknown } }>) : [];
  return tools
    .map((t) => ({ name: stringOr(t.function?.name) ?? '', parameters: isRecord(t.function?.parameters) ? t.function.parameters : {} }))
    .filter((t) => t.name !== '');
}

/** The last message, normalised. */
export function lastOf(view: RequestView): SeenMessage | undefined {
  return view.messages.at(-1);
}

/** Basename of a path argument ('/ws/note-01.txt' → 'note-01.txt'). */
export function baseName(value: unknown): string {
  return typeof value === 'string' ? (value.split(/[\\/]/).pop() ?? '') : '';
}

/** A tool result that reports a failure, in the built-in, MCP and compressed forms. */
export function looksFailed(content: string): boolean {
  const text = content.replace(/^\[Compressed\]\s*/, '');
  return (
    /^\s*Error\b/i.test(text) ||
    /reported an error|does not exist|already exists|not found|denied|Invalid arguments|Unknown tool|Not run|Cancelled|ENOENT|EEXIST/i.test(text) ||
    /\bfailed\b/i.test(text.split('\n')[0] ?? '')
  );
}

function seenMessage(m: Record<string, unknown>): SeenMessage {
  const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as Array<Record<string, unknown>>).map(seenCall) : [];
  return { role: String(m.role ?? ''), content: typeof m.content === 'string' ? m.content : '', calls };
}

function seenCall(c: Record<string, unknown>): SeenCall {
  const fn = isRecord(c.function) ? c.function : {};
  const id = stringOr(c.id);
  return { ...(id && { id }), name: stringOr(fn.name) ?? '', args: argsOf(fn.arguments) };
}

function argsOf(value: unknown): Record<string, unknown> {
  if (isRecord(value)) return value;
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function stringOr(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
