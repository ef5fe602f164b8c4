// The editor's durable sessions: opens the SessionStore (sessions.db in the extension's global storage) the
// first time it is needed, records the chat the panel shows, and lists, opens, renames, deletes, exports and
// undoes. No 'vscode' import, so the integration tests drive exactly this with real sql.js files.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AgentEvent } from '../../core/agent/events';
import { CheckpointingFileSystem, undoLastEdit, type UndoOutcome } from '../../core/checkpoints/checkpointingFileSystem';
import type { WorkspaceRoots } from '../../core/workspace/workspaceRoots';
import type { ChatMessage } from '../../core/messages';
import type { FileSystemPort } from '../../core/ports';
import type { ContextState } from '../../core/compression/view';
import type { KeyValuePort } from '../../core/window/calibration';
import { PersistenceError, describeError } from '../../persistence/errors';
import type { SessionMeta, SessionRecorder } from '../../persistence/sessionRecorder';
import type { SessionStore, SessionStoreOptions } from '../../persistence/sessionStore';
import type { ExportFormat, SessionInfo, StoredMessage } from '../../persistence/types';
import { unfinishedRun, type PlanRun } from '../../persistence/planRuns';
import { kvPortOf } from '../../persistence/kvPort';
import type { SqlCheckpointHistory } from '../../persistence/checkpointHistory';

export interface SessionServiceOptions {
  /** The database file (globalStorage/sessions.db). */
  dbPath: string;
  /** Tell the user (a warning message and a panel notice): moved-aside databases, read-only mode, failed writes. */
  warn: (message: string) => void;
  /** For the log only. */
  info?: (message: string) => void;
  /** Passed to SessionStore.open (tests: clock, ids, fold timing). */
  storeOptions?: SessionStoreOptions;
  /**
   * How long to wait between tries when another process holds the lock (a window reload: the old extension
   * host may not have exited yet) before opening read-only.
   */
  lockRetryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  /** Bytes the turn checkpoints may hold (the setting, read when a recording starts); default 50 MB. */
  checkpointLimitBytes?: () => number;
}

/** A stored session loaded for the panel and the agent. */
export interface OpenedSession {
  info: SessionInfo;
  /** What the model continues from (compressed copies in place of originals). */
  history: ChatMessage[];
  /** The conversation as it happened, for the panel. */
  originals: StoredMessage[];
  /** The current versions (compressed copies carry compressedFrom). */
  current: StoredMessage[];
  contextState: ContextState | undefined;
  interrupted: boolean;
  /** Planned runs of this session (plan, step records, how each ended), oldest first. */
  planRuns: readonly PlanRun[];
}

/** What a turn needs from the recording (absent when nothing can be saved). */
export interface TurnRecording {
  readonly id: string;
  /** The editor's file system with every agent write checkpointed first (the undo stack). */
  wrapFileSystem(inner: FileSystemPort): FileSystemPort;
  readonly recorder: SessionRecorder;
}

export const READ_ONLY_NOTE =
  'The session history is open in another VS Code window, so this window can show past sessions but does not save new ones. Close the other window and reload this one to save again.';

const DEFAULT_LOCK_RETRIES = [250, 500, 1000, 1500];

export class EditorSessionService {
  private storePromise: Promise<SessionStore | undefined> | undefined;
  private recorder: SessionRecorder | undefined;
  private readOnlyMode = false;
  private unavailable: string | undefined;
  private disposed = false;

  constructor(private readonly options: SessionServiceOptions) {}

  /** The database could only be opened read-only (another window writes it). */
  get readOnly(): boolean {
    return this.readOnlyMode;
  }

  /** Why there is no history at all (the database could not be opened), if so. */
  get unavailableReason(): string | undefined {
    return this.unavailable;
  }

  /** The stored session the panel shows, once it has one. */
  get currentId(): string | undefined {
    return this.recorder?.id;
  }

