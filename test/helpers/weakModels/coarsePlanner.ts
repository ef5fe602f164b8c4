// A planner that plans coarsely, as real planners do, for the 12-note rename task: "List the note files", "Read
// each note-*.txt and rename it after its kind" (all files in one step), optionally "Confirm that every note is
// renamed". Its answer (the synthesis request) is counted from what it was shown: the notes in the listing against
// the moves reported. When some are left it says so its own way: `NOT DONE: …` (as the prompt asks) or tool
// markup, as the weak planner of issue 20 did. A pure function of the request.
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { FILE_TASK } from '../tasks/fileTask';
import { isPlanRequest, isSynthesisRequest } from './plannerModel';
import { readRequest } from './requestView';

export interface CoarsePlannerOptions {
  /** A third step that lists the folder again to confirm (default true). */
  confirmStep?: boolean;
  /** How the answer says that work is left (default 'not-done'). */
  whenLeft?: 'not-done' | 'markup';
  /** Answer with tool markup whatever the results say. */
  alwaysMarkup?: boolean;
}

export const MARKUP = '<tool>{"server_name":"local","tool_name":"list_directory","arguments":{"path":"."}}</tool>';

export function coarsePlannerModel(options: CoarsePlannerOptions = {}): (request: ChatBody) => ScriptedReply {
  return (request) => {
    const user = readRequest(request).messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    if (isPlanRequest(request)) {
      if (!squash(user).includes(squash(FILE_TASK))) return { text: '{"steps": [{"id": "1", "goal": "Answer the question", "tool_hint": "none"}], "done_when": ""}' };
      const steps = [
        { id: '1', goal: 'List the note-*.txt files in the workspace', tool_hint: 'list_directory' },
        { id: '2', goal: 'Read each note-*.txt file and rename it after the kind of document it says it is', tool_hint: 'move_file', depends_on: ['1'] },
        ...(options.confirmStep === false ? [] : [{ id: '3', goal: 'Confirm that every note is renamed', tool_hint: 'list_directory', depends_on: ['2'] }]),
      ];
      return { text: JSON.stringify({ steps, done_when: 'no note-*.txt file is left' }) };
    }
    if (!isSynthesisRequest(request)) return { text: 'I only plan and answer.' };
    if (options.alwaysMarkup) return { text: MARKUP };
    const listed = new Set([...user.matchAll(/\[file\] note-(\d\d)\.txt/g)].map((m) => m[1]));
    const moved = new Set([...user.matchAll(/Moved note-(\d\d)\.txt to/g)].map((m) => m[1]));
    const left = [...listed].filter((n) => !moved.has(n)).sort();
    if (left.length === 0) return { text: `Renamed all ${moved.size} notes after their kind.` };
    if (options.whenLeft === 'markup') return { text: `Let me check the folder.\n${MARKUP}` };
    return { text: `NOT DONE: ${left.length} notes are not renamed yet (${left.map((n) => `note-${n}.txt`).join(', ')}).` };
  };
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
