// The request fields of Ollama's /api/chat that depend on the model or the server's version: `think` (on/off, or
// gpt-oss's effort level), `truncate`/`shift` (refuse an overflow instead of cutting the prompt, with a way back for
// servers that reject them), and `keep_alive` read as a duration.
import type { ChatRequest } from '../core/provider';
import { effortForBudget, thinksInLevels, type ReasoningEffort } from '../core/reasoningModels';

/** `think`: on/off, or gpt-oss's effort level (it cannot switch thinking off; its lowest level fits a budget). */
export function thinkField(request: ChatRequest): boolean | ReasoningEffort | undefined {
  if (!thinksInLevels(request.model)) return request.think;
  if (request.think === false) return 'low';
  return request.thinkingBudget !== undefined ? effortForBudget(request.thinkingBudget) : request.think;
}

/** Ollama's `keep_alive` in ms: a number is seconds, a string a Go duration ("30m", "1h30m", "300ms"); negative is forever. */
export function keepAliveMs(value: string | number): number {
  if (typeof value === 'number') return value < 0 ? Infinity : value * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...value.trim().matchAll(/(-?\d+(?:\.\d+)?)(ms|s|m|h)?/g)];
  if (parts.length === 0) return Infinity; // unknown: never assume the model was unloaded
  let ms = 0;
  for (const [, n, unit] of parts) ms += Number(n) * units[unit ?? 's']!;
  return ms < 0 ? Infinity : ms;
}

export const OVERFLOW_FIELDS = { truncate: false, shift: false } as const;

/** A 400 that names the overflow fields: the server does not take them (Ollama itself ignores unknown fields). */
export function rejectsOverflowFields(err: unknown): boolean {
  // The ollama client's ResponseError has status_code; serverWordsFetch's ProviderError keeps it in options.status.
  const e = err as { status_code?: unknown; options?: { status?: unknown } } | null;
  const status = e?.status_code ?? e?.options?.status;
  return err instanceof Error && status === 400 && /\b(truncate|shift)\b/i.test(err.message) && !/context length/i.test(err.message);
}

export function withoutOverflowFields<T extends object>(body: T): T {
  const { truncate: _t, shift: _s, ...rest } = body as T & { truncate?: unknown; shift?: unknown };
  return rest as T;
}