  /** Opens the store on first use; undefined when it cannot be opened at all (the user was told why). */
  store(): Promise<SessionStore | undefined> {
    if (this.disposed) return Promise.resolve(undefined);
    this.storePromise ??= this.openStore();
    return this.storePromise;
  }

  /**
   * The recording the next turn writes to: the current session, or a new one titled after `text`.
   * Undefined when nothing can be saved (read-only or no database); the chat works on regardless.
   */
  async forTurn(text: string, meta: Omit<SessionMeta, 'title'>): Promise<TurnRecording | undefined> {
    const store = await this.store();
    if (!store || this.readOnlyMode) return undefined;
    if (!this.recorder) {
      try {
        const { startRecording } = await import('../../persistence/sessionRecorder');
        this.recorder = await startRecording(store, { meta: { ...meta, title: text }, ...this.recorderCallbacks() });
        this.options.info?.(`sessions: recording a new session ${this.recorder.id}`);
      } catch (err) {
        this.options.warn(`Could not save this chat: ${describeError(err)}`);
        return undefined;
      }
    }
    return this.recording(this.recorder);
  }

  /** Feed every agent event here (tool audit). */
  onEvent(event: AgentEvent): void {
    this.recorder?.onEvent(event);
  }

  /** New chat: the next turn starts a new stored session (the old one stays in the history). */
  async detach(): Promise<void> {
    const previous = this.recorder;
    this.recorder = undefined;
    await previous?.settle();
  }

  /** The current session's planned run that stopped before it finished, if any (for Resume). */
  unfinishedRun(): PlanRun | undefined {
    return this.recorder ? unfinishedRun(this.recorder.planRuns) : undefined;
  }

  /**
   * The database's key/value table, where recorded sessions keep per-model memories (calibration, the window the
   * server really runs); undefined when this window cannot write it.
   */
  async kv(): Promise<KeyValuePort | undefined> {
    const store = await this.store();
    if (!store || this.readOnlyMode) return undefined;
    return kvPortOf(store);
  }

  async list(): Promise<SessionInfo[]> {
    const store = await this.store();
    return store ? store.listSessions() : [];
  }

  /** Loads a stored session and makes it the one the next turns continue (when this window may write). */
  async open(id: string): Promise<OpenedSession> {
    const store = await this.requireStore();
    const { startRecording } = await import('../../persistence/sessionRecorder');
    // One read serves the panel (originals), the compression marks and the model's history (current).
    const { originals, current } = await store.loadConversation(id);
    const recorder = await startRecording(store, { sessionId: id, current, meta: { title: '', model: '', provider: '' }, ...this.recorderCallbacks() });
    await this.detach();
    if (!this.readOnlyMode) this.recorder = recorder;
    return {
      info: recorder.info,
      history: recorder.history,
      originals,
      current,
      contextState: recorder.contextState,
      interrupted: recorder.interrupted,
      planRuns: recorder.planRuns,
    };
  }

  async rename(id: string, title: string): Promise<void> {
    await (await this.writableStore()).renameSession(id, title);
  }

  async delete(id: string): Promise<void> {
    const store = await this.writableStore();
    if (this.recorder?.id === id) await this.detach();
    await store.deleteSession(id);
  }

  async export(id: string, format: ExportFormat): Promise<string> {
    return (await this.requireStore()).exportSession(id, format);
  }

  async info(id: string): Promise<SessionInfo | undefined> {
    return (await this.store())?.getSession(id);
  }

  /**
   * Restores the newest checkpoint of the current session through `fs` (not checkpointed itself): rewrites the
   * file's earlier content, or deletes a file the agent created, inside `roots` only. Nothing restored or refused:
   * there was nothing left to undo.
   */
  async undoLastEdit(fs: FileSystemPort, roots: WorkspaceRoots): Promise<UndoOutcome> {
    const id = this.recorder?.id;
    if (!id) return { restored: [], refused: [] };
    const store = await this.writableStore();
    return undoLastEdit({ popUndoStep: () => store.popUndoStep(id) }, fs, roots);
  }

