// The messages of a conversation: appended as they happen, their context recorded when first sent, replaced by
// compressed versions (the originals stay for the UI and exports), read as the model sees them or as they happened.
// SessionStore builds on this.
import { PersistenceError } from './errors';
import { rowToMessage } from './rows';
import { SessionRecords } from './sessionRecords';
import type { MessageUpdate, NewMessage, StoredMessage } from './types';
import { checkMessage, checkUpdate } from './validate';

export abstract class SessionMessages extends SessionRecords {
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
}
