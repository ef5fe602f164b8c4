// When a crashed server is started again: after each delay in turn (1 s, 2 s, 4 s by default), then never; a server
// that stayed up long enough gets a fresh series at its next crash. Starting by hand also starts a fresh series.
export interface RestartPolicyOptions {
  /** One entry per automatic restart attempt: the delay before it. */
  delaysMs: readonly number[];
  /** A server that stayed up this long gets a fresh set of restart attempts at its next crash. */
  stableAfterMs: number;
  now: () => number;
}

export type RestartDecision = { retry: true; delayMs: number; attempt: number; max: number } | { retry: false; max: number };

export class RestartPolicy {
  private attemptsMade = 0;
  private readySince: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly o: RestartPolicyOptions) {}

  /** Automatic restarts so far in this series. */
  get attempts(): number {
    return this.attemptsMade;
  }

  /** "attempt 2 of 3", for messages. */
  attemptText(): string {
    return `attempt ${this.attemptsMade} of ${this.o.delaysMs.length}`;
  }

  /** A start by request: no restart pending, a fresh series. */
  reset(): void {
    this.cancel();
    this.attemptsMade = 0;
  }

  /** The server is up (from now on it may earn a fresh series). */
  up(): void {
    this.readySince = this.o.now();
  }

  /** Stopped on purpose: neither up nor waiting for a restart. */
  stopped(): void {
    this.cancel();
    this.readySince = undefined;
  }

  /** The server went down (a crash, a failed automatic start): `restart` runs after the next delay, or never. */
  schedule(restart: () => void): RestartDecision {
    const { delaysMs, stableAfterMs, now } = this.o;
    if (this.readySince !== undefined && now() - this.readySince >= stableAfterMs) this.attemptsMade = 0;
    this.readySince = undefined;
    const max = delaysMs.length;
    if (this.attemptsMade >= max) return { retry: false, max };
    const delayMs = delaysMs[this.attemptsMade]!;
    this.attemptsMade++;
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      restart();
    }, delayMs);
    this.timer.unref?.();
    return { retry: true, delayMs, attempt: this.attemptsMade, max };
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
