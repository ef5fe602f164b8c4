// What reasoning models need from a request, by model family (their chat templates differ): gpt-oss (harmony)
// takes effort levels instead of on/off and degrades within a few calls unless its earlier reasoning is passed back;
// interleaved-thinking models need it back too. Other templates drop it or reject it, so it is not sent to them.

/** The model's template needs its earlier reasoning in the request (gpt-oss / harmony, interleaved thinking). */
export function needsReasoningBack(model: string): boolean {
  return /gpt-oss|minimax-m2|kimi-k2-thinking/i.test(model);
}

/** The model thinks at an effort level (gpt-oss: low, medium, high) and cannot switch thinking off. */
export function thinksInLevels(model: string): boolean {
  return /gpt-oss/i.test(model);
}

export type ReasoningEffort = 'low' | 'medium' | 'high';

/** The effort level that fits a thinking budget (gpt-oss's low effort thinks a few hundred tokens). */
export function effortForBudget(budget: number | undefined): ReasoningEffort {
  if (budget === undefined) return 'medium';
  return budget <= 4096 ? 'low' : budget <= 16384 ? 'medium' : 'high';
}
