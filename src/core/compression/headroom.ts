// How deep one compression goes. A fixed target (40% of the window) suits a large window, where it leaves room for
// many rounds. In a small one a round of an agent task (a tool call and a file's contents) is a tenth of the
// window or more: compressing to 40% then leaves room for two rounds, and the cached prefix breaks again right
// after. So the target also leaves room for HEADROOM_ROUNDS more rounds at the growth per round seen so far —
// but never below what evicting every unit it may (down to the latest round, never a user message of the tail)
// reaches: a target that cannot be met would only hold the deep step back. That floor keeps the newest round
// holding a compressed copy (eviction.ts) when that costs at most DIGEST_ROUND_SHARE of a round's growth: the next
// compression comes at most one round sooner (in the bench, never), and the digest is worth that: the model sees
// the step before the latest, and a session resumed in a larger window gets compressed copies back.
import { evictUpTo, keptByDeepStep } from './eviction';
import { compressByRules } from './fallback';
import type { CompressionScope } from './scope';

/** Rounds a compression leaves room for before the next one is due. */
export const HEADROOM_ROUNDS = 8;
/** The most a digest kept in view may cost the deep step's floor, as a share of the growth per round. */
export const DIGEST_ROUND_SHARE = 1;

export interface Headroom {
  /** The request size at which compression starts (the threshold, or where the answer would no longer fit). */
  trigger: number;
  /** How much the request grew per model call while it only appended (calibrated tokens; 0: not known yet). */
  roundTokens: number;
}

/**
 * The target for this run: the fixed one, lowered to leave room for HEADROOM_ROUNDS rounds where it can be.
 * `deep`: what the usual steps reach (the fallback, then eviction up to the protected tail) leaves less room than
 * that, so the deep step runs as far as it may (`keepDigest`: down to the newest round holding a compressed copy).
 * A fixed target that only the deep step could reach counts as leaving too little room: in a small window the
 * protected tail's digests would otherwise stay and the next compression come a round or two later. Where even the
 * deep step cannot reach the fixed target, what it reaches is the target (scope.aimAt).
 */
export function targetWithHeadroom(scope: CompressionScope, headroom: Headroom): { target: number; deep: boolean; keepDigest: boolean } {
  if (!(headroom.roundTokens > 0)) return { target: scope.target, deep: false, keepDigest: false };
  const aim = Math.min(scope.target, Math.floor(headroom.trigger - HEADROOM_ROUNDS * headroom.roundTokens));
  if (shallowSize(scope, aim) <= aim) return { target: aim, deep: false, keepDigest: false };
  const withDigest = deepestSize(scope, true);
  const without = deepestSize(scope, false);
  const keepDigest = withDigest - without <= DIGEST_ROUND_SHARE * headroom.roundTokens;
  return { target: Math.max(aim, keepDigest ? withDigest : without), deep: true, keepDigest };
}

/** The request's size once the fallback ran and eviction went as far as it goes without the deep step, tried on a copy of the view. */
function shallowSize(scope: CompressionScope, target: number): number {
  const trial = scope.trial();
  trial.aimAt(target, false, false);
  compressByRules(trial);
  evictUpTo(trial, (unit) => unit.end > trial.layout.protectedStart || unit.end > trial.layout.freshStart);
  return trial.total();
}

/** The request's size once the fallback ran and every unit the deep step may evict has left, tried on a copy of the view. */
function deepestSize(scope: CompressionScope, keepDigest: boolean): number {
  const trial = scope.trial();
  trial.aimAt(0, false, false);
  compressByRules(trial);
  evictUpTo(trial, keptByDeepStep(trial, keepDigest));
  return trial.total();
}
