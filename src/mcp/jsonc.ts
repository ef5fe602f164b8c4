// JSON with comments and trailing commas (VS Code's mcp.json allows both), with line:column errors.

/** Parse JSONC text. Throws an Error whose message names the line and column of the problem. */
export function parseJsonc(text: string): unknown {
  const cleaned = blankOutComments(text.replace(/^\uFEFF/, ''));
  try {
    return JSON.parse(cleaned);
  } catch (err) {
    const message = (err as Error).message;
    const match = /position (\d+)/.exec(message);
    if (!match) throw new Error(message);
    const { line, column } = lineColumn(cleaned, Number(match[1]));
    throw new Error(`${message.replace(/\s*(in JSON )?at position \d+.*$/, '')} at line ${line}, column ${column}`);
  }
}

/** Replace comments and trailing commas with spaces so positions (and so error locations) stay the same. */
function blankOutComments(text: string): string {
  const out = text.split('');
  let i = 0;
  let lastSignificant = -1; // index of the last non-space, non-comment character outside strings
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      lastSignificant = i;
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') i++;
        i++;
      }
      lastSignificant = i;
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') out[i++] = ' ';
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i++) if (text[i] !== '\n') out[i] = ' ';
      continue;
    }
    if ((c === '}' || c === ']') && lastSignificant >= 0 && out[lastSignificant] === ',') out[lastSignificant] = ' ';
    if (!/\s/.test(c)) lastSignificant = i;
    i++;
  }
  return out.join('');
}

function lineColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}
