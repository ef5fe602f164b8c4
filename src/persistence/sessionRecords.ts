// What the store records around a conversation: running summaries, the tool audit trail, the undo
// stack of file checkpoints, and a small key/value table. SessionStore builds on this.
import type { JournalOp } from './journalFormat';
import type { Clock } from '../core/ports';
import { PersistenceError } from './errors';
import type { JournaledDatabase } from './journaledDatabase';
import { rowToAudit, rowToCheckpoint } from './rows';
import type { Checkpoint, JsonValue, SessionSummary, ToolAuditEntry, ToolAuditInput } from './types';
import { checkAudit, checkKey, checkPath, encodeJsonValue } from './validate';
import { encodeBefore } from './checkpointCodec';

export abstract class SessionRecords {
  protected constructor(
    protected readonly db: JournaledDatabase,
    protected readonly clock: Clock,
  ) {}

  /** Throws not-found for an unknown session. */
  protected abstract requireSession(id: string): void;

  async setSummary(sessionId: string, summary: { text: string; filesTouched?: readonly string[] }): Promise<void> {
    if (typeof summary?.text !== 'string') throw new PersistenceError('invalid-input', 'A summary needs a string "text".');
    const files = summary.filesTouched ?? [];
    if (!Array.isArray(files) || !files.every((f) => typeof f === 'string')) {
      throw new PersistenceError('invalid-input', 'A summary "filesTouched" must be a list of paths.');
    }
    this.requireSession(sessionId);
    const now = this.clock.now();
    this.db.write([
      [
        `INSERT INTO session_summaries (session_id, text, files_touched, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET text = excluded.text, files_touched = excluded.files_touched, updated_at = excluded.updated_at`,
        [sessionId, summary.text, JSON.stringify([...new Set(files)]), now],
      ],
    ]);
  }

  async getSummary(sessionId: string): Promise<SessionSummary | undefined> {
    const row = this.db.get('SELECT text, files_touched, updated_at FROM session_summaries WHERE session_id = ?', [sessionId]);
    if (!row) return undefined;
    return { text: String(row.text), filesTouched: JSON.parse(String(row.files_touched)) as string[], updatedAt: Number(row.updated_at) };
  }

