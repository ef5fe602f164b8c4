// Time sources for the view, injectable so jsdom tests can drive frames and timers by hand.

export interface ViewTiming {
  now(): number;
  /** Run once before the next paint (requestAnimationFrame in the webview). */
  requestFrame(callback: () => void): void;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export function browserTiming(win: Window): ViewTiming {
  return {
    now: () => win.performance.now(),
    requestFrame: (cb) => void win.requestAnimationFrame(() => cb()),
    setTimer: (cb, ms) => win.setTimeout(cb, ms),
    clearTimer: (handle) => win.clearTimeout(handle as number),
  };
}

/** Coalesces any number of schedule() calls into one callback per frame. */
export class FrameBatcher {
  private scheduled = false;

  constructor(
    private readonly timing: ViewTiming,
    private readonly run: () => void,
  ) {}

  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.timing.requestFrame(() => {
      this.scheduled = false;
      this.run();
    });
  }
}
