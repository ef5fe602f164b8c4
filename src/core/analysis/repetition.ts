// Detects a model stuck calling the same tool with the same arguments over and over.
import type { ToolCall } from '../messages';

export type RepetitionVerdict =
  | { kind: 'ok' }
  /** The threshold was reached: tell the model. */
  | { kind: 'warn'; name: string; count: number }
  /** It went on after the warning: stop the turn. */
  | { kind: 'stop'; name: string; count: number };

export class RepetitionDetector {
  private lastKey: string | undefined;
  private lastName = '';
  private count = 0;

  /** @param threshold identical calls in a row that trigger the warning (the next one stops). */
  constructor(private readonly threshold = 3) {}

  reset(): void {
    this.lastKey = undefined;
    this.count = 0;
  }

  /** Feed the calls of one reply, in order. Parallel identical calls count as repeats too. */
  observe(calls: readonly ToolCall[]): RepetitionVerdict {
    let verdict: RepetitionVerdict = { kind: 'ok' };
    for (const call of calls) {
      const key = callKey(call);
      if (key === this.lastKey) this.count++;
      else {
        this.lastKey = key;
        this.lastName = call.name;
        this.count = 1;
      }
      if (this.count > this.threshold) return { kind: 'stop', name: this.lastName, count: this.count };
      if (this.count === this.threshold) verdict = { kind: 'warn', name: this.lastName, count: this.count };
    }
    return verdict;
  }
}

/** Name plus arguments with sorted keys, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call. */
export function callKey(call: ToolCall): string {
  let args: unknown = call.arguments;
  if (typeof call.arguments === 'string') {
    const raw = call.arguments.trim();
    try {
      args = JSON.parse(raw || '{}');
    } catch {
      args = raw;
    }
  }
  return `${call.name}\u0000${stableStringify(args)}`;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
