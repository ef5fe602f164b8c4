// An editor selection as the 1-based inclusive line range the hot context names. Pure (unit-tested).
import type { LineRange } from '../core/workingContext/tracker';

export interface Pos {
  /** 0-based, as vscode.Position. */
  line: number;
  character: number;
}

/** undefined for an empty selection (just a cursor). A selection ending at column 0 does not include that line. */
export function selectionLines(start: Pos, end: Pos): LineRange | undefined {
  if (start.line === end.line && start.character === end.character) return undefined;
  const [a, b] = start.line < end.line || (start.line === end.line && start.character <= end.character) ? [start, end] : [end, start];
  const lastLine = b.character === 0 && b.line > a.line ? b.line - 1 : b.line;
  return { start: a.line + 1, end: lastLine + 1 };
}
