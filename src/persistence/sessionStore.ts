// Durable chat sessions: the store the agent, the chat view and the CLI share. Every method that
// changes something is durable when its promise resolves (see journaledDatabase.ts for how).
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/ports';
import { PersistenceError } from './errors';
import { sessionToJson, sessionToMarkdown } from './exportSession';
import { JournaledDatabase, type JournaledDatabaseOptions } from './journaledDatabase';
import type { JournalOp } from './journalFormat';
import { rowToMessage, rowToSession } from './rows';
import { SESSION_MIGRATIONS } from './schema';
import { SessionRecords } from './sessionRecords';
import { SqlVectorCache } from './vectorCache';
import { SqlCheckpointHistory } from './checkpointHistory';
import { SqlKnowledgeStore, workspaceKey } from './knowledgeStore';
import type { VectorCachePort } from '../core/embeddings';
import type {
  ExportFormat,
  MessageUpdate,
  NewMessage,
  NewSession,
  SessionInfo,
  SessionSummary,
  StoreNotice,
  StoredMessage,
} from './types';
import { checkMessage, checkNewSession, checkTitle, checkUpdate } from './validate';

export type SessionStoreOptions = Omit<JournaledDatabaseOptions, 'migrations'> & {
  /** Session ids; injectable so tests get stable ones. */
  newId?: () => string;
};

const SESSION_COLUMNS = `s.*, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id AND m.compressed_from IS NULL) AS message_count`;

export class SessionStore extends SessionRecords {
  /** Sessions that had a turn running when the store was last closed (or the process died). */
  readonly interruptedOnOpen: readonly SessionInfo[];

  private constructor(
    db: JournaledDatabase,
    clock: Clock,
    private readonly newId: () => string,
    interrupted: SessionInfo[],
  ) {
    super(db, clock);
    this.interruptedOnOpen = interrupted;
  }

