// The context-window state of a stored session (eviction point and running summary), kept in the store's
// key/value table so a continued session starts from the prompt the model last saw instead of the whole
// history again. A malformed value is ignored: the session then starts from its full stored history.
import { z } from 'zod';
import type { ContextState } from '../core/compression/view';

export function contextStateKey(sessionId: string): string {
  return `contextState:${sessionId}`;
}

const stateSchema = z.object({
  evictedThrough: z.number().int().min(0),
  evictedCheck: z.array(z.string()).optional(),
  summary: z
    .object({
      lines: z.array(z.string()),
      omitted: z.number().int().min(0),
      files: z.array(z.tuple([z.string(), z.enum(['read', 'modified', 'moved'])])),
      // Added later: states stored before these fields still load.
      requests: z.array(z.string()).optional(),
      todos: z.array(z.object({ text: z.string(), status: z.enum(['pending', 'in_progress', 'done']) })).optional(),
    })
    .optional(),
});

export function encodeContextState(state: ContextState): string {
  return JSON.stringify(state);
}

export function decodeContextState(stored: unknown): ContextState | undefined {
  if (typeof stored !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return undefined;
  }
  const parsed = stateSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { evictedThrough, evictedCheck, summary } = parsed.data;
  return { evictedThrough, ...(evictedCheck && { evictedCheck }), ...(summary && { summary }) };
}
