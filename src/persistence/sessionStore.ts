// Durable chat sessions: the store the agent, the chat view and the CLI share. Every method that
// changes something is durable when its promise resolves (see journaledDatabase.ts for how). This class keeps the
// sessions themselves (create, list, rename, delete, turn state, export) and the stores beside them; the messages
// are sessionMessages.ts, the records around a conversation sessionRecords.ts.
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/ports';
import { PersistenceError } from './errors';
import { sessionToJson, sessionToMarkdown } from './exportSession';
import { JournaledDatabase, type JournaledDatabaseOptions } from './journaledDatabase';
import type { JournalOp } from './journalFormat';
import { rowToMessage, rowToSession } from './rows';
import { SESSION_MIGRATIONS } from './schema';
import { SessionMessages } from './sessionMessages';
import { SqlVectorCache } from './vectorCache';
import { SqlCheckpointHistory } from './checkpointHistory';
import { SqlKnowledgeStore, workspaceKey } from './knowledgeStore';
import type { VectorCachePort } from '../core/embeddings';
import type {
  ExportFormat,
  NewSession,
  SessionInfo,
  SessionSummary,
  StoreNotice,
} from './types';
import { checkNewSession, checkTitle } from './validate';

export type SessionStoreOptions = Omit<JournaledDatabaseOptions, 'migrations'> & {
  /** Session ids; injectable so tests get stable ones. */
  newId?: () => string;
};

const SESSION_COLUMNS = `s.*, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id AND m.compressed_from IS NULL) AS message_count`;

export class SessionStore extends SessionMessages {
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
