// Eviction, the last resort: the oldest units (a message, or an assistant message with its tool results)
// leave the prompt whole, oldest first, and each is folded into the running session summary. The protected
// tail and the latest tool results never leave — unless the protected tail alone keeps the request over its
// target (a small window: system prompt and tools take most of it), or the target is set to leave room for the
// next rounds (headroom.ts). Then the tail's older rounds leave too, down to the latest round (but never past a
// user message of the tail), in the same step: a compression that misses its target breaks the cached prefix
// again a round or two later, while one that reaches it lets the next rounds append.
// The deep step stops at the newest round holding a compressed copy when that still reaches the target (or, for
// headroom, when headroom.ts found it cheap enough): a few
// tokens more keep one digest of the work in view, so the model sees the step before the latest, and a session
// stored now and resumed in a larger window gets compressed copies back rather than only the summary.
import type { Unit } from './compressionUnits';
import type { CompressionScope } from './scope';

export function evictOldest(scope: CompressionScope): number {
  let units = evictUpTo(scope, (unit) => unit.end > scope.layout.protectedStart || unit.end > scope.layout.freshStart);
  // The tail's own rounds, never a user message of it (what the user wrote there is not a digest's to shorten) —
  // only when that reaches the target (emptying the tail for a target still missed would only lose context), or
  // when the target was set to leave room for the next rounds: that is what it is for.
  if (!scope.overTarget()) return units;
  if (scope.deepForHeadroom) return units + evictUpTo(scope, keptByDeepStep(scope, scope.deepKeepsDigest));
  const withDigest = keptByDeepStep(scope, true);
  const deep = sizeAfterEvicting(scope, withDigest) <= scope.target ? withDigest : keptByDeepStep(scope, false);
  if (sizeAfterEvicting(scope, deep) <= scope.target) units += evictUpTo(scope, deep);
  return units;
}

/**
 * Units the deep step keeps: the latest round and, in the protected tail, every user message and what follows it;
 * `keepDigest`: also the newest earlier round holding a compressed copy, and what follows it.
 */
export function keptByDeepStep(scope: CompressionScope, keepDigest: boolean): (unit: Unit) => boolean {
  const { freshStart, protectedStart } = scope.layout;
  const digestFrom = keepDigest ? newestCompressedUnit(scope) : undefined;
  return (unit) => unit.end > freshStart || (unit.kind === 'user' && unit.start >= protectedStart) || (digestFrom !== undefined && unit.start >= digestFrom);
}

/** Start of the newest unit before the latest round that holds a compressed copy in view. */
function newestCompressedUnit(scope: CompressionScope): number | undefined {
  const { units, freshStart } = scope.layout;
  for (let u = units.length - 1; u >= 0; u--) {
    const unit = units[u]!;
    if (unit.start < scope.view.evictedThrough) return undefined;
    if (unit.end > freshStart) continue;
    for (let i = unit.start; i < unit.end; i++) if (scope.view.isCompressed(scope.history, i)) return unit.start;
  }
  return undefined;
}

/** Tokens a summary line of an evicted message takes, about ("Tool read_file note-03.txt: …"). */
const SUMMARY_LINE_TOKENS = 25;

/** The request's estimated size once every unit before what `keep` keeps has left (each message adds a summary line, up to its cap). */
function sizeAfterEvicting(scope: CompressionScope, keep: (unit: Unit) => boolean): number {
  let freed = 0;
  let lines = 0;
  for (const unit of scope.layout.units) {
    if (unit.start < scope.view.evictedThrough) continue;
    if (keep(unit)) break;
    for (let i = unit.start; i < unit.end; i++) freed += scope.tokensOf(i);
    lines += unit.end - unit.start;
  }
  return scope.total() - freed + Math.min(scope.summaryMaxTokens, lines * SUMMARY_LINE_TOKENS);
}

/** Evicts units oldest first while over the target, stopping at the first that `keep` keeps. */
export function evictUpTo(scope: CompressionScope, keep: (unit: Unit) => boolean): number {
  const { layout, view, history } = scope;
  let units = 0;
  for (const unit of layout.units) {
    if (!scope.overTarget()) break;
    if (unit.end <= view.evictedThrough) continue;
    if (unit.start < view.evictedThrough) continue; // a restored eviction point inside a unit: leave that unit
    if (keep(unit)) break;
    view.summary.addUnit(history, unit, (i) => scope.current(i));
    scope.evictThrough(unit.end);
    units++;
  }
  return units;
}