  /** Undo steps of the current session left (a move is one). */
  async undoableEdits(): Promise<number> {
    const id = this.recorder?.id;
    const store = await this.store();
    if (!id || !store) return 0;
    return store.countUndoSteps(id);
  }

  /**
   * The current session's turn checkpoints (restore to a message, review a turn's files); undefined when the chat is
   * not recorded or this window cannot write the database.
   */
  async checkpoints(): Promise<{ sessionId: string; history: SqlCheckpointHistory; turnMessageId: number | undefined } | undefined> {
    const recorder = this.recorder;
    const store = await this.store();
    if (!recorder || !store || this.readOnlyMode) return undefined;
    return { sessionId: recorder.id, history: store.checkpointHistory, turnMessageId: recorder.turnMessageId };
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const store = await this.storePromise?.catch(() => undefined);
    await this.recorder?.settle().catch(() => undefined);
    this.recorder = undefined;
    await store?.close();
  }

  private recording(recorder: SessionRecorder): TurnRecording {
    return {
      id: recorder.id,
      recorder,
      wrapFileSystem: (inner) => new CheckpointingFileSystem(inner, recorder.checkpoints),
    };
  }

  private recorderCallbacks() {
    let writeWarned = false;
    const limit = this.options.checkpointLimitBytes?.();
    return {
      ...(limit !== undefined && { checkpointLimitBytes: limit }),
      warn: (message: string) => this.options.warn(`Session history: ${message}`),
      onWriteError: (err: unknown) => {
        // Once per session is enough: the chat goes on, the log has the rest.
        if (!writeWarned) this.options.warn(`Could not save a message of this chat: ${describeError(err)}. The chat goes on without saving.`);
        writeWarned = true;
        this.options.info?.(`sessions: message write failed: ${describeError(err)}`);
      },
    };
  }

  private async requireStore(): Promise<SessionStore> {
    const store = await this.store();
    if (!store) throw new Error(`The session history is not available: ${this.unavailable ?? 'it could not be opened'}.`);
    return store;
  }

  private async writableStore(): Promise<SessionStore> {
    const store = await this.requireStore();
    if (this.readOnlyMode) throw new Error(READ_ONLY_NOTE);
    return store;
  }

  private async openStore(): Promise<SessionStore | undefined> {
    const { dbPath } = this.options;
    const { SessionStore } = await import('../../persistence/sessionStore');
    try {
      await mkdir(path.dirname(dbPath), { recursive: true });
      const delays = this.options.lockRetryDelaysMs ?? DEFAULT_LOCK_RETRIES;
      const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
      for (let attempt = 0; ; attempt++) {
        try {
          // The editor's own storage file: whatever is there is a (maybe damaged) database of ours.
          const store = await SessionStore.open(dbPath, { ...this.options.storeOptions, ownedPath: true });
          for (const notice of store.notices) this.options.warn(`Session history: ${notice.message}`);
          this.options.info?.(`sessions: opened ${dbPath}`);
          return store;
        } catch (err) {
          if (!(err instanceof PersistenceError && err.code === 'locked')) throw err;
          if (attempt >= delays.length) break;
          await sleep(delays[attempt]!);
        }
      }
      // Single writer: another window has it. Show the history, save nothing.
      const store = await SessionStore.open(dbPath, { ...this.options.storeOptions, readOnly: true });
      this.readOnlyMode = true;
      this.options.warn(READ_ONLY_NOTE);
      return store;
    } catch (err) {
      this.unavailable = describeError(err);
      this.options.warn(`Could not open the session history (${dbPath}): ${this.unavailable}. Chats are not saved in this window.`);
      this.storePromise = undefined; // a later attempt may succeed (disk space freed)
      return undefined;
    }
  }
}
