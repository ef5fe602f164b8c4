// The chat's notice lines for a planned turn (pure): the plan when it is made, and each step that did not succeed.
// The steps themselves tick off in the todo list ("What the model knows"); a step that went well needs no line.
import type { PlanEvent, StepStatus } from '../../core/agent/events';

const GOAL_CHARS = 160;

/** "Planned 3 steps: 1. Read a.ts; 2. Edit a.ts; 3. Run the tests. Done when the tests pass." */
export function planNotice(plan: Pick<PlanEvent, 'steps' | 'doneWhen'>): string {
  const n = plan.steps.length;
  const list = plan.steps.map((s, i) => `${i + 1}. ${sentence(s.goal)}`).join('; ');
  const done = sentence(plan.doneWhen);
  return `Planned ${n} step${n === 1 ? '' : 's'}: ${list}.${done ? ` Done when ${done}.` : ''}`;
}

/** A line for a failed or skipped step; undefined for one that went well. */
export function stepNotice(step: { stepId: string; status: StepStatus; summary?: string }): string | undefined {
  if (step.status === 'ok') return undefined;
  // The core's summary of a skipped step starts with "skipped:" itself.
  const why = sentence((step.summary ?? '').replace(/^(skipped|failed)\s*:\s*/i, ''));
  return `Step ${step.stepId} ${step.status === 'failed' ? 'failed' : 'was skipped'}${why ? `: ${why}` : ''}.`;
}

/** One line, without its closing full stop (the notice adds its own), clipped. */
function sentence(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  return line.length <= GOAL_CHARS ? line : `${line.slice(0, GOAL_CHARS - 1)}…`;
}
