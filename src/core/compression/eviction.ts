// Eviction, the last resort: the oldest units (a message, or an assistant message with its tool results)
// leave the prompt whole, oldest first, and each is folded into the running session summary. The protected
// tail and the latest tool results never leave.
import type { CompressionScope } from './scope';

export function evictOldest(scope: CompressionScope): number {
  const { layout, view, history } = scope;
  let units = 0;
  for (const unit of layout.units) {
    if (!scope.overTarget()) break;
    if (unit.end <= view.evictedThrough) continue;
    if (unit.start < view.evictedThrough) continue; // a restored eviction point inside a unit: leave that unit
    if (unit.end > layout.protectedStart || unit.end > layout.freshStart) break;
    view.summary.addUnit(history, unit, (i) => scope.current(i));
    scope.evictThrough(unit.end);
    units++;
  }
  return units;
}
