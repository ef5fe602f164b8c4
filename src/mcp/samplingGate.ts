// Per-server sliding-window limit on sampling requests: a server cannot keep the user's model (or the user,
// with approval dialogs) busy by asking over and over.

export type RateDecision = { ok: true } | { ok: false; retryInMs: number };

export class SlidingWindowLimiter {
  private readonly stamps: number[] = [];

  constructor(
    /** Requests allowed within any window. */
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`the limit must be a whole number ≥ 0, got ${limit}`);
  }

  /** Count one request if the window has room; otherwise say when the oldest counted one leaves it. */
  take(): RateDecision {
    const now = this.now();
    while (this.stamps.length && this.stamps[0]! <= now - this.windowMs) this.stamps.shift();
    if (this.stamps.length >= this.limit) {
      const oldest = this.stamps[0];
      return { ok: false, retryInMs: oldest === undefined ? this.windowMs : Math.max(0, oldest + this.windowMs - now) };
    }
    this.stamps.push(now);
    return { ok: true };
  }
}

export const DEFAULT_SAMPLING_PER_MINUTE = 10;

/** One limiter per server name, so a restarted server does not get a fresh allowance. */
export class SamplingGate {
  private readonly limiters = new Map<string, SlidingWindowLimiter>();

  constructor(
    private readonly perMinute: number = DEFAULT_SAMPLING_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Undefined when allowed; otherwise the refusal, worded for the server (and whoever reads its log). */
  check(server: string): string | undefined {
    let limiter = this.limiters.get(server);
    if (!limiter) this.limiters.set(server, (limiter = new SlidingWindowLimiter(this.perMinute, 60_000, this.now)));
    const decision = limiter.take();
    if (decision.ok) return undefined;
    const wait = Math.max(1, Math.ceil(decision.retryInMs / 1000));
    return `sampling request refused: MCP server "${server}" may make at most ${this.perMinute} sampling request${this.perMinute === 1 ? '' : 's'} per minute; try again in ${wait} s`;
  }
}
