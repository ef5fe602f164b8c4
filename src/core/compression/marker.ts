// How a compressed message looks to the model: a "[Compressed]" prefix, and tool-call arguments whose long
// string values are cut (a write_file call can carry a whole file; the result already says what happened).
import type { ChatMessage, ToolCall } from '../messages';

export const COMPRESSED_MARKER = '[Compressed]';

export function isCompressed(message: ChatMessage): boolean {
  return message.content.startsWith(COMPRESSED_MARKER);
}

export function markCompressed(text: string): string {
  const body = text.trim();
  return body ? `${COMPRESSED_MARKER} ${body}` : COMPRESSED_MARKER;
}

/** The text without the marker, for summaries built from already-compressed messages. */
export function unmarked(text: string): string {
  return text.startsWith(COMPRESSED_MARKER) ? text.slice(COMPRESSED_MARKER.length).trimStart() : text;
}

/** The first `maxChars` characters on a whole-word boundary when one is near, with an ellipsis. */
export function clip(text: string, maxChars: number): string {
  const flat = text.trim();
  if (flat.length <= maxChars) return flat;
  let cut = flat.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  if (space > maxChars * 0.7) cut = cut.slice(0, space);
  return cut.trimEnd() + '…';
}

/** One line, whitespace collapsed: for listings and summaries. */
export function oneLine(text: string, maxChars: number): string {
  return clip(text.replace(/\s+/g, ' '), maxChars);
}

/**
 * Tool calls with every string argument longer than `maxChars` cut to a head and a note. The ids and names
 * stay, so each call still pairs with its result. Returns the same array when nothing was long.
 */
export function shortenToolCalls(calls: readonly ToolCall[], maxChars: number): ToolCall[] {
  let changed = false;
  const out = calls.map((call) => {
    const args = parseArguments(call.arguments);
    if (!args) return call; // unreadable arguments were sent as they are before; leave them alone
    const { value, cut } = shortenValue(args, maxChars);
    if (!cut) return call;
    changed = true;
    return { ...call, arguments: value as Record<string, unknown> };
  });
  return changed ? out : (calls as ToolCall[]);
}

export function parseArguments(args: ToolCall['arguments']): Record<string, unknown> | undefined {
  if (typeof args !== 'string') return args && typeof args === 'object' ? args : undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function shortenValue(value: unknown, maxChars: number): { value: unknown; cut: boolean } {
  if (typeof value === 'string') {
    if (value.length <= maxChars) return { value, cut: false };
    return { value: `${value.slice(0, maxChars)}… [${value.length - maxChars} more characters compressed]`, cut: true };
  }
  if (Array.isArray(value)) {
    let cut = false;
    const items = value.map((v) => {
      const r = shortenValue(v, maxChars);
      cut ||= r.cut;
      return r.value;
    });
    return { value: items, cut };
  }
  if (value && typeof value === 'object') {
    let cut = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = shortenValue(v, maxChars);
      cut ||= r.cut;
      out[k] = r.value;
    }
    return { value: out, cut };
  }
  return { value, cut: false };
}

/** Starts the line that carries a file's index summary in a compressed read (indexSummaries.ts; the session summary looks for it). */
export const INDEX_SUMMARY_LABEL = 'Index summary of ';
