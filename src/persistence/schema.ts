// The session database schema, as an ordered list of migrations. Never edit a released migration:
// add a new one, so databases created by older versions upgrade in place.
// Row ids are AUTOINCREMENT so an id is never handed out twice, even after deleting the newest rows.
import type { Migration } from './migrations';

export const SESSION_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sessions, messages, key/value',
    up(db) {
      db.run(`
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          model TEXT NOT NULL,
          provider TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          status TEXT NOT NULL DEFAULT 'active'
        );
        CREATE TABLE messages (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          session_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          role TEXT NOT NULL,
          content TEXT NOT NULL,
          thinking TEXT,
          tool_calls TEXT,
          tool_call_id TEXT,
          tool_name TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX messages_by_session ON messages (session_id, seq);
        CREATE TABLE kv (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL,
          updated_at INTEGER NOT NULL
        );
      `);
    },
  },
  {
    version: 2,
    description: 'token counts, display-only and compressed messages, summaries, tool audit, open turns',
    up(db) {
      db.run(`
        ALTER TABLE sessions ADD COLUMN turn_open INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER;
        ALTER TABLE messages ADD COLUMN completion_tokens INTEGER;
        ALTER TABLE messages ADD COLUMN display_only INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN compressed_from INTEGER;
        ALTER TABLE messages ADD COLUMN superseded_by INTEGER;
        CREATE TABLE session_summaries (
          session_id TEXT PRIMARY KEY,
          text TEXT NOT NULL,
          files_touched TEXT NOT NULL DEFAULT '[]',
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE tool_audit (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          session_id TEXT NOT NULL,
          tool_call_id TEXT NOT NULL,
          name TEXT NOT NULL,
          arguments TEXT NOT NULL,
          approval TEXT NOT NULL,
          duration_ms INTEGER NOT NULL,
          outcome TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX tool_audit_by_session ON tool_audit (session_id, id);
      `);
    },
  },
  {
    version: 3,
    description: 'file checkpoints (undo stack)',
    up(db) {
      db.run(`
        CREATE TABLE file_checkpoints (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          session_id TEXT NOT NULL,
          path TEXT NOT NULL,
          before TEXT,
          created_at INTEGER NOT NULL,
          undone INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX file_checkpoints_by_session ON file_checkpoints (session_id, undone, id);
      `);
    },
  },
  {
    version: 4,
    description: 'embedding vectors by model and content hash',
    up(db) {
      // `vector` is little-endian float32; `dims` lets a reader check the length without decoding it.
      db.run(`
        CREATE TABLE embeddings (
          model TEXT NOT NULL,
          hash TEXT NOT NULL,
          dims INTEGER NOT NULL,
          vector BLOB NOT NULL,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (model, hash)
        );
      `);
    },
  },
  {
    version: 5,
    description: 'workspace knowledge graph: indexed files, chunks, entities, relations',
    up(db) {
      // One database holds the indexes of many workspaces (the editor keeps one sessions.db for all of them), so
      // every row carries its workspace (the absolute root folder) and paths are relative to it. Chunk vectors are
      // not here: they live in `embeddings`, keyed by (model, chunk hash). kg_meta.revision grows with every change
      // in any workspace, so readers know when to reload (a needless reload is harmless).
      db.run(`
        CREATE TABLE kg_files (
          workspace TEXT NOT NULL,
          path TEXT NOT NULL,
          hash TEXT NOT NULL,
          mode TEXT NOT NULL,
          state TEXT NOT NULL,
          range_start INTEGER,
          range_end INTEGER,
          language TEXT NOT NULL,
          lines INTEGER NOT NULL,
          bytes INTEGER NOT NULL,
          summary TEXT,
          embed_model TEXT NOT NULL DEFAULT '',
          indexed_at INTEGER NOT NULL,
          note TEXT,
          PRIMARY KEY (workspace, path)
        );
        CREATE TABLE kg_chunks (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          workspace TEXT NOT NULL,
          file_path TEXT NOT NULL,
          start_line INTEGER NOT NULL,
          end_line INTEGER NOT NULL,
          kind TEXT NOT NULL,
          name TEXT,
          hash TEXT NOT NULL,
          summary TEXT,
          text TEXT NOT NULL
        );
        CREATE INDEX kg_chunks_by_file ON kg_chunks (workspace, file_path, start_line);
        CREATE INDEX kg_chunks_by_hash ON kg_chunks (hash);
        CREATE INDEX kg_chunks_by_name ON kg_chunks (workspace, name);
        CREATE TABLE kg_entities (
          workspace TEXT NOT NULL,
          file_path TEXT NOT NULL,
          name TEXT NOT NULL,
          kind TEXT NOT NULL,
          line INTEGER NOT NULL,
          chunk_id INTEGER
        );
        CREATE INDEX kg_entities_by_file ON kg_entities (workspace, file_path);
        CREATE INDEX kg_entities_by_name ON kg_entities (workspace, name);
        CREATE TABLE kg_relations (
          workspace TEXT NOT NULL,
          file_path TEXT NOT NULL,
          from_name TEXT NOT NULL,
          kind TEXT NOT NULL,
          to_name TEXT NOT NULL,
          line INTEGER
        );
        CREATE INDEX kg_relations_by_file ON kg_relations (workspace, file_path);
        CREATE INDEX kg_relations_by_from ON kg_relations (workspace, from_name);
        CREATE INDEX kg_relations_by_to ON kg_relations (workspace, to_name);
        CREATE TABLE kg_meta (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          revision INTEGER NOT NULL
        );
        INSERT INTO kg_meta (id, revision) VALUES (1, 0);
      `);
    },
  },
  {
    version: 6,
    description: 'undo steps: checkpoints written by one operation (a move) share op_id and are undone together',
    up(db) {
      db.run('ALTER TABLE file_checkpoints ADD COLUMN op_id INTEGER');
    },
  },
  {
    version: 7,
    description: 'the context a message carried to the model (working context, retrieved code), kept for byte-identical requests',
    up(db) {
      db.run('ALTER TABLE messages ADD COLUMN context TEXT');
    },
  },
  {
    version: 8,
    description: 'code the user attached to a message, as data (JSON), apart from the text they typed',
    up(db) {
      db.run('ALTER TABLE messages ADD COLUMN attachments TEXT');
    },
  },
  {
    version: 9,
    description: 'turn checkpoints: which user message an agent edit belongs to, what the agent left, rewinds',
    up(db) {
      // file_checkpoints.before may now hold a BLOB (exact bytes; encoding 'deflate' when compressed); message_id is the row of the user message whose
      // turn made the change (NULL for rows written before this version). checkpoint_turns marks the user messages that
      // started a turn (the harness's own nudges are user messages too). checkpoint_results holds a hash of what the
      // agent left at each path at the end of each turn (a later mismatch = the user changed the file). A rewind keeps
      // what it removed (messages as JSON, files as they were) so it can be undone.
      db.run(`
        ALTER TABLE file_checkpoints ADD COLUMN message_id INTEGER;
        ALTER TABLE file_checkpoints ADD COLUMN encoding TEXT;
        CREATE INDEX file_checkpoints_by_message ON file_checkpoints (session_id, message_id, id);
        CREATE TABLE checkpoint_results (
          session_id TEXT NOT NULL,
          message_id INTEGER NOT NULL,
          path TEXT NOT NULL,
          after_hash TEXT,
          kept INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (session_id, message_id, path)
        );
        CREATE TABLE checkpoint_turns (
          session_id TEXT NOT NULL,
          message_id INTEGER NOT NULL,
          PRIMARY KEY (session_id, message_id)
        );
        CREATE TABLE checkpoint_pruned (
          session_id TEXT PRIMARY KEY,
          through_message_id INTEGER NOT NULL
        );
        CREATE TABLE rewinds (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          session_id TEXT NOT NULL,
          to_message_id INTEGER NOT NULL,
          removed TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          undone INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE rewind_files (
          rewind_id INTEGER NOT NULL,
          path TEXT NOT NULL,
          before BLOB,
          existed INTEGER NOT NULL,
          after_hash TEXT,
          PRIMARY KEY (rewind_id, path)
        );
      `);
    },
  },
  {
    version: 10,
    description: 'images a message showed the model (JSON: type, base64 data, name, size), kept for the history',
    up(db) {
      db.run('ALTER TABLE messages ADD COLUMN images TEXT');
    },
  },
  {
    version: 11,
    description: 'checkpoint sizes kept beside the bytes; journal lines carry BLOBs as base64',
    up(db) {
      // The size bound sums stored_bytes after every turn instead of reading every stored file (50 ms at 50 MB). The
      // version also marks the journal format: lines may now hold {"b64": …} parameters, which an older Local Harness
      // cannot read, so it refuses the database (newer schema) rather than set the journal aside as damaged.
      db.run(`
        ALTER TABLE file_checkpoints ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
        UPDATE file_checkpoints SET stored_bytes = COALESCE(length(CAST(before AS BLOB)), 0);
      `);
    },
  },
  {
    version: 12,
    description: 'an index of the checkpoint sizes, so the size bound sums them without reading the stored files',
    up(db) {
      // stored_bytes sits after the BLOB in every row, so summing it from the table still walks each file's overflow
      // pages (21 ms per turn at 3,000 checkpoints); the index alone holds every size.
      db.run('CREATE INDEX file_checkpoints_by_size ON file_checkpoints (stored_bytes)');
    },
  },
];
