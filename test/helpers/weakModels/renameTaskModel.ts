// The 12-note rename task's model (see test/helpers/tasks/fileTask.ts for the task): a pure
// function of each request. It lists the folder, reads each note it knows of that is not done yet, renames
// it after the kind it read, and calls task_completion when every note it can see is done. It forgets the
// task when the task is no longer in the request, and believes (or not) a listing that was cut.
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { pad, readRenameRequest, type Kind, type RenameState } from './renameState';

export interface RenameModelOptions {
  /**
   * true: a listing that ends with "…" or says "more"/"truncated" is taken as complete, so the model renames
   * only what it saw and then reports done (this is the model that exposes a trimming fallback).
   * false: when it has nothing left to do and the listing in front of it looks cut, it lists again.
   */
  trustsTrimmed: boolean;
}

export type RenameAction =
  | { kind: 'forgot' }
  | { kind: 'list' }
  | { kind: 'read'; note: number }
  | { kind: 'move'; note: number; to: Kind }
  | { kind: 'complete'; done: number[] };

export type ModelFn = ((request: ChatBody, index?: number) => ScriptedReply) & {
  /** What went wrong as the model saw it: work done twice, a failed move, a forgotten task. */
  readonly failures: string[];
};

export const FORGOT_TEXT = 'What would you like me to do?';

/** The next step, decided from the state alone. */
export function nextRenameAction(state: RenameState, trustsTrimmed: boolean): RenameAction {
  if (!state.taskVisible) return { kind: 'forgot' };
  const notDone = state.notes.filter((n) => !state.done.has(n));
  if (state.notes.length === 0 || (!state.listing && notDone.length === 0)) return { kind: 'list' };
  const next = notDone[0];
  if (next === undefined) {
    if (!trustsTrimmed && state.listing?.looksCut) return { kind: 'list' };
    return { kind: 'complete', done: [...state.done].sort((a, b) => a - b) };
  }
  if (state.readFailed.has(next)) return { kind: 'list' }; // "does not exist. Check the path with list_directory"
  const kind = state.kinds.get(next);
  return kind ? { kind: 'move', note: next, to: kind } : { kind: 'read', note: next };
}

/** Records what the request shows went wrong; keys dedupe evidence that stays visible for many requests. */
export class FailureLog {
  readonly failures: string[] = [];
  private readonly seen = new Set<string>();

  once(message: string): void {
    if (this.seen.has(message)) return;
    this.seen.add(message);
    this.failures.push(message);
  }

  always(message: string): void {
    this.failures.push(message);
  }

  fromState(state: RenameState): void {
    for (const e of state.moveErrors) this.once(e);
    for (const e of state.movedTwice) this.once(e);
  }
}

export function renameTaskModel(options: RenameModelOptions): ModelFn {
  const log = new FailureLog();
  const fn = (request: ChatBody): ScriptedReply => {
    const state = readRenameRequest(request);
    log.fromState(state);
    const action = nextRenameAction(state, options.trustsTrimmed);
    switch (action.kind) {
      case 'forgot':
        log.always(`forgot the task: it is in no user message and not in the session summary (${state.view.messages.length} messages sent)`);
        return { text: FORGOT_TEXT };
      case 'list':
        return call('list_directory', { path: '.' });
      case 'read':
        return call('read_file', { path: `note-${pad(action.note)}.txt` });
      case 'move':
        return call('move_file', { source: `note-${pad(action.note)}.txt`, destination: `${action.to}-${pad(action.note)}.txt` });
      case 'complete':
        return call('task_completion', { result: `Renamed ${action.done.length} notes after their kind.` });
    }
  };
  return Object.assign(fn, { failures: log.failures });
}

function call(name: string, args: Record<string, unknown>): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] };
}
