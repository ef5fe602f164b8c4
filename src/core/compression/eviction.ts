// Eviction, the last resort: the oldest units (a message, or an assistant message with its tool results)
// leave the prompt whole, oldest first, and each is folded into the running session summary. The protected
// tail and the latest tool results never leave — unless the protected tail alone keeps the request over its
// target (a small window: system prompt and tools take most of it), or the target is set to leave room for the
// next rounds (headroom.ts). Then the tail's older rounds leave too, down to the latest round (but never past a
// user message of the tail), in the same step: a compression that misses its target breaks the cached prefix
// again a round or two later, while one that reaches it lets the next rounds append.
import type { Unit } from './compressionUnits';
import type { CompressionScope } from './scope';

export function evictOldest(scope: CompressionScope): number {
  let units = evictUpTo(scope, (unit) => unit.end > scope.layout.protectedStart || unit.end > scope.layout.freshStart);
  // The tail's own rounds, never a user message of it (what the user wrote there is not a digest's to shorten) —
  // only when that reaches the target (emptying the tail for a target still missed would only lose context), or
  // when the target was set to leave room for the next rounds: that is what it is for.
  const deep = keptByDeepStep(scope);
  if (scope.overTarget() && (scope.deepForHeadroom || sizeAfterEvicting(scope, deep) <= scope.target)) units += evictUpTo(scope, deep);
  return units;
}

/** Units the deep step keeps: the latest round and, in the protected tail, every user message and what follows it. */
export function keptByDeepStep(scope: CompressionScope): (unit: Unit) => boolean {
  return (unit) => unit.end > scope.layout.freshStart || (unit.kind === 'user' && unit.start >= scope.layout.protectedStart);
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
