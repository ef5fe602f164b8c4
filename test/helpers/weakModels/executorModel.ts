// The executor model of the planner/executor tests: a small, fast tool-calling model that sees one step's prompt
// ("Step i of n: <goal>") and its own exchange for that step, nothing else. It reads the file, edits it, and says
// it is done. Weak variants: it deflects on one file (text, no tool), or edits one file blind with a wrong old_text
// every time (the step fails twice). Asked anything that is not a step, it says so (and the test sees it).
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { readRequest } from './requestView';
import { HEADER, nextEdit, taskIn } from './headerTask';

export interface ExecutorModelOptions {
  /** On the step for this file: "I'm sorry, but I can't access files on your computer." */
  deflectOn?: string;
  /** On the step for this file: edit_file without reading, with an old_text the file does not have, every time. */
  breakOn?: string;
}

export const DEFLECTION = "I'm sorry, but I can't access files on your computer.";
export const NOT_A_STEP = 'I only carry out plan steps.';

export function executorModel(options: ExecutorModelOptions = {}): (request: ChatBody) => ScriptedReply {
  return (request) => {
    const view = readRequest(request);
    const at = view.messages.findIndex((m) => m.role === 'user' && /^Step \d+ of \d+: /.test(m.content));
    if (at < 0) return { text: NOT_A_STEP };
    const goal = view.messages[at]!.content.split('\n', 1)[0]!;
    const file = goal.match(/doc-\d+\.txt/)?.[0];
    const header = taskIn(goal)?.header ?? HEADER;
    if (!file) return { text: 'The step names no file.' };
    if (file === options.deflectOn) return { text: DEFLECTION };
    if (file === options.breakOn) return { toolCalls: [{ name: 'edit_file', arguments: { path: file, old_text: 'Heading', new_text: `${header}\nHeading` } }] };
    const next = nextEdit(view, file, header, at);
    return next === 'done' ? { text: `Added "${header}" at the top of ${file}.` } : next;
  };
}
