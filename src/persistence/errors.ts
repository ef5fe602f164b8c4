// One error type for the persistence layer, with a code callers can branch on.

export type PersistenceErrorCode =
  /** The store was closed (or broke after a failed journal write) and takes no more calls. */
  | 'closed'
  /** A session, message or other row that the call names does not exist. */
  | 'not-found'
  /** The caller passed something the store refuses to save; nothing was written. */
  | 'invalid-input'
  /** The database was written by a newer Local Harness; we refuse to touch it. */
  | 'newer-schema'
  /** Another process (or another store in this process) has the database open. */
  | 'locked'
  /** The store was opened read-only. */
  | 'read-only'
  /** The path is a folder or someone else's file: refused, left untouched. */
  | 'not-a-database'
  /** The disk said no (full, read-only, permissions). */
  | 'io';

export class PersistenceError extends Error {
  override readonly name = 'PersistenceError';

  constructor(
    readonly code: PersistenceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
