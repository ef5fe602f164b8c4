// The executor model of the coarse-plan tests: a small tool-calling model that sees one step's prompt ("Step i of
// n: <goal>", the results it depends on) and its own exchange, nothing else, and does what the goal's verb says on
// the 12-note rename task (test/helpers/tasks/fileTask.ts). A pure function of the request:
//   "List …"      list the folder, then say how many notes it saw.
//   "… rename …"  every note it can see that is not renamed yet: read it, move it to <kind>-NN.txt; then say so.
//   "Confirm …"   list the folder; leftovers → "Still to rename: …"; told the step is not done → rename them.
// Weak variants: `tiredAfter` (fatigue: after that many renames since the last user message it stops with "There
// are N remaining; I will continue with them next."), `quitsAfter` (after that many renames in all it claims the
// step is done and says nothing of the rest).
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { pad, readRenameState, type RenameState } from './renameState';
import { FailureLog } from './renameTaskModel';
import { readRequest, type RequestView } from './requestView';

export interface RenameExecutorOptions {
  tiredAfter?: number;
  quitsAfter?: number;
}

export const STEP_HEAD = /^Step \d+ of \d+: /;

export function renameExecutorModel(options: RenameExecutorOptions = {}): ((request: ChatBody) => ScriptedReply) & { failures: string[] } {
  const log = new FailureLog();
  const fn = (request: ChatBody): ScriptedReply => {
    const view = readRequest(request);
    const at = view.messages.findIndex((m) => m.role === 'user' && STEP_HEAD.test(m.content));
    if (at < 0) return { text: 'I only carry out plan steps.' };
    const goal = view.messages[at]!.content.split('\n', 1)[0]!;
    const state = readRenameState(view);
    log.fromState(state);
    const lastUser = lastIndexOf(view, 'user');
    if (/\bconfirm|\bcheck|\bverify/i.test(goal)) {
      const listing = newestListingAfter(view, lastUser);
      if (listing === undefined) return call('list_directory', { path: '.' });
      const left = [...listing].filter((n) => !state.done.has(n));
      if (left.length === 0) return { text: 'All notes are renamed.' };
      const toldNotDone = lastUser > at && /not done/i.test(view.messages[lastUser]!.content);
      if (!toldNotDone) return { text: `Still to rename: ${left.map((n) => `note-${pad(n)}.txt`).join(', ')}.` };
      return renameNext(state, view, lastUser, options, left);
    }
    if (/\brename\b/i.test(goal)) return renameNext(state, view, lastUser, options);
    if (/\blist\b/i.test(goal)) {
      const listing = newestListingAfter(view, at);
      return listing === undefined ? call('list_directory', { path: '.' }) : { text: `Listed ${listing.size} notes.` };
    }
    return { text: 'The step names nothing I can do.' };
  };
  return Object.assign(fn, { failures: log.failures });
}

function renameNext(state: RenameState, view: RequestView, lastUser: number, options: RenameExecutorOptions, only?: number[]): ScriptedReply {
  if (state.notes.length === 0) return call('list_directory', { path: '.' });
  const todo = (only ?? state.notes).filter((n) => !state.done.has(n));
  if (options.quitsAfter !== undefined && state.done.size >= options.quitsAfter) return { text: 'Renamed the notes after their kind.' };
  const movedSince = view.results.filter((r) => r.index > lastUser && r.call?.name === 'move_file' && !/error/i.test(r.content)).length;
  if (options.tiredAfter !== undefined && movedSince >= options.tiredAfter && todo.length > 0) {
    return { text: `I've renamed ${movedSince} notes. There are ${todo.length} remaining; I will continue with them next.` };
  }
  const next = todo[0];
  if (next === undefined) return { text: `Renamed ${state.done.size} notes after their kind.` };
  const kind = state.kinds.get(next);
  if (!kind) return call('read_file', { path: `note-${pad(next)}.txt` });
  return call('move_file', { source: `note-${pad(next)}.txt`, destination: `${kind}-${pad(next)}.txt` });
}

/** Note numbers in the newest listing the model made after message `from`, if any. */
function newestListingAfter(view: RequestView, from: number): Set<number> | undefined {
  const listing = [...view.results].reverse().find((r) => r.index > from && r.call?.name === 'list_directory');
  if (!listing) return undefined;
  return new Set([...listing.content.matchAll(/note-(\d\d)\.txt/g)].map((m) => Number(m[1])));
}

function lastIndexOf(view: RequestView, role: string): number {
  for (let i = view.messages.length - 1; i >= 0; i--) if (view.messages[i]!.role === role) return i;
  return -1;
}

function call(name: string, args: Record<string, unknown>): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] };
}
