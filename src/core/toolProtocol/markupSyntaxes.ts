// Rows of the call-syntax table whose calls are markup: Qwen3-Coder's XML-style calls and gpt-oss's harmony
// messages. Both as their chat templates write them; a server that does not parse them passes them on as text.
import { matchingBracket, UNCLOSED } from '../structured/jsonBrackets';
import { addCall, callOf, coerceArguments, literalAt, region, unreadable, type CallSyntax, type Region } from './writtenCalls';

const TOOL_CALL = '<tool_call>';
const TOOL_CALL_END = '</tool_call>';
const FUNCTION = '<function=';
const FUNCTION_END = '</function>';
/** A parameter ends at `</parameter>` followed by the next parameter or the function's end, so file content may hold the tag. */
const PARAMETER = /<parameter=([^>\n]+)>([\s\S]*?)<\/parameter>(?=\s*(?:<parameter=|<\/function>|$))/g;

/** Qwen3-Coder: `<tool_call><function=NAME><parameter=K>V</parameter>…</function></tool_call>`; values are raw text. */
export const qwenCoderSyntax: CallSyntax = {
  id: 'qwen3-coder',
  label: 'Qwen3-Coder `<tool_call><function=NAME><parameter=K>V</parameter></function></tool_call>`',
  read(text, at, final, ctx) {
    let fnAt = at;
    const wrapper = literalAt(text, at, [TOOL_CALL], final);
    if (wrapper === TOOL_CALL) {
      fnAt = at + TOOL_CALL.length;
      while (fnAt < text.length && /\s/.test(text[fnAt]!)) fnAt++;
    } else if (wrapper === 'more') return 'more';
    const fn = literalAt(text, fnAt, [FUNCTION], final);
    if (fn === 'more' || (fn === undefined && wrapper === TOOL_CALL && fnAt >= text.length && !final)) return 'more';
    if (fn !== FUNCTION) return undefined;
    const nameEnd = text.indexOf('>', fnAt);
    const close = text.indexOf(FUNCTION_END, fnAt);
    if (close < 0 || nameEnd < 0 || nameEnd > close) {
      if (!final) return 'more';
      return unreadable('qwen3-coder', text.length, `The ${FUNCTION}…> call stopped before ${FUNCTION_END}.`, true);
    }
    let end = close + FUNCTION_END.length;
    if (wrapper === TOOL_CALL) {
      const after = text.slice(end);
      const trimmed = after.trimStart();
      if (trimmed.startsWith(TOOL_CALL_END)) end += after.length - trimmed.length + TOOL_CALL_END.length;
      // Wait for the wrapper's end unless something else follows.
      else if (!final && (trimmed === '' || TOOL_CALL_END.startsWith(trimmed))) return 'more';
    }
    const name = text.slice(fnAt + FUNCTION.length, nameEnd).trim();
    const values: Record<string, string> = {};
    for (const m of text.slice(nameEnd + 1, close).matchAll(PARAMETER)) values[m[1]!.trim()] = trimOneNewline(m[2]!);
    const out = region('qwen3-coder', end);
    const resolved = ctx.known.resolve(undefined, name);
    addCall(out, callOf(name, resolved ? coerceArguments(values, resolved, ctx.known) : values, ctx));
    return out;
  },
};

/** The template writes `<parameter=k>\nvalue\n</parameter>`: those two newlines are layout. */
function trimOneNewline(value: string): string {
  return value.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
}

const START = '<|start|>';
const CHANNEL = '<|channel|>';
/** One harmony message's header: `[<|start|>assistant][ to=R]<|channel|>CH[ to=R][ <|constrain|>json| json]<|message|>`. */
const HEADER = /^(?:<\|start\|>assistant)?(?:\s*to=([^\s<]+))?\s*<\|channel\|>(\w+)(?:\s+to=([^\s<]+))?[^<]*(?:<\|constrain\|>\s*\w*\s*)?<\|message\|>/;
const MESSAGE_ENDS = ['<|call|>', '<|end|>', '<|return|>'];

/**
 * gpt-oss harmony: `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`. An
 * `analysis` message is reasoning, a `final` message is the answer; servers often drop the `<|call|>` stop token.
 */
export const harmonySyntax: CallSyntax = {
  id: 'harmony',
  label: 'gpt-oss harmony `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`',
  read(text, at, final, ctx) {
    const lit = literalAt(text, at, [START, CHANNEL], final);
    if (lit === 'more') return 'more';
    if (lit === undefined) return undefined;
    const header = HEADER.exec(text.slice(at, at + 300));
    if (!header) {
      // The header is still coming (or is not harmony after all).
      if (!final && !text.includes('<|message|>', at) && text.length - at < 300) return 'more';
      return undefined;
    }
    const bodyAt = at + header[0].length;
    const recipient = header[1] ?? header[3];
    const channel = header[2]!;
    if (recipient?.startsWith('functions.')) return readCall(text, bodyAt, recipient.slice('functions.'.length), final, ctx);
    // A message that is no call: reasoning or answer text up to its end token.
    const ends = MESSAGE_ENDS.map((e) => text.indexOf(e, bodyAt)).filter((i) => i >= 0);
    if (ends.length === 0 && !final) return 'more';
    const stop = ends.length ? Math.min(...ends) : text.length;
    const endToken = MESSAGE_ENDS.find((e) => text.startsWith(e, stop));
    const body = text.slice(bodyAt, stop);
    const out = region('harmony', stop + (endToken?.length ?? 0));
    if (channel === 'analysis') out.thinking = body;
    else out.prose = body;
    return out;
  },
};

function readCall(text: string, bodyAt: number, name: string, final: boolean, ctx: Parameters<CallSyntax['read']>[3]): Region | 'more' {
  let start = bodyAt;
  while (start < text.length && /\s/.test(text[start]!)) start++;
  if (start >= text.length) return final ? unreadable('harmony', text.length, `The call to ${name} stopped before its arguments.`, true) : 'more';
  const close = text[start] === '{' ? matchingBracket(text, start) : -1;
  if (close === UNCLOSED) return final ? unreadable('harmony', text.length, `The arguments of ${name} stopped before their end.`, true) : 'more';
  let end = close < 0 ? text.length : close + 1;
  const after = text.slice(end);
  const trimmed = after.trimStart();
  const endToken = MESSAGE_ENDS.find((e) => trimmed.startsWith(e));
  if (endToken) end += after.length - trimmed.length + endToken.length;
  else if (!final && MESSAGE_ENDS.some((e) => e.startsWith(trimmed))) return 'more';
  let args: unknown;
  try {
    args = close < 0 ? undefined : JSON.parse(text.slice(start, close + 1));
  } catch {
    args = undefined;
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return unreadable('harmony', end, `The arguments of ${name} after <|message|> are not a JSON object.`);
  const out = region('harmony', end);
  addCall(out, callOf(name, args as Record<string, unknown>, ctx));
  return out;
}
