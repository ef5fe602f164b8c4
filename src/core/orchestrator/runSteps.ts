// The plan's steps, one after another, on the executor. A step that fails is tried once more from where it stopped
// (its thread, with the reason said); a second failure, a step answered without a tool, or an unreachable executor
// hands the turn to the single-model loop. The turn's round budget running out ends the turn plainly.
import type { TurnOutcome } from '../agent/turnRunner';
import { errorMessage } from '../../shared/format';
import type { EventBus } from '../agent/events';
import type { ContextTracker, Todo } from '../workingContext/tracker';
import type { ChatMessage } from '../messages';
import { ProviderError } from '../provider';
import { executeStep, stepPrompt, type StepAttempt, type StepEnv } from './execute';
import type { Plan, StepRecord } from './planRequest';
import { closeUnansweredCalls, stepExchange } from './stepHistory';
import { threadFrom } from './stepThread';

/** What the step loop needs of the turn around it. */
export interface RunControl {
  bus: EventBus;
  tracker: ContextTracker;
  history: ChatMessage[];
  request: string;
  executor: { model: string; url: string };
  records: StepRecord[];
  /** Steps the user said no to: their work is not handed on behind the user's back. */
  denied: Set<string>;
  /** The request is in history (a resumed run's, or once a step wrote anything). */
  requestStored(): boolean;
  cancelled(): Promise<TurnOutcome>;
  fallback(reason: string): Promise<TurnOutcome>;
  end(outcome: TurnOutcome): TurnOutcome;
  rounds(): number;
}

export interface SavedRecord {
  stepId: string;
  status: StepRecord['status'];
  summary: string;
  result: string;
}

/** Runs every unfinished step; undefined when all went through (the answer is next), else how the turn ended. */
export async function runSteps(control: RunControl, plan: Plan, env: StepEnv, saved: readonly SavedRecord[] | undefined, signal: AbortSignal): Promise<TurnOutcome | undefined> {
  const { bus, tracker, records } = control;
  const earlier = new Map((saved ?? []).map((r) => [r.stepId, r]));
  const todos: Todo[] = plan.steps.map((s) => ({ text: s.goal, status: earlier.get(s.id)?.status === 'ok' ? 'done' : 'pending' }));
  const setStatus = (i: number, status: Todo['status']) => {
    todos[i] = { ...todos[i]!, status };
    tracker.setTodos(todos);
  };
  tracker.setTodos(todos);
  const done = new Map<string, StepRecord>();
  const finish = (record: StepRecord) => {
    records.push(record);
    done.set(record.step.id, record);
    bus.emit({ type: 'step_end', stepId: record.step.id, status: record.status, ...(record.summary && { summary: record.summary }), ...(record.result && { result: record.result }) });
  };
  for (const step of plan.steps) {
    const record = earlier.get(step.id);
    if (!record) continue;
    const restored: StepRecord = { step, status: record.status, summary: record.summary, result: record.result };
    records.push(restored);
    done.set(step.id, restored);
  }
  const resumed = saved !== undefined && control.requestStored();
  if (resumed) await closeUnansweredCalls(control.history, env.append);

  for (const [index, step] of plan.steps.entries()) {
    if (done.has(step.id)) continue;
    if (signal.aborted) return control.cancelled();
    const blocked = step.dependsOn.map((id) => done.get(id)).find((r) => r && r.status !== 'ok');
    bus.emit({ type: 'step_start', stepId: step.id, goal: step.goal, index, total: plan.steps.length });
    if (blocked) {
      finish({ step, status: 'skipped', summary: `skipped: step ${blocked.step.id} did not succeed`, result: '' });
      continue;
    }
    setStatus(index, 'in_progress');
    const input = { step, index, plan, done };
    // A step the reload cut off halfway: the executor sees its own calls and results instead of starting over.
    const cutOff = resumed ? stepExchange(control.history, control.request, index, plan.steps.length) : undefined;
    let attempt: StepAttempt;
    try {
      attempt = await executeStep({ ...input, ...(cutOff && { thread: threadFrom(stepPrompt(input, env.hotContext()), cutOff) }) }, env, signal);
      if (attempt.kind === 'failed') attempt = await executeStep({ ...input, thread: attempt.thread, nudge: retryNudge(attempt.reason) }, env, signal);
    } catch (err) {
      if (signal.aborted || isAbort(err)) {
        finish({ step, status: 'failed', summary: 'cancelled', result: '' });
        return control.cancelled();
      }
      finish({ step, status: 'failed', summary: errorMessage(err), result: '' });
      if (err instanceof ProviderError) return control.fallback(`the executor (${control.executor.model} at ${control.executor.url}) failed on step ${index + 1}: ${err.message}`);
      throw err;
    }
    switch (attempt.kind) {
      case 'ok':
        finish({ step, status: 'ok', summary: attempt.summary, result: attempt.result });
        setStatus(index, 'done');
        break;
      case 'denied':
        // The user's no is an answer: the step failed, the plan goes on, nothing is retried behind their back.
        control.denied.add(step.id);
        finish({ step, status: 'failed', summary: attempt.summary, result: '' });
        setStatus(index, 'pending');
        break;
      case 'cancelled':
        finish({ step, status: 'failed', summary: 'cancelled', result: '' });
        return control.cancelled();
      case 'no_tool':
        finish({ step, status: 'failed', summary: 'the executor answered without calling a tool', result: '' });
        return control.fallback(`the executor (${control.executor.model}) answered step ${index + 1} without calling a tool${attempt.text ? ` ("${attempt.text.slice(0, 80)}")` : ''}`);
      case 'failed':
        finish({ step, status: 'failed', summary: attempt.reason, result: '' });
        return control.fallback(`step ${index + 1} ("${step.goal.slice(0, 80)}") failed twice: ${attempt.reason}`);
      case 'out_of_rounds': {
        const message = `Stopped after ${env.budget.used} executor rounds without finishing step ${index + 1} of ${plan.steps.length} ("${step.goal.slice(0, 80)}"). The steps before it are done; Resume continues here, or give a narrower task.`;
        // No step_end: the step is not finished, so a Resume runs it on from its calls so far.
        setStatus(index, 'pending');
        bus.emit({ type: 'error', message });
        return control.end({ reason: 'max_rounds', error: message, rounds: control.rounds() });
      }
    }
  }
  return undefined;
}

function retryNudge(reason: string): string {
  return `That attempt did not finish the step (${reason}). Try again: check the results above, fix what went wrong, and do what is left of the step.`;
}

export function isAbort(err: unknown): boolean {
  return err instanceof ProviderError && err.kind === 'aborted';
}
