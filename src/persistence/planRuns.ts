// Planned runs (src/core/orchestrator) as the session stores them: the plan, each finished step's record, and
// how the run ended. The recorder writes them from events into the kv table (one JSON list per session), the
// History shows them where they happened, and a run cut off by a reload or a Stop continues from them.
import { z } from 'zod';
import type { AgentEvent } from '../core/agent/events';
import type { SavedRun } from '../core/orchestrator';

const StepSchema = z.object({ id: z.string(), goal: z.string(), toolHint: z.string().optional(), dependsOn: z.array(z.string()) });
const RecordSchema = z.object({ stepId: z.string(), status: z.enum(['ok', 'failed', 'skipped']), summary: z.string(), result: z.string() });
const RunSchema = z.object({
  turnId: z.string(),
  request: z.string(),
  steps: z.array(StepSchema),
  doneWhen: z.string(),
  records: z.array(RecordSchema),
  /** `running` with no turn_end seen: the window closed mid-run. `stopped`: Stop or an error ended it. */
  state: z.enum(['running', 'completed', 'stopped', 'fell_back']),
  /** How many messages the session had when the plan was made: the request is the next one. */
  messageIndex: z.number().int().nonnegative(),
  fallbackReason: z.string().optional(),
  updatedAt: z.number(),
});
const RunsSchema = z.array(RunSchema);

export type PlanRun = z.infer<typeof RunSchema>;

const MAX_RUNS = 50;

export function planRunsKey(sessionId: string): string {
  return `plan-runs:${sessionId}`;
}

/** Unreadable or absent → no runs (a broken record must not keep a session from opening). */
export function decodePlanRuns(value: unknown): PlanRun[] {
  if (typeof value !== 'string') return [];
  try {
    const parsed = RunsSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The run to offer for resuming: the session's last one, when it neither finished nor gave way to the loop. */
export function unfinishedRun(runs: readonly PlanRun[]): PlanRun | undefined {
  const last = runs.at(-1);
  return last && (last.state === 'running' || last.state === 'stopped') && last.records.length < last.steps.length ? last : undefined;
}

export function savedRunOf(run: PlanRun): SavedRun {
  return {
    turnId: run.turnId,
    request: run.request,
    plan: { steps: run.steps.map((s) => ({ ...s, dependsOn: [...s.dependsOn] })), doneWhen: run.doneWhen },
    records: run.records,
  };
}

/**
 * Follows the events of a session and keeps its runs current. `save` gets the whole list after each change
 * (small: a plan has at most a few dozen steps); `messageCount` tells where the session's history is now.
 */
export class PlanRunLog {
  private turn: { id: string; message: string } | undefined;
  private current: PlanRun | undefined;

  constructor(
    private readonly runs: PlanRun[],
    private readonly messageCount: () => number,
    private readonly save: (runs: readonly PlanRun[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get all(): readonly PlanRun[] {
    return this.runs;
  }

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_start':
        this.turn = { id: event.turnId, message: event.message };
        this.current = undefined;
        return;
      case 'plan': {
        if (!this.turn) return;
        const resumed = event.resumed ? this.runs.find((r) => r.turnId === this.turn!.id) : undefined;
        if (resumed) {
          this.current = resumed;
          this.update({ state: 'running' });
          return;
        }
        this.current = {
          turnId: this.turn.id,
          request: this.turn.message,
          steps: event.steps.map((s) => ({ id: s.id, goal: s.goal, ...(s.toolHint !== undefined && { toolHint: s.toolHint }), dependsOn: [...s.dependsOn] })),
          doneWhen: event.doneWhen,
          records: [],
          state: 'running',
          messageIndex: this.messageCount(),
          updatedAt: this.now(),
        };
        this.runs.push(this.current);
        if (this.runs.length > MAX_RUNS) this.runs.splice(0, this.runs.length - MAX_RUNS);
        this.write();
        return;
      }
      case 'step_end': {
        const run = this.current;
        if (!run) return;
        const record = { stepId: event.stepId, status: event.status, summary: event.summary ?? '', result: event.result ?? '' };
        // A cancelled step is not finished: a resume runs it again (seeing what it already did).
        if (event.status === 'failed' && event.summary === 'cancelled') return;
        run.records = [...run.records.filter((r) => r.stepId !== event.stepId), record];
        this.update({});
        return;
      }
      case 'plan_fallback':
        this.update({ state: 'fell_back', fallbackReason: event.reason });
        return;
      case 'turn_end':
        if (this.current && this.current.state === 'running') this.update({ state: event.reason === 'completed' || event.reason === 'task_completion' ? 'completed' : 'stopped' });
        this.current = undefined;
        this.turn = undefined;
        return;
      default:
        return;
    }
  }

  private update(change: Partial<PlanRun>): void {
    if (!this.current) return;
    Object.assign(this.current, change, { updatedAt: this.now() });
    this.write();
  }

  private write(): void {
    this.save(this.runs);
  }
}
