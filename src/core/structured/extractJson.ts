// Finds the JSON in a model's reply. Weak models wrap it in ```json fences, put prose around it, or leave a
// trailing comma; the caller validates each candidate against its schema and takes the first that fits.
import { matchingBracket, UNCLOSED } from './jsonBrackets';
import { errorMessage } from '../../shared/format';

export type JsonExtraction =
  | { ok: true; candidates: unknown[] }
  | { ok: false; reason: string };

/**
 * Every JSON value the reply plausibly holds, best guess first: the whole reply, then fenced blocks, then
 * balanced `{…}` / `[…]` spans in the prose. Each is parsed as is, then with trailing commas removed.
 */
export function extractJson(reply: string): JsonExtraction {
  const text = reply.replace(/^\uFEFF/, '').trim();
  if (text === '') return { ok: false, reason: 'the reply was empty' };
  const candidates: unknown[] = [];
  const seen = new Set<string>();
  let firstError: string | undefined;
  const tryParse = (raw: string) => {
    const source = raw.trim();
    if (source === '' || seen.has(source)) return;
    seen.add(source);
    for (const attempt of [source, withoutTrailingCommas(source)]) {
      try {
        candidates.push(JSON.parse(attempt));
        return;
      } catch (err) {
        firstError ??= errorMessage(err);
      }
    }
  };
  tryParse(text);
  for (const body of fencedBodies(text)) tryParse(body);
  for (const span of bracketSpans(text)) tryParse(span);
  if (candidates.length > 0) return { ok: true, candidates };
  const looksLikeJson = /[{[]/.test(text);
  return {
    ok: false,
    reason: looksLikeJson ? `the JSON in the reply is invalid (${firstError ?? 'unbalanced brackets'})` : 'the reply contains no JSON object',
  };
}

/** Bodies of ``` fences; an unclosed fence (a reply cut off) runs to the end. */
function fencedBodies(text: string): string[] {
  const bodies: string[] = [];
  const fence = /```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)(?:```|$)/g;
  for (const m of text.matchAll(fence)) {
    if (m[0] === '') break;
    bodies.push(m[1] ?? '');
  }
  return bodies;
}

/** Outermost balanced `{…}` and `[…]` spans, in order, honouring JSON strings. */
function bracketSpans(text: string): string[] {
  const spans: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    const end = matchingBracket(text, i);
    // The text ends inside this value (a reply cut off): what follows is its broken inside, not another value.
    if (end === UNCLOSED) break;
    if (end < 0) continue;
    const span = text.slice(i, end + 1);
    spans.push(span);
    // A span that parses is one value: skip its insides. One that does not (e.g. "[the JSON]") may hide one.
    if (parses(span) || parses(withoutTrailingCommas(span))) i = end;
  }
  return spans;
}

function parses(source: string): boolean {
  try {
    JSON.parse(source);
    return true;
  } catch {
    return false;
  }
}

/** `[1, 2,]` / `{"a": 1,}` → valid JSON; commas inside strings stay. */
export function withoutTrailingCommas(source: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (inString) {
      out += c;
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') {
      let j = i + 1;
      while (j < source.length && /\s/.test(source[j]!)) j++;
      if (source[j] === '}' || source[j] === ']') continue;
    }
    out += c;
  }
  return out;
}
