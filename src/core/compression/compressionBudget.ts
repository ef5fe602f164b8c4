// How many model calls the LLM compression pass may spend. On a local model each call costs seconds, so
// compression never costs more calls than the work it serves: per turn at most as many as the turn's own
// model calls, and over the session at most `share` of them. A pass that missed its target is not tried
// again until the history has grown by a meaningful amount, and a model that twice gave no usable
// summaries is not asked again this session: the deterministic path (digests, then eviction)
// runs at once instead.

export interface CompressionBudgetSettings {
  /** Session-wide: compression calls ≤ share × work calls (+ one pass's worth to start with). */
  share: number;
  /** A pass needs at least this many calls to achieve anything (list, then compress and verify). */
  minPassCalls: number;
  /** Growth of the history (share of the window) before a pass that missed its target is tried again. */
  retryGrowth: number;
  /** Consecutive failed passes (tools ignored or unusable) before the pass is off for the session. */
  maxFailures: number;
  /** The most calls one pass may make. */
  maxIterations: number;
}

export interface PassPermission {
  /** Calls the pass may make now; 0 means skip the LLM pass. */
  calls: number;
  /** Why it may not run, when it may not. */
  skipped?: string;
}

export class CompressionBudget {
  private sessionWork = 0;
  private sessionSpent = 0;
  private turnWork = 0;
  private turnSpent = 0;
  private failures = 0;
  private disabled = false;
  /** History size (raw tokens) when a pass last missed its target or failed. */
  private missedAt: number | undefined;

  constructor(private readonly settings: CompressionBudgetSettings) {}

  startTurn(): void {
    this.turnWork = 0;
    this.turnSpent = 0;
  }

  /** A main model call is about to be made. */
  recordWork(): void {
    this.turnWork++;
    this.sessionWork++;
  }

  /** May the LLM pass run now, and with how many calls? `historyTokens` is the raw size of the whole history. */
  permit(historyTokens: number, window: number): PassPermission {
    const s = this.settings;
    if (this.disabled) return { calls: 0, skipped: `the model twice did not carry out the compression pass` };
    if (this.missedAt !== undefined && historyTokens < this.missedAt + window * s.retryGrowth) {
      return { calls: 0, skipped: 'the last pass missed its target and the conversation has not grown much since' };
    }
    const turnLeft = this.turnWork - this.turnSpent;
    const sessionLeft = Math.floor(s.share * this.sessionWork) + s.minPassCalls - this.sessionSpent;
    const calls = Math.min(s.maxIterations, turnLeft, sessionLeft);
    if (calls < s.minPassCalls) return { calls: 0, skipped: `the compression budget is spent (${this.turnSpent} of ${this.turnLimit()} calls this turn)` };
    return { calls };
  }

  /** After a pass: what it spent, and whether it met its target or failed outright. */
  recordPass(calls: number, outcome: { targetMet: boolean; failed: boolean }, historyTokens: number): { disabledNow: boolean } {
    this.turnSpent += calls;
    this.sessionSpent += calls;
    if (outcome.failed) this.failures++;
    else this.failures = 0;
    this.missedAt = outcome.targetMet ? undefined : historyTokens;
    if (!this.disabled && this.failures >= this.settings.maxFailures) {
      this.disabled = true;
      return { disabledNow: true };
    }
    return { disabledNow: false };
  }

  /** For the event stream: what this turn spent and may spend. */
  snapshot(): { used: number; limit: number } {
    return { used: this.turnSpent, limit: this.turnLimit() };
  }

  private turnLimit(): number {
    return Math.min(this.settings.maxIterations, this.turnWork);
  }
}
