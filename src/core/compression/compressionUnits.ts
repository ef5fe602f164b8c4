// The shape of a history for compression: units that must move together (an assistant tool-call message and
// its results), the protected tail (the last N user/assistant pairs), and the freshest tool results.
import type { ChatMessage } from '../messages';

export interface Unit {
  /** History index of the first message. */
  start: number;
  /** One past the last message. */
  end: number;
  kind: 'user' | 'assistant' | 'other';
}

export interface Layout {
  units: Unit[];
  /** User and assistant messages at or after this index are never compressed or evicted. */
  protectedStart: number;
  /** Tool results at or after this index (the latest assistant message's results) are never compressed. */
  freshStart: number;
  /** Start of the last `keepRounds` units: the deterministic fallback keeps these whole while it can. */
  keepWholeStart: number;
}

/**
 * Groups messages so that an assistant message and the tool results that follow it stay together:
 * OpenAI-compatible servers reject a tool message whose call is missing, so they are evicted as one.
 */
export function groupUnits(history: readonly ChatMessage[]): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < history.length; i++) {
    const role = history[i]!.role;
    const last = units[units.length - 1];
    if (role === 'tool' && last) {
      last.end = i + 1; // results belong to the call before them (an orphan joins the previous unit)
      continue;
    }
    units.push({ start: i, end: i + 1, kind: role === 'user' ? 'user' : role === 'assistant' ? 'assistant' : 'other' });
  }
  return units;
}

/**
 * A pair starts at a user message, or at an assistant message that does not answer a user message directly
 * (a new round after tool results). Protecting the last `pairs` pairs protects the tail from the start of
 * the `pairs`-th last one.
 */
export function protectedStartOf(history: readonly ChatMessage[], pairs: number): number {
  if (pairs <= 0) return history.length;
  let seen = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    const startsPair = m.role === 'user' || (m.role === 'assistant' && history[i - 1]?.role !== 'user');
    if (startsPair && ++seen === pairs) return i;
  }
  return 0;
}

export function computeLayout(history: readonly ChatMessage[], protectedPairs: number, keepRounds: number): Layout {
  const units = groupUnits(history);
  let freshStart = history.length;
  for (let u = units.length - 1; u >= 0; u--) {
    if (units[u]!.kind === 'assistant') {
      freshStart = units[u]!.start;
      break;
    }
  }
  const keepUnit = units[Math.max(0, units.length - keepRounds)];
  return {
    units,
    protectedStart: protectedStartOf(history, protectedPairs),
    freshStart,
    keepWholeStart: keepRounds <= 0 || !keepUnit ? history.length : keepUnit.start,
  };
}
