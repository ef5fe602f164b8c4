// Records one conversation into a SessionStore while an AgentSession runs it: every message the moment it
// exists, the tool audit (from events), file checkpoints (the undo stack), per-model calibration, compressed
// copies (linked to their stored originals) and the context state. The CLI and the editor both use it.
import type { ChatMessage } from '../core/messages';
import type { AgentEvent } from '../core/agent/events';
import type { CheckpointSink } from '../core/checkpoints/checkpointingFileSystem';
import type { CompressionReport } from '../core/compression/compressor';
import type { ContextState } from '../core/compression/view';
import type { KeyValuePort } from '../core/window/calibration';
import type { VectorCachePort } from '../core/embeddings';
import { PersistenceError } from './errors';
import { isGitInternal, stateHash } from '../core/checkpoints/history';
import { DEFAULT_CHECKPOINT_LIMIT_BYTES } from './checkpointHistory';
import { kvPortOf } from './kvPort';
import { INTERRUPTED_RESULT, answerUnansweredCalls } from './unansweredCalls';
import type { SessionStore } from './sessionStore';
import { contextStateKey, decodeContextState, encodeContextState } from './storedContextState';
import { decodePlanRuns, PlanRunLog, planRunsKey, type PlanRun } from './planRuns';
import type { SessionInfo, StoredMessage } from './types';

export interface SessionMeta {
  title: string;
  model: string;
  provider: string;
}

export interface RecorderOptions {
  /** Continue this stored session; absent: a new session is created from `meta`. */
  sessionId?: string;
  /**
   * The session's messages as loadMessages returns them, when the caller has just read them (the editor reads
   * a session once for the panel and the model); absent, they are read here.
   */
  current?: readonly StoredMessage[];
  meta: SessionMeta;
  /** Things the user should hear about (an interrupted session, an unreadable context state, a failed write). */
  warn: (message: string) => void;
  /** Bound on the bytes all checkpoints in the database may hold; the oldest turns are pruned after each turn. */
  checkpointLimitBytes?: number;
  /**
   * When set, a failed message write is reported here and the turn goes on (the editor: the conversation
   * matters more than its copy on disk). Unset, the write's error propagates and stops the turn (the CLI).
   */
  onWriteError?: (err: unknown) => void;
}

export interface SessionRecorder {
  readonly id: string;
  /** The stored session as it was when recording started. */
  readonly info: SessionInfo;
  /** The conversation as the model should see it now (compressed copies in place of originals). */
  readonly history: ChatMessage[];
  /** Eviction point and summary from the last run of this session (undefined for a new one). */
  readonly contextState: ContextState | undefined;
  /** The session was interrupted in the middle of a turn the last time it ran. */
  readonly interrupted: boolean;
  /** Planned runs (plan, step records, how each ended), oldest first; kept current as events arrive. */
  readonly planRuns: readonly PlanRun[];
  onMessage(message: ChatMessage): Promise<void>;
  /** The harness added context to a message already saved (just before the request that first carried it). */
  onMessageContext(message: ChatMessage): Promise<void>;
  onEvent(event: AgentEvent): void;
  /**
   * Stores a compression: each compressed copy as a new version of its stored message (linked by
   * compressed_from, the original kept), the session summary, and the context state.
   */
  onCompression(report: CompressionReport, state: ContextState | undefined): void;
  readonly checkpoints: CheckpointSink;
  /** Per-model token calibration survives between runs. */
  readonly kv: KeyValuePort;
  /** Embedding vectors (tool selection, workspace index) survive between runs. */
  readonly vectors: VectorCachePort;
  beginTurn(): Promise<void>;
  endTurn(): Promise<void>;
  /** The stored row a message object was saved as (its newest version), if any. */
  rowIdOf(message: ChatMessage): number | undefined;
  /** The stored row of the user message whose turn runs (or ran last); undefined before the first turn. */
  readonly turnMessageId: number | undefined;
  /** Waits for the writes still running in the background (tool audit, compressions). */
  settle(): Promise<void>;
  /**
   * Stores an "interrupted" result for every tool call still without one. Synchronous up to the journal write, so
   * an exit handler can call it just before the process ends.
   */
  answerOpenCalls(): void;
}