  async recordToolAudit(entry: ToolAuditInput): Promise<number> {
    checkAudit(entry);
    this.requireSession(entry.sessionId);
    const id = this.nextId('tool_audit');
    this.db.write([
      [
        `INSERT INTO tool_audit (id, session_id, tool_call_id, name, arguments, approval, duration_ms, outcome, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          entry.sessionId,
          entry.toolCallId,
          entry.name,
          // Stored as JSON of whatever the model sent, so a string stays a string on the way back.
          JSON.stringify(entry.arguments ?? null) ?? 'null',
          entry.approval,
          Math.round(entry.durationMs),
          entry.outcome,
          this.clock.now(),
        ],
      ],
    ]);
    return id;
  }

  async listToolAudit(sessionId: string): Promise<ToolAuditEntry[]> {
    return this.db.all('SELECT * FROM tool_audit WHERE session_id = ? ORDER BY id', [sessionId]).map(rowToAudit);
  }

  /**
   * Remembers a file's content before an agent edit; `before` is null when the edit creates the file. Bytes are kept
   * exactly (a Latin-1 or CRLF file comes back as it was); `messageId` is the user message whose turn made the edit.
   */
  async pushCheckpoint(sessionId: string, path: string, before: string | Uint8Array | null, messageId?: number): Promise<number> {
    const [id] = await this.pushCheckpointRows(sessionId, [{ path, before }], messageId, false);
    return id!;
  }

  /** Files one operation changed together (a move): one undo step restores them all. Returns their ids. */
  async pushCheckpoints(sessionId: string, entries: ReadonlyArray<{ path: string; before: string | Uint8Array | null }>, messageId?: number): Promise<number[]> {
    return this.pushCheckpointRows(sessionId, entries, messageId, true);
  }

  private async pushCheckpointRows(
    sessionId: string,
    entries: ReadonlyArray<{ path: string; before: string | Uint8Array | null }>,
    messageId: number | undefined,
    grouped: boolean,
  ): Promise<number[]> {
    if (entries.length === 0) return [];
    for (const entry of entries) {
      checkPath(entry.path);
      if (entry.before !== null && typeof entry.before !== 'string' && !(entry.before instanceof Uint8Array)) {
        throw new PersistenceError('invalid-input', 'A checkpoint "before" must be the file content or null.');
      }
    }
    if (messageId !== undefined && !Number.isSafeInteger(messageId)) throw new PersistenceError('invalid-input', 'A checkpoint message id must be an integer.');
    const stored = await Promise.all(entries.map((entry) => (entry.before instanceof Uint8Array ? encodeBefore(entry.before) : { stored: entry.before, encoding: null })));
    // After the compression (it yields): the session may have gone and another checkpoint may have taken the next id
    // meanwhile. From here on nothing yields.
    this.requireSession(sessionId);
    const first = this.nextId('file_checkpoints');
    const now = this.clock.now();
    const ids = entries.map((_, i) => first + i);
    // The journal's fsync runs in the pool, beside the edit's own (nodeFileSystem.ts); the edit waits for it.
    await this.db.writeThenSync(
      entries.map((entry, i): JournalOp => {
        const before = stored[i]!;
        return [
          'INSERT INTO file_checkpoints (id, session_id, path, before, encoding, stored_bytes, created_at, undone, op_id, message_id) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)',
          [ids[i]!, sessionId, entry.path, before.stored, before.encoding, storedSize(before.stored), now, grouped ? first : null, messageId ?? null],
        ];
      }),
    );
    return ids;
  }

  /**
   * Undo: the newest step not yet undone (one checkpoint, or every checkpoint of one operation), newest first,
   * now marked undone. The caller restores the files. [] when there is nothing to undo.
   */
  async popUndoStep(sessionId: string): Promise<Checkpoint[]> {
    this.requireSession(sessionId);
    const newest = this.db.get('SELECT * FROM file_checkpoints WHERE session_id = ? AND undone = 0 ORDER BY id DESC LIMIT 1', [sessionId]);
    if (!newest) return [];
    const rows =
      newest.op_id === null || newest.op_id === undefined
        ? [newest]
        : this.db.all('SELECT * FROM file_checkpoints WHERE session_id = ? AND undone = 0 AND op_id = ? ORDER BY id DESC', [sessionId, newest.op_id]);
    const step = rows.map(rowToCheckpoint);
    this.db.write(step.map((c): JournalOp => ['UPDATE file_checkpoints SET undone = 1 WHERE id = ?', [c.id]]));
    return step;
  }

  /** Undo steps left (a move is one). */
  async countUndoSteps(sessionId: string): Promise<number> {
    const row = this.db.get('SELECT COUNT(DISTINCT COALESCE(op_id, -id)) AS n FROM file_checkpoints WHERE session_id = ? AND undone = 0', [sessionId]);
    return Number(row?.n ?? 0);
  }

  /**
   * Undo: the newest checkpoint not yet undone, now marked undone. The caller restores the file
   * (writes `before`, or deletes the file when it is null). Undefined when there is nothing to undo.
   */
  async popCheckpoint(sessionId: string): Promise<Checkpoint | undefined> {
    this.requireSession(sessionId);
    const row = this.db.get('SELECT * FROM file_checkpoints WHERE session_id = ? AND undone = 0 ORDER BY id DESC LIMIT 1', [sessionId]);
    if (!row) return undefined;
    const checkpoint = rowToCheckpoint(row);
    this.db.write([['UPDATE file_checkpoints SET undone = 1 WHERE id = ?', [checkpoint.id]]]);
    return checkpoint;
  }

  /** Checkpoints that can still be undone, newest first. */
  async listCheckpoints(sessionId: string): Promise<Checkpoint[]> {
    return this.db
      .all('SELECT * FROM file_checkpoints WHERE session_id = ? AND undone = 0 ORDER BY id DESC', [sessionId])
      .map(rowToCheckpoint);
  }

  async getKv<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    const row = this.db.get('SELECT value FROM kv WHERE key = ?', [checkKey(key)]);
    return row ? (JSON.parse(String(row.value)) as T) : undefined;
  }

  /** `undefined` deletes the key. */
  async setKv(key: string, value: JsonValue | undefined): Promise<void> {
    checkKey(key);
    if (value === undefined) {
      this.db.write([['DELETE FROM kv WHERE key = ?', [key]]]);
      return;
    }
    this.db.write([
      [
        'INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
        [key, encodeJsonValue(value), this.clock.now()],
      ],
    ]);
  }

  /** Ids are chosen here, not by SQLite, so the journal replays to exactly the ids callers were given. */
  protected nextId(table: 'messages' | 'tool_audit' | 'file_checkpoints'): number {
    const row = this.db.get(
      `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), COALESCE((SELECT MAX(id) FROM ${table}), 0)) + 1 AS next`,
      [table],
    );
    return Number(row?.next ?? 1);
  }
}

/** What a stored `before` weighs against the size bound: its bytes (text as UTF-8). */
function storedSize(stored: Uint8Array | string | null): number {
  if (stored === null) return 0;
  return typeof stored === 'string' ? Buffer.byteLength(stored, 'utf8') : stored.byteLength;
}
