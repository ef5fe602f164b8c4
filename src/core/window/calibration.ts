// Per-model token calibration: our estimate × a factor learned from what the server reports it counted
// (Ollama `prompt_eval_count`, OpenAI-compatible `usage.prompt_tokens`). A running mean for the first
// samples, then an exponential moving average, persisted through an injected key/value port.
import { errorMessage } from '../../shared/format';

/** Where factors live between sessions (the persistence layer's kv table, or memory in tests). */
export interface KeyValuePort {
  get(key: string): string | undefined | Promise<string | undefined>;
  set(key: string, value: string): void | Promise<void>;
}

export interface CalibrationState {
  factor: number;
  samples: number;
}

/** A single sample outside this range is clamped: one odd count must not wreck the estimate. */
export const MIN_FACTOR = 0.4;
export const MAX_FACTOR = 3;

export function calibrationKey(providerId: string, model: string): string {
  return `tokenCalibration:${providerId}:${model}`;
}

export interface CalibrationOptions {
  key: string;
  store?: KeyValuePort;
  /** Weight of a new sample once the average has settled. */
  alpha: number;
  /** Reading or writing the store failed (reported once; calibration keeps working in memory). */
  onStoreError?: (message: string) => void;
}

export class TokenCalibration {
  private state: CalibrationState = { factor: 1, samples: 0 };
  private loading: Promise<void> | undefined;
  private storeFailed = false;

  constructor(private readonly options: CalibrationOptions) {}

  get factor(): number {
    return this.state.factor;
  }

  get samples(): number {
    return this.state.samples;
  }

  /** Reads the stored factor once. A missing or malformed value starts from 1. */
  load(): Promise<void> {
    this.loading ??= (async () => {
      if (!this.options.store) return;
      try {
        const stored = parseState(await this.options.store.get(this.options.key));
        if (stored && this.state.samples === 0) this.state = stored;
      } catch (err) {
        this.storeError('read', err);
      }
    })();
    return this.loading;
  }

  /** One request: we estimated `raw` tokens (before calibration), the server counted `reported`. */
  observe(raw: number, reported: number): void {
    if (!(raw > 0) || !(reported > 0)) return;
    const sample = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, reported / raw));
    const n = this.state.samples + 1;
    // Plain mean until 1/alpha samples (fast start, no bias toward the initial 1), then the moving average.
    const weight = Math.max(this.options.alpha, 1 / n);
    this.state = { factor: this.state.factor + weight * (sample - this.state.factor), samples: n };
    this.save();
  }

  private save(): void {
    const store = this.options.store;
    if (!store) return;
    const value = JSON.stringify({ factor: round(this.state.factor), samples: this.state.samples });
    try {
      const pending = store.set(this.options.key, value);
      if (pending) pending.catch((err: unknown) => this.storeError('save', err));
    } catch (err) {
      this.storeError('save', err);
    }
  }

  private storeError(what: 'read' | 'save', err: unknown): void {
    if (this.storeFailed) return;
    this.storeFailed = true;
    const why = errorMessage(err);
    this.options.onStoreError?.(`Could not ${what} the token calibration (${why}); it is kept in memory for this session.`);
  }
}

function parseState(text: string | undefined): CalibrationState | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Partial<CalibrationState>;
    const factor = Number(v.factor);
    const samples = Number(v.samples);
    if (!Number.isFinite(factor) || factor < MIN_FACTOR || factor > MAX_FACTOR || !Number.isInteger(samples) || samples < 0) return undefined;
    return { factor, samples };
  } catch {
    return undefined;
  }
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
