// How deep one compression goes. A fixed target (40% of the window) suits a large window, where it leaves room for
// many rounds. In a small one a round of an agent task (a tool call and a file's contents) is a tenth of the
// window or more: compressing to 40% then leaves room for two rounds, and the cached prefix breaks again right
// after. So the target also leaves room for HEADROOM_ROUNDS more rounds at the growth per round seen so far —
// but never below what evicting every unit it may (down to the latest round, never a user message of the tail)
// reaches: a target that cannot be met would only hold the deep step back.
import { evictUpTo, keptByDeepStep } from './eviction';
import type { CompressionScope } from './scope';

/** Rounds a compression leaves room for before the next one is due. */
export const HEADROOM_ROUNDS = 8;

export interface Headroom {
  /** The request size at which compression starts (the threshold, or where the answer would no longer fit). */
  trigger: number;
  /** How much the request grew per model call while it only appended (calibrated tokens; 0: not known yet). */
  roundTokens: number;
}

/**
 * The target for this run: the fixed one, lowered to leave room for HEADROOM_ROUNDS rounds where it can be.
 * `deep`: the fixed target leaves less room than that, so the deep step runs as far as it may.
 */
export function targetWithHeadroom(scope: CompressionScope, headroom: Headroom): { target: number; deep: boolean } {
  if (!(headroom.roundTokens > 0)) return { target: scope.target, deep: false };
  const roomy = Math.floor(headroom.trigger - HEADROOM_ROUNDS * headroom.roundTokens);
  if (roomy >= scope.target) return { target: scope.target, deep: false };
  return { target: Math.min(scope.target, Math.max(roomy, deepestSize(scope))), deep: true };
}

/** The request's size once every unit the deep step may evict has left, tried on a copy of the view. */
function deepestSize(scope: CompressionScope): number {
  const trial = scope.trial();
  trial.lowerTarget(0, false);
  evictUpTo(trial, keptByDeepStep(trial));
  return trial.total();
}
