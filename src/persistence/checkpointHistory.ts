// Turn checkpoints in the session database (migration 9): which user message each agent edit belongs to
// (file_checkpoints.message_id, the bytes before it), what each turn left (checkpoint_results), the size bound
// (oldest turns pruned first, across sessions) and rewinds that can be undone (rewinds, rewind_files).
import type { Clock } from '../core/ports';
import {
  isGitInternal,
  stateHash,
  type CheckpointHistoryPort,
  type FileState,
  type RestoreTarget,
  type RewoundFile,
  type StoredRewind,
  type TurnChange,
  type UserMessageRef,
} from '../core/checkpoints/history';
import { DEFAULT_CHECKPOINT_MB } from '../core/checkpoints/checkpointSettings';
import { PersistenceError } from './errors';
import type { JournalOp, SqlParam } from './journalFormat';
import type { JournaledDatabase, Row } from './journaledDatabase';
import { contextStateKey } from './storedContextState';
import { decodeBefore } from './checkpointCodec';

/** Default bound on the bytes kept for checkpoints in one database (all sessions together). */
export const DEFAULT_CHECKPOINT_LIMIT_BYTES = DEFAULT_CHECKPOINT_MB * 1024 * 1024;

interface RemovedConversation {
  messages: Row[];
  checkpointIds: number[];
  contextState: string | null;
  summary: Row | null;
}

export class SqlCheckpointHistory implements CheckpointHistoryPort {
  constructor(
    private readonly db: JournaledDatabase,
    private readonly clock: Clock,
  ) {}

  /**
   * What the agent left at each path at the end of its changes in the turn of `messageId` (a hash is enough), in one
   * transaction: the recorder collects them during the turn. Lost in a crash, they only make a restore more careful
   * (the agent's own result then looks like a change by the user).
   */
  recordResults(sessionId: string, messageId: number, results: ReadonlyMap<string, string>): void {
    const ops: JournalOp[] = [];
    for (const [path, hash] of results) {
      if (isGitInternal(path)) continue;
      ops.push([
        `INSERT INTO checkpoint_results (session_id, message_id, path, after_hash, kept) VALUES (?, ?, ?, ?, 0)
         ON CONFLICT (session_id, message_id, path) DO UPDATE SET after_hash = excluded.after_hash, kept = 0`,
        [sessionId, messageId, path, hash],
      ]);
    }
    this.db.write(ops);
  }

  /** The user message that starts a turn (what "restore to before message N" counts). */
  recordTurn(sessionId: string, messageId: number): void {
    this.db.write([['INSERT OR IGNORE INTO checkpoint_turns (session_id, message_id) VALUES (?, ?)', [sessionId, messageId]]]);
  }

  async restoreTargets(sessionId: string, messageId: number): Promise<RestoreTarget[]> {
    this.requireUserMessage(sessionId, messageId);
    const pruned = this.db.get('SELECT through_message_id FROM checkpoint_pruned WHERE session_id = ?', [sessionId]);
    if (pruned && Number(pruned.through_message_id) >= messageId) {
      throw new PersistenceError(
        'not-found',
        'The file checkpoints of that message were pruned (the checkpoint size bound keeps the newest turns only); pick a later message.',
      );
    }
    const rows = this.db.all('SELECT path, before, encoding FROM file_checkpoints WHERE session_id = ? AND message_id >= ? ORDER BY id', [sessionId, messageId]);
    const results = this.db.all('SELECT path, after_hash FROM checkpoint_results WHERE session_id = ? AND message_id >= ?', [sessionId, messageId]);
    const byPath = new Map<string, { state: FileState; known: Set<string> }>();
    for (const row of rows) {
      const path = String(row.path);
      if (isGitInternal(path)) continue;
      const state = decodeBefore(row);
      const entry = byPath.get(path) ?? { state, known: new Set<string>() };
      entry.known.add(stateHash(state));
      byPath.set(path, entry);
    }
    for (const row of results) byPath.get(String(row.path))?.known.add(String(row.after_hash));
    return [...byPath].map(([path, { state, known }]) => ({ path, state, known }));
  }

