// Replies that would kill a session: a reply longer than a share of the window (stored whole, the next turn finds
// the window full) and a repetition loop (small models sometimes emit the same line until the token limit). The
// guard watches the streamed text and says when to stop; what is kept is the part before the loop plus one copy.

export interface ReplyGuardLimits {
  /** Text (and, separately, thinking) longer than this is cut. */
  maxChars: number;
  /** A unit repeated at least this many times in a row at the end of the text is a loop… */
  minRepeats?: number;
  /** …when the repeated run is at least this long (a short run of "=====" is decoration, not a loop)… */
  minLoopChars?: number;
  /** …for units up to this long. */
  maxPeriod?: number;
}

export type GuardStop =
  | { kind: 'too_long'; keep: number; limit: number }
  | { kind: 'loop'; keep: number; period: number; repeats: number };

const DEFAULTS = { minRepeats: 8, minLoopChars: 1200, maxPeriod: 800 };
/** Look for a loop each time this much new text arrived (cheap enough for 200 KB replies). */
const CHECK_EVERY = 200;

/** Watches one stream of text (the reply's text or its thinking). */
export class ReplyGuard {
  private text = '';
  private checkedAt = 0;
  private suspectFrom: number | undefined;

  constructor(private readonly limits: ReplyGuardLimits) {}

  /** Adds streamed text; returns where to stop when the reply went wrong. */
  push(piece: string): GuardStop | undefined {
    this.text += piece;
    if (this.text.length - this.checkedAt >= CHECK_EVERY) {
      this.checkedAt = this.text.length;
      const loop = findRepeatingTail(this.text, this.limits);
      if (loop) return { kind: 'loop', keep: loop.start + loop.period, period: loop.period, repeats: loop.repeats };
      // A few repeats already: hold the text back from the second copy on, until it either turns into a loop
      // (then it is never shown) or moves on (then it is shown late, once).
      const early = findRepeatingTail(this.text, { ...SUSPECT, maxPeriod: this.limits.maxPeriod ?? DEFAULTS.maxPeriod });
      this.suspectFrom = early ? early.start + early.period : undefined;
    }
    if (this.text.length > this.limits.maxChars) return { kind: 'too_long', keep: this.limits.maxChars, limit: this.limits.maxChars };
    return undefined;
  }

  get length(): number {
    return this.text.length;
  }

  /** How much of the text may be shown now (the rest may be the start of a loop). */
  get showable(): number {
    return this.suspectFrom ?? this.text.length;
  }
}

/** Three repeats over 150+ characters: maybe the start of a loop, worth holding back. */
const SUSPECT = { minRepeats: 3, minLoopChars: 150 };

export interface RepeatingTail {
  /** Where the repeated run starts. */
  start: number;
  period: number;
  repeats: number;
}

/** The run of one unit repeated at the very end of `text`, when it is long enough to be a loop. */
export function findRepeatingTail(text: string, limits: Partial<ReplyGuardLimits> = {}): RepeatingTail | undefined {
  const minRepeats = limits.minRepeats ?? DEFAULTS.minRepeats;
  const minLoop = limits.minLoopChars ?? DEFAULTS.minLoopChars;
  const maxPeriod = Math.min(limits.maxPeriod ?? DEFAULTS.maxPeriod, Math.floor(text.length / minRepeats));
  const n = text.length;
  for (let p = 1; p <= maxPeriod; p++) {
    // Quick rejection: the last characters must already repeat with period p.
    const need = Math.max(p * minRepeats, minLoop);
    if (need > n) break;
    let i = n - 1;
    const stop = n - need;
    while (i - p >= stop - 1 && i - p >= 0 && text.charCodeAt(i) === text.charCodeAt(i - p)) i--;
    // i is the last index (from the end) where the period breaks; the run covers (i - p, n).
    const runStart = i - p + 1;
    if (n - runStart < need) continue;
    // Extend back to where the run really starts.
    let start = runStart;
    while (start - 1 >= 0 && text.charCodeAt(start - 1) === text.charCodeAt(start - 1 + p)) start--;
    return { start, period: p, repeats: Math.floor((n - start) / p) };
  }
  return undefined;
}

/** The note that ends a stopped reply, for the model and the user alike. */
export function stopNote(stop: GuardStop, what: 'reply' | 'thinking'): string {
  if (stop.kind === 'too_long') {
    return `[The ${what} was cut at ${stop.limit.toLocaleString('en-US')} characters: longer replies would fill the context window. Keep replies shorter; put long content in files, in parts.]`;
  }
  return `[The ${what} was stopped: it kept repeating the same ${stop.period}-character passage (${stop.repeats} times). Only the first copy is kept.]`;
}
