// Reading a snapshot without validating every item up front. A snapshot is the host's whole chat state, built
// by our own extension; validating a 10,000-item one item by item with zod took 50–400 ms before the panel
// could show anything, while only the newest few dozen items are rendered at first. So the envelope (seq,
// busy, status, context, ids, chips) is validated strictly here, each item only for the shape the reducer and
// the view's bookkeeping rely on (an object with a known kind and an id), and every item in full, with
// ChatItemSchema, right before it is rendered (views/itemView.ts). Nothing unvalidated reaches the DOM, and
// markdown is sanitized at render time as always. Every other message goes through parseHostMessage.
import * as z from 'zod/mini';
import type { ChatItem, HostToWebview } from '../src/shared/protocol';
import { ChatViewStateSchema, describeIssues, summarizeMessage } from '../src/shared/protocol';
import { readHostMessage } from './host';

/** As ChatViewStateSchema's items. */
const MAX_ITEMS = 100_000;
const KINDS: ReadonlySet<unknown> = new Set<ChatItem['kind']>(['user', 'assistant', 'tool', 'notice', 'error']);

/** What the reducer and the conversation view touch before an item is rendered (and validated in full). */
export function hasItemShape(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { kind, id } = value as { kind?: unknown; id?: unknown };
  return KINDS.has(kind) && typeof id === 'string' && id.length > 0 && id.length <= 200;
}

const ItemsShape = z.custom<ChatItem[]>(
  (v) => Array.isArray(v) && v.length <= MAX_ITEMS && v.every(hasItemShape),
  `items must be a list of at most ${MAX_ITEMS} chat items, each an object with a known kind and an id`,
);

const SnapshotEnvelopeSchema = z.object({
  type: z.literal('snapshot'),
  seq: z.int().check(z.nonnegative()),
  state: z.extend(ChatViewStateSchema, { items: ItemsShape }),
  older: z.optional(z.int().check(z.nonnegative())),
});

/** parseHostMessage, except that a snapshot's items are checked for shape only (see above). */
export function readHostMessageLazily(data: unknown, log: (line: string) => void = (l) => console.warn(l)): HostToWebview | undefined {
  if (!data || typeof data !== 'object' || (data as { type?: unknown }).type !== 'snapshot') return readHostMessage(data, log);
  const parsed = SnapshotEnvelopeSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  log(`[localharness] dropped an invalid message from the host (${summarizeMessage(data)}): ${describeIssues(parsed.error)}`);
  return undefined;
}