  async commitRewind(sessionId: string, messageId: number, files: readonly RewoundFile[]): Promise<void> {
    const target = this.requireUserMessage(sessionId, messageId);
    const messages = this.db.all('SELECT * FROM messages WHERE session_id = ? AND seq >= ? ORDER BY id', [sessionId, target.seq]);
    const checkpointIds = this.db
      .all('SELECT id FROM file_checkpoints WHERE session_id = ? AND message_id >= ? AND undone = 0', [sessionId, messageId])
      .map((r) => Number(r.id));
    const contextState = this.db.get('SELECT value FROM kv WHERE key = ?', [contextStateKey(sessionId)]);
    const summary = this.db.get('SELECT * FROM session_summaries WHERE session_id = ?', [sessionId]) ?? null;
    const removed: RemovedConversation = { messages, checkpointIds, contextState: contextState ? String(contextState.value) : null, summary };
    const id = this.nextRewindId();
    const now = this.clock.now();
    const ops: JournalOp[] = [
      // Only the newest rewind of a session can be undone: older ones need not keep their files.
      ['DELETE FROM rewind_files WHERE rewind_id IN (SELECT id FROM rewinds WHERE session_id = ?)', [sessionId]],
      ['UPDATE rewinds SET undone = 1 WHERE session_id = ?', [sessionId]],
      ['INSERT INTO rewinds (id, session_id, to_message_id, removed, created_at, undone) VALUES (?, ?, ?, ?, ?, 0)', [id, sessionId, messageId, JSON.stringify(removed), now]],
      ...files.map((f): JournalOp => [
        'INSERT INTO rewind_files (rewind_id, path, before, existed, after_hash) VALUES (?, ?, ?, ?, ?)',
        [id, f.path, f.before, f.before ? 1 : 0, f.afterHash],
      ]),
      ['DELETE FROM messages WHERE session_id = ? AND seq >= ?', [sessionId, target.seq]],
      ['DELETE FROM kv WHERE key = ?', [contextStateKey(sessionId)]],
      ['DELETE FROM session_summaries WHERE session_id = ?', [sessionId]],
      // The undo stack must not hand back edits of turns that no longer exist.
      ['UPDATE file_checkpoints SET undone = 1 WHERE session_id = ? AND message_id >= ?', [sessionId, messageId]],
      ['UPDATE sessions SET updated_at = ? WHERE id = ?', [now, sessionId]],
    ];
    this.db.write(ops);
  }

  async latestRewind(sessionId: string): Promise<StoredRewind | undefined> {
    const row = this.db.get('SELECT * FROM rewinds WHERE session_id = ? AND undone = 0 ORDER BY id DESC LIMIT 1', [sessionId]);
    if (!row) return undefined;
    const files = this.db.all('SELECT * FROM rewind_files WHERE rewind_id = ? ORDER BY path', [row.id]).map(
      (f): RewoundFile => ({ path: String(f.path), before: Number(f.existed) === 1 ? bytesOf(f.before) : null, afterHash: String(f.after_hash) }),
    );
    const rewind: StoredRewind = { id: Number(row.id), toMessageId: Number(row.to_message_id), files };
    // Ids only grow: a message newer than everything the rewind removed means the conversation went on after it.
    const removed = JSON.parse(String(row.removed)) as RemovedConversation;
    const newestRemoved = Math.max(0, ...removed.messages.map((m) => Number(m.id)));
    const after = this.db.get('SELECT COUNT(*) AS n FROM messages WHERE session_id = ? AND id > ?', [sessionId, newestRemoved]);
    if (Number(after?.n ?? 0) > 0) rewind.blocked = 'the conversation went on after the restore, so it cannot be undone';
    return rewind;
  }

