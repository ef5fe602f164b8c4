// The short requests the code-to-chat commands send, and the lines of code a quick fix attaches. Pure (unit-tested).

export const EXPLAIN_PROMPT = 'Explain this code.';
export const FIX_PROMPT = 'Fix the problems in this code.';
export const WRITE_TESTS_PROMPT = 'Write tests for this code.';

/** A diagnostic as a language server reported it, positions 1-based. */
export interface ProblemInfo {
  message: string;
  source?: string | undefined;
  code?: string | number | undefined;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** "Fix this problem reported by ts (2322) at line 3, column 7 of src/a.ts: Type 'string' is not assignable…". */
export function fixProblemPrompt(problem: ProblemInfo, path: string): string {
  const by = problem.source ? ` reported by ${problem.source}${problem.code !== undefined && problem.code !== '' ? ` (${problem.code})` : ''}` : problem.code !== undefined && problem.code !== '' ? ` (${problem.code})` : '';
  const where = problem.endLine > problem.line ? `lines ${problem.line}-${problem.endLine}` : `line ${problem.line}, column ${problem.column}`;
  return `Fix this problem${by} at ${where} of ${path}: ${problem.message.trim()}`;
}

/** "Fix the problems in this code." and, when language servers reported some there, the list. */
export function fixCodePrompt(problems: readonly ProblemInfo[], max = 10): string {
  if (problems.length === 0) return FIX_PROMPT;
  const lines = problems.slice(0, max).map((p) => `- line ${p.line}: ${firstLine(p.message)}${p.source ? ` (${p.source}${p.code !== undefined && p.code !== '' ? ` ${p.code}` : ''})` : ''}`);
  if (problems.length > max) lines.push(`- … and ${problems.length - max} more`);
  return `${FIX_PROMPT}\nProblems reported in it:\n${lines.join('\n')}`;
}

/** Lines to attach for a problem: its own lines and a few around them, within the file. 1-based inclusive. */
export function linesAround(startLine: number, endLine: number, lineCount: number, context = 5): { start: number; end: number } {
  const last = Math.max(1, lineCount);
  return { start: Math.max(1, Math.min(startLine, last) - context), end: Math.min(last, Math.max(endLine, startLine) + context) };
}

/** A diagnostic code as the server gave it: a string, a number, or `{ value, target }`. */
export function codeValue(code: unknown): string | number | undefined {
  if (typeof code === 'string' || typeof code === 'number') return code;
  if (code && typeof code === 'object' && 'value' in code) {
    const value = (code as { value: unknown }).value;
    if (typeof value === 'string' || typeof value === 'number') return value;
  }
  return undefined;
}

/** Title of a quick fix: the bare action for one problem, the problem's words when several are offered. */
export function fixActionTitle(message: string, several: boolean): string {
  if (!several) return FIX_ACTION_TITLE;
  const text = firstLine(message);
  return `${FIX_ACTION_TITLE}: ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
}

export const FIX_ACTION_TITLE = 'Fix with Local Harness';
export const EXPLAIN_ACTION_TITLE = 'Explain with Local Harness';

/** Said when a verb is used while a turn runs: the code waits as a chip, the request in the message box. */
export const BUSY_NOTE = 'Local Harness is still answering. The code is attached and the request is in the message box: send it when the turn ends.';

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}
