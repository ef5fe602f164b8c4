// One time limit for a whole connection attempt (process or transport start, the fallback to the SSE transport,
// the MCP handshake), together with the caller's cancellation: whichever comes first ends the wait at once, and
// the caller closes what was opened. It also records what was tried, for the error message.
import { untilAborted } from '../core/abortable';

/** The attempt ran out of time; `describe()` says what it was doing and what failed before. */
export class StartTimedOut extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** The step of a stdio start whose timeout keeps its established wording. */
export const HANDSHAKE_STEP = 'the MCP handshake';

export class StartDeadline {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);
  private step = 'starting';
  private readonly failures: string[] = [];

  constructor(
    readonly timeoutMs: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(() => this.controller.abort(new StartTimedOut(this.describeTimeout())), timeoutMs);
    this.timer.unref?.();
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Aborts when the time is up or the caller cancels; pass it to everything the attempt starts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** What the attempt is doing now, e.g. `waiting for the SSE "endpoint" event`. */
  doing(step: string): void {
    this.step = step;
  }

  /** Something tried before failed (kept for the message if the rest times out too). */
  failed(what: string): void {
    this.failures.push(what);
  }

  /** Resolves like `work`, or rejects as soon as the deadline passes or the caller cancels. */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined); // given up on: its late rejection must not go unhandled
    return untilAborted(work, this.signal);
  }

  describeTimeout(): string {
    const before = this.failures.length ? ` (before that: ${this.failures.join('; ')})` : '';
    const head = this.step === HANDSHAKE_STEP ? `no answer to the MCP handshake within ${seconds(this.timeoutMs)}` : `no answer within ${seconds(this.timeoutMs)} while ${this.step}`;
    return head + before;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;
}
