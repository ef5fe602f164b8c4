// What the turn checkpoints look like to the rest of the product: the port the session database implements, and
// the hashes that tell "what the agent left" apart from "what the user changed since".
import { createHash } from 'node:crypto';

/** The bytes a file had (text from rows written before bytes were kept); null when there was no file. */
export type FileState = Uint8Array | string | null;

/** What restoring to before one user message would put at one path. */
export interface RestoreTarget {
  path: string;
  /** The file as it was before the turn of that message first changed it; null: there was no file. */
  state: FileState;
  /**
   * Hashes (stateHash) of every state the agent's changes in these turns found or left at this path. A file that
   * matches none of them was changed by someone else since: a conflict.
   */
  known: ReadonlySet<string>;
}

/** One file a rewind changed: what was there before it (for undoing the rewind) and what it left. */
export interface RewoundFile {
  path: string;
  before: Uint8Array | null;
  afterHash: string;
}

/** The newest rewind of a session that can still be undone. */
export interface StoredRewind {
  id: number;
  toMessageId: number;
  files: RewoundFile[];
  /** Why it cannot be undone any more (the conversation went on after it), if so. */
  blocked?: string;
}

/** A file one turn changed, for review (Keep / Undo, the diff). */
export interface TurnChange {
  path: string;
  /** Before the turn first changed it. */
  before: FileState;
  /** Hash of what the turn left (stateHash), undefined when the store has no record of it. */
  afterHash: string | undefined;
  kept: boolean;
}

/** One message the user sent, as `sessions messages` lists it and "Restore to here" names it. */
export interface UserMessageRef {
  /** The stored row id (what restore takes). */
  id: number;
  /** 1 for the first message the user sent in the session, 2 for the next, … */
  number: number;
  text: string;
  createdAt: number;
  /** Files the turn of this message changed (as recorded). */
  changedFiles: number;
}

export interface CheckpointHistoryPort {
  /** Throws when the checkpoints of a turn at or after this message were pruned (the size bound). */
  restoreTargets(sessionId: string, messageId: number): Promise<RestoreTarget[]>;
  /**
   * Records the rewind (the files' current bytes, so it can be undone) and truncates the stored conversation to
   * before `messageId`, in one transaction. The caller writes the files afterwards.
   */
  commitRewind(sessionId: string, messageId: number, files: readonly RewoundFile[]): Promise<void>;
  latestRewind(sessionId: string): Promise<StoredRewind | undefined>;
  /** Puts the removed conversation back and marks the rewind undone. */
  commitUndoRewind(sessionId: string, rewindId: number): Promise<void>;
  userMessages(sessionId: string): Promise<UserMessageRef[]>;
  turnChanges(sessionId: string, messageId: number): Promise<TurnChange[]>;
  /** Review: the user kept the turn's change of `path` (all of the turn's files when absent). */
  markKept(sessionId: string, messageId: number, path?: string): Promise<void>;
}

const ABSENT = 'absent';

/** A short fingerprint of a file state: sha256 of the bytes (text as UTF-8), or "absent". */
export function stateHash(state: FileState): string {
  if (state === null) return ABSENT;
  return createHash('sha256').update(state).digest('hex');
}

export function sameState(a: FileState, b: FileState): boolean {
  if (a === null || b === null) return a === b;
  return stateHash(a) === stateHash(b);
}

/** `.git` internals are the repository's business, never a checkpoint's. */
export function isGitInternal(path: string): boolean {
  return /(^|[\\/])\.git([\\/]|$)/.test(path);
}