  async commitUndoRewind(sessionId: string, rewindId: number): Promise<void> {
    const row = this.db.get('SELECT * FROM rewinds WHERE id = ? AND session_id = ? AND undone = 0', [rewindId, sessionId]);
    if (!row) throw new PersistenceError('not-found', `No restore ${rewindId} to undo in session ${sessionId}.`);
    const removed = JSON.parse(String(row.removed)) as RemovedConversation;
    const ops: JournalOp[] = removed.messages.map((m) => insertRow('messages', m));
    if (removed.contextState !== null) {
      ops.push([
        'INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
        [contextStateKey(sessionId), removed.contextState, this.clock.now()],
      ]);
    }
    if (removed.summary) ops.push(['DELETE FROM session_summaries WHERE session_id = ?', [sessionId]], insertRow('session_summaries', removed.summary));
    for (const id of removed.checkpointIds) ops.push(['UPDATE file_checkpoints SET undone = 0 WHERE id = ?', [id]]);
    ops.push(['UPDATE rewinds SET undone = 1 WHERE id = ?', [rewindId]], ['DELETE FROM rewind_files WHERE rewind_id = ?', [rewindId]]);
    ops.push(['UPDATE sessions SET updated_at = ? WHERE id = ?', [this.clock.now(), sessionId]]);
    this.db.write(ops);
  }

  async userMessages(sessionId: string): Promise<UserMessageRef[]> {
    const rows = this.db.all(
      `SELECT m.id, m.content, m.created_at,
         (SELECT COUNT(*) FROM checkpoint_results r WHERE r.session_id = m.session_id AND r.message_id = m.id) AS changed
       FROM messages m WHERE m.session_id = ? AND m.role = 'user' AND m.compressed_from IS NULL AND m.display_only = 0 ${this.turnFilter(sessionId)}
       ORDER BY m.seq, m.id`,
      [sessionId],
    );
    return rows.map((r, i) => ({ id: Number(r.id), number: i + 1, text: String(r.content), createdAt: Number(r.created_at), changedFiles: Number(r.changed) }));
  }

  async turnChanges(sessionId: string, messageId: number): Promise<TurnChange[]> {
    const rows = this.db.all('SELECT path, before, encoding FROM file_checkpoints WHERE session_id = ? AND message_id = ? ORDER BY id', [sessionId, messageId]);
    const results = new Map(
      this.db.all('SELECT path, after_hash, kept FROM checkpoint_results WHERE session_id = ? AND message_id = ?', [sessionId, messageId]).map((r) => [String(r.path), r]),
    );
    const seen = new Map<string, TurnChange>();
    for (const row of rows) {
      const path = String(row.path);
      if (seen.has(path) || isGitInternal(path)) continue;
      const result = results.get(path);
      seen.set(path, { path, before: decodeBefore(row), afterHash: result ? String(result.after_hash) : undefined, kept: Number(result?.kept ?? 0) === 1 });
    }
    return [...seen.values()];
  }

  async markKept(sessionId: string, messageId: number, path?: string): Promise<void> {
    this.db.write([
      path === undefined
        ? ['UPDATE checkpoint_results SET kept = 1 WHERE session_id = ? AND message_id = ?', [sessionId, messageId]]
        : ['UPDATE checkpoint_results SET kept = 1 WHERE session_id = ? AND message_id = ? AND path = ?', [sessionId, messageId, path]],
    ]);
  }

  /** Bytes the checkpoints hold now (file contents before edits, and the newest rewinds' saved files). */
  storedBytes(): number {
    const a = this.db.get('SELECT COALESCE(SUM(stored_bytes), 0) AS n FROM file_checkpoints');
    const b = this.db.get('SELECT COALESCE(SUM(length(before)), 0) AS n FROM rewind_files');
    return Number(a?.n ?? 0) + Number(b?.n ?? 0);
  }

