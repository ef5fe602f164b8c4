// Keeps large tool results within budget: head and tail survive, the cut is described.

export interface TruncateOptions {
  maxChars: number;
  /** Advice on how to read what was cut, e.g. "use read_file with start_line/end_line". */
  hint?: string;
}

export function truncateMiddle(text: string, { maxChars, hint }: TruncateOptions): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars - 200);
  const headLen = Math.ceil(keep * 0.6);
  const tailLen = keep - headLen;
  const head = text.slice(0, headLen);
  const tail = tailLen > 0 ? text.slice(text.length - tailLen) : '';
  const removed = text.length - head.length - tail.length;
  const removedLines = countLines(text.slice(head.length, text.length - tail.length));
  const note = `\n[… ${removed} characters (${removedLines} lines) removed from the middle of this result.${hint ? ' ' + hint : ''}]\n`;
  return head + note + tail;
}

function countLines(s: string): number {
  let n = 1;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}
