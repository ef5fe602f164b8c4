// The planner model of the planner/executor tests: a capable, slow model that answers three kinds of request,
// told apart only by what it was sent. A plan request (the planner prompt) gets a plan of one step per file
// named in the request; a synthesis request gets a summary counted from the steps it was shown; anything else
// (the single-model loop, after a fallback) is the ordinary agent for the header task.
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { readRequest } from './requestView';
import { HEADER, singleModelReply, taskIn } from './headerTask';

export type PlanBehaviour =
  /** A clean JSON plan. */
  | 'good'
  /** The plan as weak models write it: in a ```json fence with prose, numeric ids, camelCase keys, a single depends_on, extra fields. */
  | 'clumsy'
  /** Never a usable plan: prose first, then (told what was wrong) an empty step list. */
  | 'invalid';

export interface PlannerModelOptions {
  plan: PlanBehaviour;
}

export const PLANNER_PROMPT_MARK = 'You are the planner';
export const SYNTHESIS_PROMPT_MARK = 'The work below was already done';

export function isPlanRequest(request: ChatBody): boolean {
  return readRequest(request).messages.some((m) => m.role === 'system' && m.content.includes(PLANNER_PROMPT_MARK));
}

export function isSynthesisRequest(request: ChatBody): boolean {
  return readRequest(request).messages.some((m) => m.role === 'system' && m.content.includes(SYNTHESIS_PROMPT_MARK));
}

export function plannerModel(options: PlannerModelOptions): (request: ChatBody) => ScriptedReply {
  return (request) => {
    if (isPlanRequest(request)) return planReply(request, options.plan);
    if (isSynthesisRequest(request)) return synthesisReply(request);
    return singleModelReply(request);
  };
}

function planReply(request: ChatBody, behaviour: PlanBehaviour): ScriptedReply {
  const view = readRequest(request);
  const user = view.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  if (behaviour === 'invalid') {
    const toldOff = user.includes('could not be used');
    return { text: toldOff ? '{"steps": [], "done_when": "never"}' : 'Sure! First I will look at the files, then I will add the header to each of them.' };
  }
  const task = taskIn(user.slice(user.lastIndexOf('Request:') >= 0 ? user.lastIndexOf('Request:') : 0));
  const files = task?.files ?? [];
  const header = task?.header ?? HEADER;
  const goal = (f: string) => `Add the line "${header}" at the top of ${f}.`;
  if (behaviour === 'good') {
    const plan = { steps: files.map((f, i) => ({ id: String(i + 1), goal: goal(f), tool_hint: 'edit_file' })), done_when: `every file starts with "${header}"` };
    return { text: JSON.stringify(plan) };
  }
  const steps = files.map((f, i) => ({ id: i + 1, goal: goal(f), toolHint: 'edit_file', depends_on: i === 0 ? null : i, why: 'so it is marked reviewed' }));
  return { text: `Here is the plan:\n\`\`\`json\n${JSON.stringify({ steps, doneWhen: `all ${files.length} files have the header` }, null, 1)}\n\`\`\`` };
}

function synthesisReply(request: ChatBody): ScriptedReply {
  const user = readRequest(request).messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  const steps = user.split('\n').filter((l) => /^\d+\. /.test(l));
  const ok = steps.filter((l) => / — ok\b/.test(l)).length;
  const failed = steps.length - ok;
  return { text: `Added the header to ${ok} of ${steps.length} files${failed ? `; ${failed} did not succeed` : ''}.` };
}