  /**
   * Keeps the checkpoints under `limitBytes`: drops whole turns, oldest first (in any session), and remembers per
   * session up to which message restoring is no longer possible. Returns how many turns were dropped.
   */
  prune(limitBytes: number): number {
    let dropped = 0;
    let total = this.storedBytes();
    while (total > limitBytes) {
      const oldest = this.db.get('SELECT session_id, message_id FROM file_checkpoints ORDER BY id LIMIT 1');
      if (!oldest) break;
      const sessionId = String(oldest.session_id);
      const messageId = oldest.message_id === null ? null : Number(oldest.message_id);
      const where: [string, SqlParam[]] =
        messageId === null ? ['session_id = ? AND message_id IS NULL', [sessionId]] : ['session_id = ? AND (message_id IS NULL OR message_id <= ?)', [sessionId, messageId]];
      const ops: JournalOp[] = [[`DELETE FROM file_checkpoints WHERE ${where[0]}`, where[1]]];
      if (messageId !== null) {
        ops.push(
          [`DELETE FROM checkpoint_results WHERE session_id = ? AND message_id <= ?`, [sessionId, messageId]],
          [
            `INSERT INTO checkpoint_pruned (session_id, through_message_id) VALUES (?, ?)
             ON CONFLICT (session_id) DO UPDATE SET through_message_id = MAX(through_message_id, excluded.through_message_id)`,
            [sessionId, messageId],
          ],
        );
      }
      this.db.write(ops);
      dropped++;
      const next = this.storedBytes();
      if (next >= total) break;
      total = next;
    }
    return dropped;
  }

  /** Everything of one session (deleteSession). */
  deleteOps(sessionId: string): JournalOp[] {
    return [
      ['DELETE FROM rewind_files WHERE rewind_id IN (SELECT id FROM rewinds WHERE session_id = ?)', [sessionId]],
      ['DELETE FROM rewinds WHERE session_id = ?', [sessionId]],
      ['DELETE FROM checkpoint_results WHERE session_id = ?', [sessionId]],
      ['DELETE FROM checkpoint_pruned WHERE session_id = ?', [sessionId]],
      ['DELETE FROM checkpoint_turns WHERE session_id = ?', [sessionId]],
    ];
  }

  /** Sessions recorded since turns are marked count only turn messages; older ones every user message. */
  private turnFilter(sessionId: string): string {
    const marked = this.db.get('SELECT 1 AS found FROM checkpoint_turns WHERE session_id = ? LIMIT 1', [sessionId]);
    return marked ? 'AND m.id IN (SELECT message_id FROM checkpoint_turns t WHERE t.session_id = m.session_id)' : '';
  }

  private requireUserMessage(sessionId: string, messageId: number): { seq: number } {
    if (!Number.isSafeInteger(messageId)) throw new PersistenceError('invalid-input', 'A message id must be an integer.');
    const row = this.db.get("SELECT seq, role FROM messages WHERE id = ? AND session_id = ?", [messageId, sessionId]);
    if (!row) throw new PersistenceError('not-found', `No message ${messageId} in session ${sessionId}.`);
    if (row.role !== 'user') throw new PersistenceError('invalid-input', `Message ${messageId} is not one the user sent.`);
    return { seq: Number(row.seq) };
  }

  private nextRewindId(): number {
    const row = this.db.get(
      "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'rewinds'), 0), COALESCE((SELECT MAX(id) FROM rewinds), 0)) + 1 AS next",
    );
    return Number(row?.next ?? 1);
  }
}

function bytesOf(value: Row[string]): Uint8Array {
  if (value instanceof Uint8Array) return value;
  return new Uint8Array(0);
}

/** Re-inserts a row exactly as it was read (no BLOB columns in these tables). */
function insertRow(table: 'messages' | 'session_summaries', row: Row): JournalOp {
  const columns = Object.keys(row).filter((c) => /^[a-z_]+$/.test(c));
  return [`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, columns.map((c) => row[c] as SqlParam)];
}