/** Throws PersistenceError('not-found') when `sessionId` names no stored session. */
export async function startRecording(store: SessionStore, options: RecorderOptions): Promise<SessionRecorder> {
  const { warn } = options;
  // Which stored row each message object is, so a compressed copy can be linked to its original.
  const rowIds = new WeakMap<ChatMessage, number>();
  let history: ChatMessage[] = [];
  let contextState: ContextState | undefined;
  let info: SessionInfo;
  let interrupted = false;
  let storedRuns: PlanRun[] = [];
  if (options.sessionId !== undefined) {
    const existing = await store.getSession(options.sessionId);
    if (!existing) throw new PersistenceError('not-found', `No session with id ${options.sessionId}.`);
    info = existing;
    interrupted = existing.status === 'interrupted';
    const rows = options.current ?? (await store.loadMessages(existing.id));
    const stored = rows.map((row) => {
      const message = toChatMessage(row);
      rowIds.set(message, row.id);
      return message;
    });
    history = await answerStoredCalls(store, existing.id, stored, rowIds, warn);
    storedRuns = decodePlanRuns(await store.getKv(planRunsKey(existing.id)));
    const storedState = await store.getKv(contextStateKey(existing.id));
    contextState = decodeContextState(storedState);
    if (storedState !== undefined && !contextState) {
      warn(`the saved context state of session ${existing.id} is unreadable; continuing from the whole stored history.`);
    }
    if (interrupted) {
      // A read-only store (another window writes) cannot clear the mark; the writer will.
      await store.markActive(existing.id).catch((err: unknown) => {
        if (!(err instanceof PersistenceError && err.code === 'read-only')) throw err;
      });
    }
  } else {
    info = await store.createSession({ ...options.meta, title: cleanTitle(options.meta.title) });
  }
  const sid = info.id;

  // Audit rows are written from events; keep what the approval said until the result arrives.
  const approvals = new Map<string, string>();
  const callArgs = new Map<string, unknown>();
  const pendingAudits = new Set<Promise<unknown>>();
  // Compressions are stored one after another, in the order they happened.
  let compressionWrites: Promise<void> = Promise.resolve();
  let messageCount = history.length;
  // The user message whose turn is running: every checkpoint of the turn is filed under it.
  let turnMessageId: number | undefined;
  let awaitingTurnMessage = false;
  const checkpointHistory = store.checkpointHistory;
  const turnOf = (path: string) => (isGitInternal(path) ? undefined : turnMessageId);
  // What each change left, by turn: written at the end of the turn in one transaction (one fsync, not one per file).
  const results = new Map<number, Map<string, string>>();
  const storeResults = () => {
    for (const [messageId, byPath] of results) checkpointHistory.recordResults(sid, messageId, byPath);
    results.clear();
  };
  // Calls of the last assistant reply still waiting for their results.
  const openCalls = new Map<string, string>();
  let planWrites: Promise<void> = Promise.resolve();
  const planRuns = new PlanRunLog(storedRuns, () => messageCount, (runs) => {
    const text = JSON.stringify(runs);
    planWrites = planWrites.then(() => store.setKv(planRunsKey(sid), text)).catch((e: Error) => warn(`could not store the planned run: ${e.message}`));
  });

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
    info,
    history,
    contextState,
    interrupted,
    get planRuns() {
      return planRuns.all;
    },
    onMessage: async (message) => {
      messageCount++;
      if (message.role === 'assistant' && message.toolCalls?.length) {
        openCalls.clear();
        for (const call of message.toolCalls) openCalls.set(call.id, call.name);
      } else if (message.role === 'tool' && message.toolCallId) {
        openCalls.delete(message.toolCallId);
      }
      try {
        const rowId = await store.appendMessage(sid, message);
        rowIds.set(message, rowId);
        if (awaitingTurnMessage && message.role === 'user') {
          turnMessageId = rowId;
          awaitingTurnMessage = false;
          checkpointHistory.recordTurn(sid, rowId);
        }
      } catch (err) {
        if (!options.onWriteError) throw err;
        options.onWriteError(err);
      }
    },
    onMessageContext: async (message) => {
      const row = rowIds.get(message);
      if (row === undefined) return;
      try {
        await store.setMessageContext(row, message.context);
      } catch (err) {
        if (!options.onWriteError) throw err;
        options.onWriteError(err);
      }
    },
    onCompression: (report, state) => {
      compressionWrites = compressionWrites
        .then(() => storeCompression(report, state))
        .catch((e: Error) => warn(`could not store the compressed context: ${e.message}`));
    },
    onEvent: (event) => {
      planRuns.onEvent(event);
      if (event.type === 'tool_call') callArgs.set(event.id, event.arguments);
      if (event.type === 'approval_result') approvals.set(event.id, event.approved ? (event.scope ?? 'once') : 'denied');
      if (event.type === 'tool_result') {
        const write = store
          .recordToolAudit({
            sessionId: sid,
            toolCallId: event.id,
            name: event.name,
            arguments: callArgs.get(event.id) ?? null,
            approval: approvals.get(event.id) ?? 'auto',
            durationMs: event.durationMs,
            outcome: event.denied ? 'denied' : event.ok ? 'ok' : 'error',
          })
          .catch((e: Error) => warn(`could not record the tool audit: ${e.message}`))
          .finally(() => pendingAudits.delete(write));
        pendingAudits.add(write);
        callArgs.delete(event.id);
        approvals.delete(event.id);
      }
    },
    kv: kvPortOf(store),
    vectors: store.vectors,
    checkpoints: {
      pushCheckpoint: (path, before) => store.pushCheckpoint(sid, path, before, turnOf(path)),
      pushCheckpoints: (entries) => store.pushCheckpoints(sid, entries, entries.length > 0 ? turnOf(entries[0]!.path) : undefined),
      recordResult: async (path, after) => {
        const messageId = turnOf(path);
        if (messageId === undefined) return;
        const byPath = results.get(messageId) ?? new Map<string, string>();
        byPath.set(path, stateHash(after));
        results.set(messageId, byPath);
      },
    },
    beginTurn: async () => {
      awaitingTurnMessage = true;
      await store.beginTurn(sid);
    },
    endTurn: async () => {
      awaitingTurnMessage = false;
      await store.endTurn(sid);
      try {
        storeResults();
      } catch (e) {
        warn(`could not store what the turn changed: ${(e as Error).message}`);
      }
      try {
        checkpointHistory.prune(options.checkpointLimitBytes ?? DEFAULT_CHECKPOINT_LIMIT_BYTES);
      } catch (e) {
        warn(`could not prune old checkpoints: ${(e as Error).message}`);
      }
    },
    rowIdOf: (message) => rowIds.get(message),
    get turnMessageId() {
      return turnMessageId;
    },
    answerOpenCalls: () => {
      for (const [id, name] of [...openCalls]) {
        openCalls.delete(id);
        // appendMessage writes the journal before its first await.
        store.appendMessage(sid, { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: id, toolName: name }).catch((e: Error) => warn(`could not store the interrupted result: ${e.message}`));
      }
    },
    settle: async () => {
      try {
        storeResults();
      } catch (e) {
        warn(`could not store what the turn changed: ${(e as Error).message}`);
      }
      await Promise.all([...pendingAudits]);
      await compressionWrites;
      await planWrites;
    },
  };
}

