// How much of each prompt the model server read again, in words the log, the CLI and the context meter share.
// A local server keeps the previous request's tokens and reads only what follows the first change; what it
// reports reusing (or, where it says nothing, what we estimate from the request) is `cached`, the rest re-read.

export interface CacheTally {
  requests: number;
  prompt: number;
  cached: number;
  /** Some of the counts are our estimate (the server did not report what it reused). */
  estimated: boolean;
}

export const EMPTY_TALLY: CacheTally = { requests: 0, prompt: 0, cached: 0, estimated: false };

/** A tally counts a request only with its prompt tokens (> 0), so `rereadText(tally)` is '' until the first one. */
export function addUsage(tally: CacheTally, usage: { promptTokens: number; cachedTokens?: number; cachedEstimated?: boolean }): CacheTally {
  if (!(usage.promptTokens > 0) || usage.cachedTokens === undefined) return tally;
  return {
    requests: tally.requests + 1,
    prompt: tally.prompt + usage.promptTokens,
    cached: tally.cached + Math.min(usage.promptTokens, usage.cachedTokens),
    estimated: tally.estimated || !!usage.cachedEstimated,
  };
}
