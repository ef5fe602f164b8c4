// The header task for the planner/executor tests: N small files each get one line added at the top. A repeated
// edit shows on disk (two header lines), so "nothing was done twice" is checked by reading the files. Also the
// single-model agent for this task (what the ordinary loop runs, and what a fallback continues with): a pure
// function of the request that reads each file, edits it, and finishes when every file it can see is done.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { baseName, looksFailed, readRequest, type RequestView } from './requestView';

export const HEADER = 'Reviewed: yes';

export function docName(n: number): string {
  return `doc-${String(n).padStart(2, '0')}.txt`;
}

export function headerTaskText(count: number): string {
  const files = Array.from({ length: count }, (_, i) => docName(i + 1));
  return `Add the line "${HEADER}" at the top of each of these files: ${files.join(', ')}.`;
}

/** A temp workspace with doc-01.txt … doc-NN.txt, each "Title NN" and a body line. */
export function headerWorkspace(count: number): { ws: string; files: string[] } {
  const ws = mkdtempSync(path.join(tmpdir(), 'lh-orch-'));
  const files = Array.from({ length: count }, (_, i) => docName(i + 1));
  files.forEach((f, i) => writeFileSync(path.join(ws, f), `Title ${i + 1}\nbody of document ${i + 1}\n`));
  return { ws, files };
}

/** How many header lines each file has now (1 each when the task was done once, 0 when not done). */
export function headerCounts(ws: string, files: readonly string[]): number[] {
  return files.map((f) => readFileSync(path.join(ws, f), 'utf8').split('\n').filter((l) => l === HEADER).length);
}

/** The task as a message states it: the header line and the files named. */
export function taskIn(text: string): { header: string; files: string[] } | undefined {
  const header = /Add the line "([^"]+)"/.exec(text)?.[1];
  if (!header) return undefined;
  return { header, files: [...new Set(text.match(/doc-\d+\.txt/g) ?? [])] };
}

/** What the visible history shows of one file: edited (an edit result that worked), and its first line as last read. */
export function fileProgress(view: RequestView, file: string, from = 0): { edited: boolean; editFailed: number; firstLine?: string } {
  let edited = false;
  let editFailed = 0;
  let firstLine: string | undefined;
  for (const r of view.results) {
    if (r.index < from || !r.call || baseName(r.call.args.path) !== file) continue;
    if (r.call.name === 'edit_file') {
      if (looksFailed(r.content)) editFailed++;
      else edited = true;
    }
    if (r.call.name === 'read_file' && !looksFailed(r.content)) firstLine = r.content.split('\n')[1];
  }
  return { edited, editFailed, ...(firstLine !== undefined && { firstLine }) };
}

export function call(name: string, args: Record<string, unknown>): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] };
}

/** Read, then edit: add the header above the first line it read. */
export function nextEdit(view: RequestView, file: string, header: string, from = 0): ScriptedReply | 'done' {
  const p = fileProgress(view, file, from);
  if (p.edited || p.firstLine === header) return 'done';
  if (p.firstLine === undefined) return call('read_file', { path: file });
  return call('edit_file', { path: file, old_text: p.firstLine, new_text: `${header}\n${p.firstLine}` });
}

/** The ordinary loop's model for the task: the task from any user message that states it, progress from history. */
export function singleModelReply(request: ChatBody): ScriptedReply {
  const view = readRequest(request);
  const stated = [...view.messages].reverse().find((m) => m.role === 'user' && taskIn(m.content));
  const task = stated && taskIn(stated.content);
  if (!task) return { text: 'What would you like me to do?' };
  for (const file of task.files) {
    const next = nextEdit(view, file, task.header);
    if (next !== 'done') return next;
  }
  const result = `All ${task.files.length} files now start with "${task.header}".`;
  // Told to finish with task_completion (the normal loop offers it), it does.
  return view.tools.some((t) => t.name === 'task_completion') ? call('task_completion', { result }) : { text: result };
}