/**
 * Gives every call without a result an "interrupted" one (unansweredCalls.ts). Those at the end are stored, so the
 * session is whole on disk again; any in the middle (a turn sent after a broken one) are added on every load.
 */
async function answerStoredCalls(
  store: SessionStore,
  sessionId: string,
  stored: ChatMessage[],
  rowIds: WeakMap<ChatMessage, number>,
  warn: (message: string) => void,
): Promise<ChatMessage[]> {
  const { history, added, atTail } = answerUnansweredCalls(stored);
  if (added.length === 0) return stored;
  warn(`${added.length} tool call(s) of session ${sessionId} had no result (the session stopped while they ran); each now says it was interrupted.`);
  for (const message of added.slice(added.length - atTail)) {
    try {
      rowIds.set(message, await store.appendMessage(sessionId, message));
    } catch (err) {
      // Read-only (another window writes this session): the result still goes to the model, from memory.
      if (!(err instanceof PersistenceError && err.code === 'read-only')) throw err;
    }
  }
  return history;
}

export function toChatMessage(row: StoredMessage): ChatMessage {
  const { role, content, context, attachments, images, thinking, toolCalls, toolCallId, toolName } = row;
  return {
    role,
    content,
    ...(context && { context }),
    ...(attachments?.length && { attachments }),
    ...(images?.length && { images }),
    ...(thinking && { thinking }),
    ...(toolCalls && { toolCalls }),
    ...(toolCallId && { toolCallId }),
    ...(toolName && { toolName }),
  };
}

/** A session title: the first line of the task, short enough for a list. */
export function cleanTitle(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  const title = line.length > 80 ? `${line.slice(0, 79)}…` : line;
  return title || 'Untitled session';
}
