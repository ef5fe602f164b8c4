// A clock that runs `factor` times faster than real time, for minute-long waits in a test that takes seconds. The
// product gets it as its ProviderClock (first-byte deadlines, status timers) and the fake servers take the same
// factor for their waits (`timeLapse` option: reading at a set speed, generating), so the client and the server
// see the same virtual time pass. Real overhead (HTTP, scheduling) is multiplied too: keep the factor small
// enough that it stays well inside the margins a test checks.
import type { ProviderClock } from '../../src/providers/clock';

export function timeLapseClock(factor: number): ProviderClock & { readonly factor: number } {
  const start = Date.now();
  return {
    factor,
    now: () => start + (Date.now() - start) * factor,
    setTimeout: (callback, ms) => setTimeout(callback, ms / factor),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}
