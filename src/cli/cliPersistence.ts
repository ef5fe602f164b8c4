// Optional session persistence for the CLI (--db / --session). SQLite is loaded only when asked for.
import type { ChatMessage } from '../core/messages';
import type { AgentEvent } from '../core/agent/events';
import type { CheckpointSink } from '../core/checkpoints/checkpointingFileSystem';
import { UsageError } from './args';

export interface CliSession {
  id: string;
  history: ChatMessage[];
  onMessage(message: ChatMessage): Promise<void>;
  onEvent(event: AgentEvent): void;
  checkpoints: CheckpointSink;
  /** Per-model token calibration survives between runs. */
  kv: { get(key: string): Promise<string | undefined>; set(key: string, value: string): Promise<void> };
  beginTurn(): Promise<void>;
  endTurn(): Promise<void>;
  close(): Promise<void>;
}

export async function openCliSession(
  dbPath: string,
  sessionId: string | undefined,
  meta: { title: string; model: string; provider: string },
  warn: (message: string) => void,
): Promise<CliSession> {
  const { SessionStore } = await import('../persistence/sessionStore');
  const store = await SessionStore.open(dbPath);
  for (const notice of store.notices) warn(notice.message);
  let id = sessionId;
  let history: ChatMessage[] = [];
  if (id) {
    const existing = await store.getSession(id);
    if (!existing) {
      await store.close();
      throw new UsageError(`no session "${id}" in ${dbPath}; list them with: localharness sessions --db ${dbPath}`);
    }
    if (existing.status === 'interrupted') warn(`session ${id} was interrupted in the middle of a turn; continuing it.`);
    history = (await store.loadMessages(id)).map(({ role, content, thinking, toolCalls, toolCallId, toolName }) => ({
      role,
      content,
      ...(thinking && { thinking }),
      ...(toolCalls && { toolCalls }),
      ...(toolCallId && { toolCallId }),
      ...(toolName && { toolName }),
    }));
    await store.markActive(id);
  } else {
    id = (await store.createSession({ ...meta, title: meta.title.slice(0, 80) })).id;
  }
  const sid = id;
  // Audit rows are written from events; keep what the approval said until the result arrives.
  const approvals = new Map<string, string>();
  const pendingAudits: Array<Promise<unknown>> = [];
  const callArgs = new Map<string, unknown>();
  return {
    id: sid,
    history,
    onMessage: async (message) => {
      await store.appendMessage(sid, message);
    },
    onEvent: (event) => {
      if (event.type === 'tool_call') callArgs.set(event.id, event.arguments);
      if (event.type === 'approval_result') approvals.set(event.id, event.approved ? event.scope ?? 'once' : 'denied');
      if (event.type === 'tool_result') {
        pendingAudits.push(
          store
            .recordToolAudit({
              sessionId: sid,
              toolCallId: event.id,
              name: event.name,
              arguments: callArgs.get(event.id) ?? null,
              approval: approvals.get(event.id) ?? 'auto',
              durationMs: event.durationMs,
              outcome: event.denied ? 'denied' : event.ok ? 'ok' : 'error',
            })
            .catch((e: Error) => warn(`could not record the tool audit: ${e.message}`)),
        );
      }
    },
    kv: {
      get: async (key) => {
        const v = await store.getKv(key);
        return typeof v === 'string' ? v : undefined;
      },
      set: (key, value) => store.setKv(key, value),
    },
    checkpoints: { pushCheckpoint: (path, before) => store.pushCheckpoint(sid, path, before) },
    beginTurn: () => store.beginTurn(sid),
    endTurn: () => store.endTurn(sid),
    close: async () => {
      await Promise.all(pendingAudits);
      await store.close();
    },
  };
}
