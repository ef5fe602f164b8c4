// A weak reader for the compression-by-summaries tests: asked to list the functions of some files, it reads each
// file it cannot see in the request, one per reply, in the order the user named them, then answers with what it
// saw. A pure function of the request: a file counts as read when a result for it is in front of it — whole, a
// digest or an index summary (their outlines name the functions too) — or when the session summary mentions it.
// A file whose read left the request without a trace is read again (it forgot); the test sees that as a re-read.
// Clumsy like a small model: its very first call passes start_line as a string.
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { FailureLog, type ModelFn } from './renameTaskModel';
import { looksFailed, readRequest, type RequestView } from './requestView';

const TASK = /List the functions each of these files defines, reading them one by one: (.+?)\.?$/m;

export function readerTask(files: readonly string[]): string {
  return `List the functions each of these files defines, reading them one by one: ${files.join(', ')}.`;
}

/** The answer the reader gives once it has seen every file: "a.ts: f, g; b.ts: h". */
export function readerAnswer(found: ReadonlyArray<readonly [string, readonly string[]]>): string {
  return found.map(([file, names]) => `${file}: ${names.length ? names.join(', ') : '(none seen)'}`).join('; ');
}

export function readerModel(): ModelFn {
  const log = new FailureLog();
  const fn = (request: ChatBody): ScriptedReply => {
    const view = readRequest(request);
    const task = latestTask(view);
    if (!task) {
      log.always(`no task in the request (${view.messages.length} messages sent)`);
      return { text: 'Which files should I read?' };
    }
    const seen = functionsSeen(view, task);
    const next = task.find((f) => !seen.has(f));
    if (next) {
      const first = view.results.length === 0;
      return { toolCalls: [{ name: 'read_file', arguments: first ? { path: next, start_line: '1' } : { path: next } }] };
    }
    const answer = readerAnswer(task.map((f) => [f, [...seen.get(f)!]] as const));
    if (view.tools.some((t) => t.name === 'task_completion')) return { toolCalls: [{ name: 'task_completion', arguments: { result: answer } }] };
    return { text: answer };
  };
  return Object.assign(fn, { failures: log.failures });
}

function latestTask(view: RequestView): string[] | undefined {
  for (let i = view.messages.length - 1; i >= 0; i--) {
    const m = view.messages[i]!;
    const found = m.role === 'user' ? TASK.exec(m.content) : null;
    if (found) return found[1]!.split(',').map((f) => f.trim()).filter(Boolean);
  }
  return undefined;
}

/** Per task file, the function names the request shows for it (results first, then the session summary). */
function functionsSeen(view: RequestView, files: readonly string[]): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  const add = (file: string, text: string) => {
    const names = seen.get(file) ?? new Set<string>();
    for (const name of functionNames(text)) names.add(name);
    seen.set(file, names);
  };
  for (const r of view.results) {
    if (looksFailed(r.content)) continue;
    const file = resultFile(r.call?.args.path, r.content);
    if (file && files.includes(file)) add(file, r.content);
  }
  // The session summary has a line per evicted result: "read_file src/a.ts: …".
  for (const line of view.summary.split('\n')) {
    const file = /\bread_file (\S+?):/.exec(line)?.[1];
    if (file && files.includes(normalise(file))) add(normalise(file), line);
  }
  return seen;
}

function resultFile(argPath: unknown, content: string): string | undefined {
  if (typeof argPath === 'string' && argPath.trim()) return normalise(argPath);
  // Without its call (Ollama pairs by order): the result's own header names the file.
  const header = /^(?:\[Compressed\] read_file )?(\S+?)(?: \(| lines )/.exec(content);
  return header ? normalise(header[1]!) : undefined;
}

function normalise(p: string): string {
  return p.replace(/^\.\//, '');
}

/** `function name(` in a body or a digest's outline, and `lines a-b name` in an index summary's outline. */
function functionNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/\bfunction\s+([A-Za-z_$][\w$]*)|\blines \d+-\d+ ([A-Za-z_$][\w$]*)/g)) names.push((m[1] ?? m[2])!);
  return names;
}
