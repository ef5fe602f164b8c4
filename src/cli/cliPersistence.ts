// Optional session persistence for the CLI (--db / --session). SQLite is loaded only when asked for.
import type { ChatMessage } from '../core/messages';
import type { AgentEvent } from '../core/agent/events';
import type { CheckpointSink } from '../core/checkpoints/checkpointingFileSystem';
import type { CompressionReport } from '../core/compression/compressor';
import type { ContextState } from '../core/compression/view';
import { UsageError } from './args';
import { contextStateKey, decodeContextState, encodeContextState } from './storedContext';

export interface CliSession {
  id: string;
  history: ChatMessage[];
  onMessage(message: ChatMessage): Promise<void>;
  onEvent(event: AgentEvent): void;
  /** Eviction point and summary from the last run of this session (undefined for a new one). */
  contextState: ContextState | undefined;
  /**
   * Stores a compression: each compressed copy as a new version of its stored message (linked by
   * compressed_from, the original kept), the session summary, and the context state for `--session`.
   */
  onCompression(report: CompressionReport, state: ContextState | undefined): void;
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
  let contextState: ContextState | undefined;
  // Which stored row each message object is, so a compressed copy can be linked to its original.
  const rowIds = new WeakMap<ChatMessage, number>();
  if (id) {
    const existing = await store.getSession(id);
    if (!existing) {
      await store.close();
      throw new UsageError(`no session "${id}" in ${dbPath}; list them with: localharness sessions --db ${dbPath}`);
    }
    if (existing.status === 'interrupted') warn(`session ${id} was interrupted in the middle of a turn; continuing it.`);
    history = (await store.loadMessages(id)).map(({ id: rowId, role, content, thinking, toolCalls, toolCallId, toolName }) => {
      const message: ChatMessage = {
        role,
        content,
        ...(thinking && { thinking }),
        ...(toolCalls && { toolCalls }),
        ...(toolCallId && { toolCallId }),
        ...(toolName && { toolName }),
      };
      rowIds.set(message, rowId);
      return message;
    });
    const storedState = await store.getKv(contextStateKey(id));
    contextState = decodeContextState(storedState);
    if (storedState !== undefined && !contextState) warn(`the saved context state of session ${id} is unreadable; continuing from the whole stored history.`);
    await store.markActive(id);
  } else {
    id = (await store.createSession({ ...meta, title: meta.title.slice(0, 80) })).id;
  }
  const sid = id;
  // Audit rows are written from events; keep what the approval said until the result arrives.
  const approvals = new Map<string, string>();
  const pendingAudits: Array<Promise<unknown>> = [];
  const callArgs = new Map<string, unknown>();
  // Compressions are stored one after another, in the order they happened.
  let compressionWrites: Promise<void> = Promise.resolve();
  const storeCompression = async (report: CompressionReport, state: ContextState | undefined) => {
    for (const c of report.compressed) {
      const rowId = rowIds.get(c.original);
      if (rowId === undefined) continue; // never stored (cannot happen for messages that went through onMessage)
      const copyId = await store.updateMessage(rowId, {
        content: c.compressed.content,
        thinking: c.compressed.thinking ?? null,
        ...(c.compressed.toolCalls && { toolCalls: c.compressed.toolCalls }),
      });
      // A later update of the same message must replace the newest version.
      rowIds.set(c.original, copyId);
      rowIds.set(c.compressed, copyId);
    }
    if (report.summary) await store.setSummary(sid, report.summary);
    if (state) await store.setKv(contextStateKey(sid), encodeContextState(state));
  };
  return {
    id: sid,
    history,
    contextState,
    onMessage: async (message) => {
      rowIds.set(message, await store.appendMessage(sid, message));
    },
    onCompression: (report, state) => {
      compressionWrites = compressionWrites
        .then(() => storeCompression(report, state))
        .catch((e: Error) => warn(`could not store the compressed context: ${e.message}`));
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
      await compressionWrites;
      await store.close();
    },
  };
}
