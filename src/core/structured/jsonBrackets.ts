// Finding a JSON value's end in a model's free text: the bracket that closes the one at `start`, honouring strings.
// Shared by the structured-reply reader and the recovery of tool calls printed as text.

/** The text ended inside the value (a reply cut off). */
export const UNCLOSED = -2;

/** Index of the bracket closing the one at `start`; -1 on a mismatched closer, UNCLOSED when the text ends first. */
export function matchingBracket(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return UNCLOSED;
}
