// Rows of the call-syntax table whose calls are JSON: the text protocol's `<tool>` blocks, Hermes / Qwen2.5
// `<tool_call>{…}</tool_call>`, Mistral `[TOOL_CALLS][{…}]`, Devstral / Ministral 3 `[TOOL_CALLS]NAME[ARGS]{…}`,
// and a call printed as bare or fenced JSON.
import { matchingBracket, UNCLOSED } from '../structured/jsonBrackets';
import { asCall } from './jsonRecovery';
import { parseToolBlock } from './toolBlock';
import { addCall, callOf, closerOutsideStrings, literalAt, region, unreadable, type CallSyntax, type CallSyntaxId, type Region, type RowContext } from './writtenCalls';

/** `<tag>JSON</tag>`, read as the text protocol reads its blocks (parseToolBlock). */
function taggedJson(id: CallSyntaxId, label: string, tag: string): CallSyntax {
  const opener = `<${tag}>`;
  const closer = `</${tag}>`;
  return {
    id,
    label,
    read(text, at, final, ctx) {
      const lit = literalAt(text, at, [opener], final);
      if (lit !== opener) return lit === 'more' ? 'more' : undefined;
      const start = at + opener.length;
      // Qwen3-Coder's XML calls share the `<tool_call>` opener: its own row reads them.
      const body = text.slice(start).trimStart();
      if (body.startsWith('<function=')) return undefined;
      if (!final && body !== '' && '<function='.startsWith(body)) return 'more';
      let close = closerOutsideStrings(text, start, closer);
      if (close < 0 && !final) return 'more';
      // Broken JSON quoting may hide the closer: at the end, the first plain one closes the block.
      if (close < 0) close = text.indexOf(closer, start);
      if (close >= 0) return fromBlock(id, text.slice(start, close), close + closer.length, ctx);
      // An opener in prose ("as is <tool_call>.") is no call: a call's body is JSON.
      if (!/^\s*(?:[[{]|```)/.test(text.slice(start))) return undefined;
      const parsed = fromBlock(id, text.slice(start), text.length, ctx);
      if (parsed.calls.length > 0 && parsed.errors.length === 0) return { ...parsed, unfinished: true };
      const why = parsed.errors[0]?.message ?? 'incomplete JSON';
      return unreadable(id, text.length, `The ${opener} block was not closed with ${closer}, and what came before is not a complete call: ${why}`, true);
    },
  };
}

function fromBlock(id: CallSyntaxId, content: string, end: number, ctx: RowContext): Region {
  const parsed = parseToolBlock(content, ctx.known, ctx.newId);
  return { ...region(id, end), calls: parsed.calls, errors: parsed.errors };
}

const TOOL_CALLS = '[TOOL_CALLS]';

/** Mistral: `[TOOL_CALLS]` then a JSON array (or one object) of `{"name", "arguments", "id"}`. */
const mistral: CallSyntax = {
  id: 'mistral',
  label: 'Mistral `[TOOL_CALLS][{"name": …, "arguments": …}]`',
  read(text, at, final, ctx) {
    const lit = literalAt(text, at, [TOOL_CALLS], final);
    if (lit !== TOOL_CALLS) return lit === 'more' ? 'more' : undefined;
    let start = at + TOOL_CALLS.length;
    while (start < text.length && /\s/.test(text[start]!)) start++;
    if (start >= text.length) return final ? unreadable('mistral', text.length, `${TOOL_CALLS} was not followed by a call.`, true) : 'more';
    if (text[start] !== '[' && text[start] !== '{') return undefined; // Devstral's NAME[ARGS] form
    const close = matchingBracket(text, start);
    if (close === UNCLOSED) return final ? unreadable('mistral', text.length, `The ${TOOL_CALLS} list of calls stopped before its end.`, true) : 'more';
    if (close < 0) return unreadable('mistral', text.length, `The ${TOOL_CALLS} list of calls has mismatched brackets.`);
    const out = region('mistral', close + 1);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.slice(start, close + 1));
    } catch (err) {
      return unreadable('mistral', close + 1, `The ${TOOL_CALLS} list of calls is not valid JSON (${(err as Error).message}).`);
    }
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      const call = asCall(item, ctx.newId);
      if (!call) out.errors.push({ kind: 'invalid_field', message: `Each call after ${TOOL_CALLS} needs "name" and "arguments" (an object).` });
      else addCall(out, callOf(call.name, call.arguments, ctx));
    }
    return out;
  },
};

const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';

/** Devstral / Ministral 3 / Mistral Small 3.2: `[TOOL_CALLS]NAME[ARGS]{…}`, maybe with `[CALL_ID]id` before `[ARGS]`. */
const devstral: CallSyntax = {
  id: 'devstral',
  label: 'Devstral / Ministral 3 `[TOOL_CALLS]NAME[ARGS]{…}`',
  read(text, at, final, ctx) {
    const lit = literalAt(text, at, [TOOL_CALLS], final);
    if (lit !== TOOL_CALLS) return lit === 'more' ? 'more' : undefined;
    const nameAt = at + TOOL_CALLS.length;
    const name = /^[A-Za-z0-9_.\-]*/.exec(text.slice(nameAt))![0];
    let i = nameAt + name.length;
    if (i >= text.length) return final ? unreadable('devstral', text.length, `${TOOL_CALLS}${name} stopped before its [ARGS].`, true) : 'more';
    if (!name) return undefined; // Mistral's JSON list form
    const idMarker = literalAt(text, i, [CALL_ID], final);
    if (idMarker === 'more') return 'more';
    if (idMarker === CALL_ID) {
      const args = text.indexOf(ARGS, i);
      if (args < 0) return final ? unreadable('devstral', text.length, `${TOOL_CALLS}${name}${CALL_ID}… has no [ARGS].`, true) : 'more';
      i = args;
    }
    const marker = literalAt(text, i, [ARGS], final);
    if (marker === 'more') return 'more';
    if (marker !== ARGS) return unreadable('devstral', i, `${TOOL_CALLS}${name} must be followed by [ARGS] and the arguments as a JSON object.`);
    let start = i + ARGS.length;
    while (start < text.length && /\s/.test(text[start]!)) start++;
    if (start >= text.length) return final ? unreadable('devstral', text.length, `${TOOL_CALLS}${name}${ARGS} stopped before the arguments.`, true) : 'more';
    if (text[start] !== '{') return unreadable('devstral', start, `The arguments after ${TOOL_CALLS}${name}${ARGS} must be a JSON object.`);
    const close = matchingBracket(text, start);
    if (close === UNCLOSED) return final ? unreadable('devstral', text.length, `The arguments of ${name} stopped before their end.`, true) : 'more';
    let args: unknown;
    try {
      args = close < 0 ? undefined : JSON.parse(text.slice(start, close + 1));
    } catch {
      args = undefined;
    }
    if (!args || typeof args !== 'object') return unreadable('devstral', close < 0 ? text.length : close + 1, `The arguments of ${name} after ${ARGS} are not a valid JSON object.`);
    const out = region('devstral', close + 1);
    addCall(out, callOf(name, args as Record<string, unknown>, ctx));
    return out;
  },
};

/** `{"name"…`, `[{"name"…`, maybe in a ``` fence: how a call printed as JSON begins. */
const JSON_CALL_START = /^(?:```[a-zA-Z]*[ \t]*\n\s*)?(?:\[\s*)?\{\s*"(?:name|tool_name|tool|function|type)"\s*:/;
/** A text that may still grow into JSON_CALL_START. */
const JSON_CALL_PARTIAL = /^(?:`{1,2}|(?:```[a-zA-Z]*[ \t]*\n?\s*)?(?:\[\s*)?(?:\{\s*(?:"[a-z_]*"?\s*)?)?)$/;
const FENCE_OPEN = /^```[a-zA-Z]*[ \t]*\n/;

/**
 * A call printed as JSON, bare or fenced. JSON in prose is often data, so only calls the tool accepts count
 * (ctx.validate); broken JSON that names an offered tool is a call that could not be read.
 */
const jsonText: CallSyntax = {
  id: 'json',
  label: 'JSON printed as text (`{"name": …, "arguments": …}`, bare or in a ``` fence)',
  read(text, at, final, ctx) {
    if (ctx.known.size === 0) return undefined;
    const rest = text.slice(at, at + 200);
    if (!JSON_CALL_START.test(rest)) return !final && JSON_CALL_PARTIAL.test(rest) ? 'more' : undefined;
    const fence = FENCE_OPEN.exec(rest);
    let start = at + (fence ? fence[0].length : 0);
    while (/\s/.test(text[start]!)) start++;
    const close = matchingBracket(text, start);
    if (close === UNCLOSED && !final) return 'more';
    let end = close < 0 ? text.length : close + 1;
    if (fence) {
      const fenceClose = /^\s*```/.exec(text.slice(end));
      if (!fenceClose && !final && close >= 0 && /^\s*`{0,2}$/.test(text.slice(end))) return 'more';
      if (fenceClose) end += fenceClose[0].length;
    }
    const body = close < 0 ? text.slice(start) : text.slice(start, close + 1);
    const asProse = { ...region('json', end), prose: text.slice(at, end) };
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      // Unreadable: a call only when it names an offered tool; otherwise it is just text.
      const named = /"(?:name|tool_name|tool)"\s*:\s*"([^"]+)"/.exec(body)?.[1];
      if (!named || !ctx.known.resolve(undefined, named)) return asProse;
      const unfinished = close === UNCLOSED;
      const why = unfinished ? 'it stopped before its end' : 'it is not valid JSON';
      return unreadable('json', end, `The call to ${named} written as JSON text could not be read: ${why}.`, unfinished);
    }
    const out = region('json', end);
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      const call = asCall(item, ctx.newId);
      if (!call || !ctx.validate(call)) return asProse;
      const resolved = ctx.known.resolve(undefined, call.name);
      out.calls.push(resolved ? { ...call, name: resolved } : call);
    }
    return out.calls.length > 0 ? out : asProse;
  },
};

export const textProtocolSyntax = taggedJson('text-protocol', 'the text protocol `<tool>{"server_name", "tool_name", "arguments"}</tool>`', 'tool');
export const hermesSyntax = taggedJson('hermes', 'Hermes / Qwen2.5 `<tool_call>{"name": …, "arguments": …}</tool_call>`', 'tool_call');
export { mistral as mistralSyntax, devstral as devstralSyntax, jsonText as jsonTextSyntax };