  /**
   * Opens (creating if needed) the database at `path`. A damaged file is moved aside and replaced by an
   * empty one; `notices` says what happened and where the old file is.
   */
  static async open(path: string, options: SessionStoreOptions = {}): Promise<SessionStore> {
    const db = await JournaledDatabase.open(path, { ...options, migrations: SESSION_MIGRATIONS });
    try {
      const clock = options.clock ?? systemClock;
      // A turn still open from last time never finished: the process stopped in the middle of it.
      // (Read-only openers leave that to the writer: the turn may well be running right now.)
      const interrupted = db.readOnly ? [] : db.all(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.turn_open = 1`).map(rowToSession);
      if (interrupted.length > 0) {
        db.write([["UPDATE sessions SET status = 'interrupted', turn_open = 0 WHERE turn_open = 1", []]]);
        for (const session of interrupted) Object.assign(session, { status: 'interrupted', turnOpen: false });
        const titles = interrupted.map((s) => `"${s.title}"`).join(', ');
        db.notify({
          kind: 'sessions-interrupted',
          message: `${interrupted.length} session(s) stopped in the middle of a turn and are marked interrupted: ${titles}.`,
        });
      }
      return new SessionStore(db, clock, options.newId ?? randomUUID, interrupted);
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
  }

  get path(): string {
    return this.db.file;
  }

  private vectorCache: SqlVectorCache | undefined;

  /** Embedding vectors by model and content hash, shared by every session (a cache, not a record). */
  get vectors(): VectorCachePort {
    return (this.vectorCache ??= new SqlVectorCache(this.db, this.clock));
  }

  private history: SqlCheckpointHistory | undefined;

  /** Turn checkpoints: restore files and conversation to before a user message, review a turn's changes. */
  get checkpointHistory(): SqlCheckpointHistory {
    return (this.history ??= new SqlCheckpointHistory(this.db, this.clock));
  }

  private readonly knowledgeStores = new Map<string, SqlKnowledgeStore>();

  /**
   * The knowledge graph of one workspace (indexed files, chunks, entities, relations), shared by every session.
   * The database holds many workspaces' indexes; `workspaceRoot` (an absolute folder) picks one. One store per root.
   */
  knowledgeFor(workspaceRoot: string): SqlKnowledgeStore {
    const key = workspaceKey(workspaceRoot);
    let store = this.knowledgeStores.get(key);
    if (!store) {
      store = new SqlKnowledgeStore(this.db, this.clock, key);
      this.knowledgeStores.set(key, store);
    }
    return store;
  }

  get notices(): readonly StoreNotice[] {
    return this.db.notices;
  }

  async createSession(input: NewSession): Promise<SessionInfo> {
    const { title, model, provider } = checkNewSession(input);
    const id = this.newId();
    const now = this.clock.now();
    this.db.write([
      [
        'INSERT INTO sessions (id, title, model, provider, created_at, updated_at, status, turn_open) VALUES (?, ?, ?, ?, ?, ?, ?, 0)',
        [id, title, model, provider, now, now, 'active'],
      ],
    ]);
    return { id, title, model, provider, createdAt: now, updatedAt: now, status: 'active', turnOpen: false, messageCount: 0 };
  }

  /** Most recently updated first. */
  async listSessions(): Promise<SessionInfo[]> {
    return this.db.all(`SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY s.updated_at DESC, s.created_at DESC`).map(rowToSession);
  }

  async getSession(id: string): Promise<SessionInfo | undefined> {
    const row = this.db.get(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`, [id]);
    return row ? rowToSession(row) : undefined;
  }

  async renameSession(id: string, title: string): Promise<void> {
    const clean = checkTitle(title);
    this.requireSession(id);
    this.db.write([['UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?', [clean, this.clock.now(), id]]]);
  }

  /** Removes the session and everything recorded for it. */
  async deleteSession(id: string): Promise<void> {
    this.requireSession(id);
    this.db.write(
      ['messages', 'session_summaries', 'tool_audit', 'file_checkpoints'].map(
        (table): JournalOp => [`DELETE FROM ${table} WHERE session_id = ?`, [id]],
      ).concat(this.checkpointHistory.deleteOps(id), [['DELETE FROM sessions WHERE id = ?', [id]]]),
    );
  }

  /** Saves a message at the end of the conversation. Resolves with its id once it is on disk. */
  async appendMessage(sessionId: string, message: NewMessage): Promise<number> {
    checkMessage(message);
    this.requireSession(sessionId);
    const id = this.nextId('messages');
    const seq = Number(this.db.get('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM messages WHERE session_id = ?', [sessionId])?.next);
    const now = this.clock.now();
    this.db.write([
      [
        `INSERT INTO messages (id, session_id, seq, role, content, context, attachments, images, thinking, tool_calls, tool_call_id, tool_name,
           prompt_tokens, completion_tokens, display_only, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          sessionId,
          seq,
          message.role,
          message.content,
          message.context ?? null,
          message.attachments?.length ? JSON.stringify(message.attachments) : null,
          message.images?.length ? JSON.stringify(message.images) : null,
          message.thinking ?? null,
          message.toolCalls ? JSON.stringify(message.toolCalls) : null,
          message.toolCallId ?? null,
          message.toolName ?? null,
          message.tokens?.prompt ?? null,
          message.tokens?.completion ?? null,
          message.displayOnly ? 1 : 0,
          now,
        ],
      ],
      ['UPDATE sessions SET updated_at = ? WHERE id = ?', [now, sessionId]],
    ]);
    return id;
  }

  /**
   * Records the context a message carried when it was first sent to the model (added just before that request,
   * after the message itself was saved), so a continued session sends the same bytes again.
   */
  async setMessageContext(messageId: number, context: string | undefined): Promise<void> {
    if (context !== undefined && typeof context !== 'string') throw new PersistenceError('invalid-input', 'A message context must be a string.');
    const row = this.db.get('SELECT session_id FROM messages WHERE id = ?', [messageId]);
    if (!row) throw new PersistenceError('not-found', `No message with id ${messageId}.`);
    this.db.write([['UPDATE messages SET context = ? WHERE id = ?', [context ?? null, messageId]]]);
  }

  /**
   * Replaces a message in the model's view with a new version (compression). The original stays,
   * for the UI and exports; the new row links to it with compressedFrom. Returns the new id.
   */
  async updateMessage(messageId: number, update: MessageUpdate): Promise<number> {
    checkUpdate(update);
    const row = this.db.get('SELECT * FROM messages WHERE id = ?', [messageId]);
    if (!row) throw new PersistenceError('not-found', `No message with id ${messageId}.`);
    const current = rowToMessage(row);
    if (current.supersededBy !== undefined) {
      throw new PersistenceError('invalid-input', `Message ${messageId} was already replaced by message ${current.supersededBy}; update that one.`);
    }
    const id = this.nextId('messages');
    const now = this.clock.now();
    const thinking = update.thinking === undefined ? (current.thinking ?? null) : update.thinking;
    const toolCalls = update.toolCalls ?? current.toolCalls;
    this.db.write([
      [
        `INSERT INTO messages (id, session_id, seq, role, content, thinking, tool_calls, tool_call_id, tool_name,
           display_only, compressed_from, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          current.sessionId,
          current.seq,
          current.role,
          update.content,
          thinking,
          toolCalls ? JSON.stringify(toolCalls) : null,
          current.toolCallId ?? null,
          current.toolName ?? null,
          current.displayOnly ? 1 : 0,
          current.compressedFrom ?? current.id, // always the original, however often it is recompressed
          now,
        ],
      ],
      ['UPDATE messages SET superseded_by = ? WHERE id = ?', [id, messageId]],
      ['UPDATE sessions SET updated_at = ? WHERE id = ?', [now, current.sessionId]],
    ]);
    return id;
  }

  /** The conversation as the model should see it now: latest versions, without display-only messages. */
  async loadMessages(sessionId: string, options: { includeDisplayOnly?: boolean } = {}): Promise<StoredMessage[]> {
    this.requireSession(sessionId);
    const displayFilter = options.includeDisplayOnly ? '' : 'AND display_only = 0';
    return this.db
      .all(`SELECT * FROM messages WHERE session_id = ? AND superseded_by IS NULL ${displayFilter} ORDER BY seq, id`, [sessionId])
      .map(rowToMessage);
  }

  /** The conversation as it happened (for the UI and exports): originals, including display-only ones. */
  async loadOriginalMessages(sessionId: string): Promise<StoredMessage[]> {
    this.requireSession(sessionId);
    return this.db.all('SELECT * FROM messages WHERE session_id = ? AND compressed_from IS NULL ORDER BY seq, id', [sessionId]).map(rowToMessage);
  }

  /**
   * Both views of a conversation from one read (opening a long session read it three times):
   * `originals` as loadOriginalMessages returns them, `current` as loadMessages (without display-only) does.
   * A message never compressed is the same object in both lists; treat them as read-only.
   */
  async loadConversation(sessionId: string): Promise<{ originals: StoredMessage[]; current: StoredMessage[] }> {
    this.requireSession(sessionId);
    const rows = this.db.all('SELECT * FROM messages WHERE session_id = ? ORDER BY seq, id', [sessionId]).map(rowToMessage);
    const originals: StoredMessage[] = [];
    const current: StoredMessage[] = [];
    for (const message of rows) {
      if (message.compressedFrom === undefined) originals.push(message);
      if (message.supersededBy === undefined && !message.displayOnly) current.push(message);
    }
    return { originals, current };
  }

  /** A turn starts: if the process dies before endTurn, the session opens as interrupted next time. */
  async beginTurn(sessionId: string): Promise<void> {
    this.setSessionState(sessionId, "turn_open = 1, status = 'active'");
  }

  async endTurn(sessionId: string): Promise<void> {
    this.setSessionState(sessionId, 'turn_open = 0');
  }

  async markInterrupted(sessionId: string): Promise<void> {
    this.setSessionState(sessionId, "status = 'interrupted', turn_open = 0");
  }

  async markActive(sessionId: string): Promise<void> {
    this.setSessionState(sessionId, "status = 'active'");
  }

  async exportSession(id: string, format: ExportFormat): Promise<string> {
    const row = this.db.get(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`, [id]);
    if (!row) throw new PersistenceError('not-found', `No session with id ${id}.`);
    const session = rowToSession(row);
    const messages = this.db.all('SELECT * FROM messages WHERE session_id = ? ORDER BY seq, id', [id]).map(rowToMessage);
    const summary: SessionSummary | undefined = await this.getSummary(id);
    const dump = summary ? { session, messages, summary } : { session, messages };
    if (format === 'markdown') return sessionToMarkdown(dump);
    if (format === 'json') return sessionToJson(dump);
    throw new PersistenceError('invalid-input', `Unknown export format "${String(format)}" (expected markdown or json).`);
  }

  /** Writes everything so far into the database file (normally done in the background). */
  async flush(signal?: AbortSignal): Promise<void> {
    await this.db.fold(signal);
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  /** Cheap on purpose (no message count): it runs on every append. */
  protected override requireSession(id: string): void {
    if (typeof id !== 'string') throw new PersistenceError('invalid-input', 'A session id must be a string.');
    if (!this.db.get('SELECT 1 AS found FROM sessions WHERE id = ?', [id])) throw new PersistenceError('not-found', `No session with id ${id}.`);
  }

  private setSessionState(sessionId: string, assignments: string): void {
    this.requireSession(sessionId);
    this.db.write([[`UPDATE sessions SET ${assignments}, updated_at = ? WHERE id = ?`, [this.clock.now(), sessionId]]]);
  }
}
