// When the chat's session must be rebuilt: the key is the build itself, serialised. Every plain value of the
// SessionBuild (the builder's settings, the model, the environment line, the recording's id, the planner's models)
// is in it, so a setting that reaches the session changes the key without being listed anywhere. Left out: the
// conversation (it carries over to the rebuilt session) and the live objects (gate, runner, providers...), which
// are new objects each turn or the same for the whole chat; `live` names what identifies those that matter.
import type { SessionBuild } from '../../builder/buildSession';

/** Carried over to the new session, so no reason to build one. */
const CONVERSATION: ReadonlySet<string> = new Set<keyof SessionBuild>(['history', 'contextState']);

/**
 * `live`: plain data that identifies the live objects of the build (the settings the provider was made from, the
 * planner's servers, the workspace folders).
 */
export function rebuildKey(build: SessionBuild, live: Record<string, unknown>): string {
  const data = Object.fromEntries(Object.entries(build).filter(([key]) => !CONVERSATION.has(key)));
  return JSON.stringify([plainData(data), plainData(live)]);
}

/** Plain objects with their keys sorted, arrays and primitives; functions and class instances are dropped. */
function plainData(value: unknown): unknown {
  if (typeof value === 'function') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => plainData(item) ?? null);
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(value).sort()) {
    const item = plainData((value as Record<string, unknown>)[key]);
    if (item !== undefined) entries.push([key, item]);
  }
  return Object.fromEntries(entries);
}
