// The chat's notice lines for a planned turn (pure): the plan when it is made, and each step that did not succeed.
// The steps themselves tick off in the todo list ("What the model knows"); a step that went well needs no line.
import type { PlanEvent, StepStatus } from '../../core/agent/events';
import type { PlanRun } from '../../persistence/planRuns';

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

/** A stored run as the History shows it where it happened: each step with how it went, and how the run ended. */
export function storedRunNotice(run: {
  steps: ReadonlyArray<{ id: string; goal: string }>;
  records: ReadonlyArray<{ stepId: string; status: StepStatus; summary: string }>;
  state: 'running' | 'completed' | 'stopped' | 'fell_back';
  fallbackReason?: string | undefined;
}): string {
  const n = run.steps.length;
  const list = run.steps
    .map((s, i) => {
      const record = run.records.find((r) => r.stepId === s.id);
      const how = !record ? 'not run' : record.status === 'ok' ? 'done' : record.status === 'skipped' ? 'skipped' : `failed${record.summary ? `: ${sentence(record.summary)}` : ''}`;
      return `${i + 1}. ${sentence(s.goal)} (${how})`;
    })
    .join('; ');
  const finished = run.records.length;
  const ending =
    run.state === 'completed'
      ? 'The planner wrote the answer.'
      : run.state === 'fell_back'
        ? `The single-model loop took over${run.fallbackReason ? `: ${sentence(run.fallbackReason)}` : ''}.`
        : `Stopped after ${finished} of ${n} step${n === 1 ? '' : 's'}${run.state === 'running' ? ' (the window closed)' : ''}.`;
  return `Planned ${n} step${n === 1 ? '' : 's'}: ${list}. ${ending}`;
}

/** The offer under a session whose planned run can continue. */
export function resumeRunText(run: { steps: ReadonlyArray<{ id: string }>; records: ReadonlyArray<{ stepId: string }> }): string {
  const next = run.steps.findIndex((s) => !run.records.some((r) => r.stepId === s.id)) + 1;
  return `This session's planned run stopped before it finished. Resume continues it at step ${next} of ${run.steps.length}; the steps already done are not run again.`;
}

/** Each stored planned run as a notice right after its request (or at the end, if the request was never stored). */
export function planRunNotes(runs: readonly PlanRun[], messages: number): Map<number, string> {
  const notes = new Map<number, string>();
  for (const run of runs) {
    const at = Math.min(run.messageIndex + 1, messages);
    notes.set(at, notes.has(at) ? `${notes.get(at)}\n\n${storedRunNotice(run)}` : storedRunNotice(run));
  }
  return notes;
}
