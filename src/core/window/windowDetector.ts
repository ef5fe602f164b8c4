// Finds out, from the server's own prompt counts, that it runs a smaller context than we budget for.
// A server that cuts the prompt counts fewer tokens than we sent, and its count stops growing with the
// prompt: a tokenizer that merely counts differently keeps the same ratio as the prompt grows, a cut
// prompt does not. Only a ceiling seen twice is taken as the real window; one odd count only warns.
import { formatCount } from '../../shared/format';

export interface PromptSample {
  /** Calibrated estimate of exactly what the request carried. */
  expected: number;
  /** What the server says it counted. */
  reported: number;
}

export interface WindowDetectorOptions {
  /** A count below this share of the estimate is a cut on its own (no tokenizer is that far off after calibration). */
  hardRatio: number;
  /** A count below this share is suspect; two in a row whose ratio falls as the prompt grows confirm a cut. */
  softRatio: number;
  /** Smaller prompts are too noisy to judge. */
  minTokens: number;
}

export type SampleVerdict =
  /** Nothing odd: the count may feed calibration. */
  | { kind: 'ok' }
  /** Possibly cut; wait for the next count before trusting it either way. */
  | { kind: 'suspect' }
  /** The prompt was cut. `ceiling` is set when the counts show the window the server really runs. */
  | { kind: 'cut'; ceiling?: number; evidence: string };

/** What the detector knows, to be stored with the session: one turn per process must still see two counts. */
export interface DetectorState {
  previous?: PromptSample & { suspect: boolean; cut: boolean };
  largestCut: number;
  maxReported: number;
}

/**
 * Less growth than this between two requests is within the noise of a count. A weak model's nudge round (its short
 * reply and a "continue" message) grows the prompt by about 20–30 tokens; an honest count grows along with it.
 */
const MIN_GROWTH_TOKENS = 16;

export class WindowDetector {
  private previous: (PromptSample & { suspect: boolean; cut: boolean }) | undefined;
  /** The largest count of a cut request: the server runs at least this much. */
  private largestCut = 0;
  /** The largest count the server ever gave. */
  private maxReported = 0;

  constructor(private readonly options: WindowDetectorOptions) {}

  /** Judges one count of a main request (compression calls are judged apart; see `isCut`). */
  observe(sample: PromptSample): SampleVerdict {
    const prev = this.previous;
    const ratio = sample.reported / sample.expected;
    const judged = sample.expected >= this.options.minTokens;
    const hard = judged && ratio < this.options.hardRatio;
    const soft = judged && ratio < this.options.softRatio;
    let verdict: SampleVerdict = soft ? { kind: 'suspect' } : { kind: 'ok' };

    const grew = prev ? sample.expected - prev.expected : 0;
    // (No "count below the estimate" condition here: while calibration still learns, a cut count can sit above it.)
    if (judged && prev && grew >= Math.max(MIN_GROWTH_TOKENS, prev.expected * 0.005)) {
      const prevRatio = prev.reported / prev.expected;
      // The count stood still while the prompt grew (an honest count grows along, by about `grew × ratio`),
      // at the highest count the server ever gave: it stops at a fixed size. (A count below an earlier one
      // cannot be the ceiling: the server counted more before without cutting.)
      const flat =
        Math.abs(sample.reported - prev.reported) <= Math.min(grew * prevRatio * 0.25, Math.max(8, prev.reported * 0.005)) &&
        sample.reported >= this.maxReported - 8;
      // Both short, and the shortfall grows with the prompt: a ceiling, not a different tokenizer.
      const falling = (prev.suspect || prev.cut) && soft && sample.reported < sample.expected && ratio < prevRatio * 0.95 && sample.reported >= this.maxReported * 0.95;
      if (flat || falling) {
        this.largestCut = Math.max(this.largestCut, sample.reported, prev.reported);
        verdict = {
          kind: 'cut',
          ceiling: this.largestCut,
          evidence: flat
            ? `it counted ${fmt(prev.reported)} and then ${fmt(sample.reported)} prompt tokens while the prompt grew from about ${fmt(prev.expected)} to ${fmt(sample.expected)}`
            : `it counted ${fmt(prev.reported)} of about ${fmt(prev.expected)} and then ${fmt(sample.reported)} of about ${fmt(sample.expected)} prompt tokens`,
        };
      }
    }
    if (verdict.kind !== 'cut' && hard) {
      verdict = { kind: 'cut', evidence: `it counted ${fmt(sample.reported)} prompt tokens of about ${fmt(sample.expected)} sent` };
    }
    this.previous = { ...sample, suspect: verdict.kind === 'suspect', cut: verdict.kind === 'cut' };
    this.maxReported = Math.max(this.maxReported, sample.reported);
    if (verdict.kind === 'cut') this.largestCut = Math.max(this.largestCut, sample.reported);
    return verdict;
  }

  /** A count too short to feed calibration, judged alone (the compression agent's requests). */
  isCut(sample: PromptSample): boolean {
    return sample.expected >= this.options.minTokens && sample.reported / sample.expected < this.options.softRatio;
  }

  snapshot(): DetectorState {
    return { ...(this.previous && { previous: { ...this.previous } }), largestCut: this.largestCut, maxReported: this.maxReported };
  }

  /** Continues from a stored state (a later run of the same session); anything malformed is ignored. */
  restore(state: unknown): void {
    if (!state || typeof state !== 'object') return;
    const s = state as Partial<DetectorState>;
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
    const p = s.previous;
    if (p && num(p.expected) !== undefined && num(p.reported) !== undefined) {
      this.previous = { expected: p.expected, reported: p.reported, suspect: p.suspect === true, cut: p.cut === true };
    }
    this.largestCut = Math.max(this.largestCut, num(s.largestCut) ?? 0);
    this.maxReported = Math.max(this.maxReported, num(s.maxReported) ?? 0);
  }

  /** Start over (the model or its window changed). */
  reset(): void {
    this.previous = undefined;
    this.largestCut = 0;
    this.maxReported = 0;
  }
}

function fmt(n: number): string {
  return formatCount(n);
}
