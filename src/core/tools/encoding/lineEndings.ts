// Line endings: which one a file mostly uses, and putting a model's "\n" text into it.

export type LineEnding = '\n' | '\r\n';

/** The ending most lines use (CRLF wins ties; a file without line breaks counts as LF). */
export function dominantLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > 0 && crlf >= lf ? '\r\n' : '\n';
}

/** Every line break in `text` (LF or CRLF) written as `ending`. */
export function withLineEnding(text: string, ending: LineEnding): string {
  return text.replace(/\r?\n/g, ending);
}
