// Time as the providers see it: injectable so tests (and the CLI) control cold-start waits.
import type { Clock } from '../core/ports';

export type TimerHandle = unknown;

export interface ProviderClock extends Clock {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemProviderClock: ProviderClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How long a cold model load may take before the first byte arrives (big models load slowly). */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 5 * 60_000;
/** After this long without a byte we tell the user the server is probably loading the model. */
export const DEFAULT_LOADING_STATUS_DELAY_MS = 3_000;
