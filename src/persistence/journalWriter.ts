// Appends journal entries durably (write + fsync before returning) and drops the part of the journal
// that a fold has already put into the database file.
import path from 'node:path';
import { PersistenceError, describeError } from './errors';
import { encodeEntry, type JournalEntry } from './journalFormat';
import type { JournalFs } from './journalFs';

export class JournalWriter {
  private fd: number | undefined;
  private bytes: number;
  /** fsyncs running in the thread pool (appendThenSync); the descriptor stays open until they end. */
  private readonly syncing = new Set<Promise<void>>();

  private constructor(
    private readonly file: string,
    private readonly fs: JournalFs,
    fd: number,
  ) {
    this.fd = fd;
    this.bytes = fs.size(fd);
  }

  /** Opens (creating) the journal for appending, first cutting it to `keepBytes` when given (a torn tail). */
  static open(file: string, fs: JournalFs, keepBytes?: number): JournalWriter {
    const fd = fs.open(file, 'a+');
    const writer = new JournalWriter(file, fs, fd);
    if (keepBytes !== undefined && keepBytes < writer.bytes) {
      fs.truncate(fd, keepBytes);
      fs.sync(fd);
      writer.bytes = keepBytes;
    }
    return writer;
  }

  get size(): number {
    return this.bytes;
  }

  /**
   * Durable when it returns. On failure the journal is cut back to where it was, so a half-written
   * line never sits in front of later ones; if even that fails the writer refuses further appends.
   */
  append(entry: JournalEntry): void {
    this.writeEntry(entry, (fd) => this.fs.sync(fd));
  }

  /**
   * append(), with the fsync in the thread pool: the bytes are written (in order) when it returns, durable when the
   * promise resolves. A failed fsync cannot be undone by cutting the journal (later entries may follow, and the
   * kernel may already have dropped the unwritten pages), so it closes the writer: the caller's promise rejects and
   * every later append fails with code "closed". Without an asynchronous sync in the JournalFs it is append().
   */
  appendThenSync(entry: JournalEntry): Promise<void> {
    if (!this.fs.syncInPool) {
      this.append(entry);
      return Promise.resolve();
    }
    const syncInPool = this.fs.syncInPool.bind(this.fs);
    const fd = this.writeEntry(entry);
    const synced = syncInPool(fd).catch((err: unknown) => {
      this.close();
      throw this.ioError(err);
    });
    const tracked = synced.then(
      () => undefined,
      () => undefined,
    );
    this.syncing.add(tracked);
    void tracked.then(() => this.syncing.delete(tracked));
    return synced;
  }

  /**
   * Writes the entry's line (and runs `sync`, when given) at the end of the journal; returns the descriptor. On
   * failure the journal is cut back to where it was.
   */
  private writeEntry(entry: JournalEntry, sync?: (fd: number) => void): number {
    const fd = this.requireOpen();
    const data = encodeEntry(entry);
    const before = this.bytes;
    try {
      let written = 0;
      while (written < data.length) written += this.fs.write(fd, data.subarray(written));
      sync?.(fd);
    } catch (err) {
      this.rollBackTo(fd, before);
      throw this.ioError(err);
    }
    this.bytes = before + data.length;
    return fd;
  }

  private ioError(err: unknown): PersistenceError {
    return new PersistenceError('io', `Could not write the session journal ${this.file}: ${describeError(err)}`, { cause: err });
  }

  /** Resolves once no fsync started by appendThenSync is still running. */
  async settle(): Promise<void> {
    while (this.syncing.size > 0) await Promise.all(this.syncing);
  }

  /** Forgets the first `offset` bytes (already folded into the database); keeps what came after. */
  dropPrefix(offset: number): void {
    const fd = this.requireOpen();
    if (offset >= this.bytes) {
      this.fs.truncate(fd, 0);
      this.fs.sync(fd);
      this.bytes = 0;
      return;
    }
    // Entries arrived while the fold was writing: rewrite the journal with only those.
    const tail = new Uint8Array(this.bytes - offset);
    let got = 0;
    while (got < tail.length) {
      const n = this.fs.read(fd, tail.subarray(got), offset + got);
      if (n <= 0) break;
      got += n;
    }
    const temp = `${this.file}.tmp`;
    const tfd = this.fs.open(temp, 'w');
    try {
      let written = 0;
      while (written < got) written += this.fs.write(tfd, tail.subarray(written, got));
      this.fs.sync(tfd);
    } finally {
      this.fs.close(tfd);
    }
    // Windows cannot rename over an open file: close ours first.
    this.fs.close(fd);
    this.fd = undefined;
    try {
      this.fs.rename(temp, this.file);
      this.fs.syncDir(path.dirname(this.file));
    } finally {
      // After a failed rename the old journal is still whole (its folded entries are skipped on replay).
      this.fd = this.fs.open(this.file, 'a+');
      this.bytes = this.fs.size(this.fd);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    // An fsync still in the pool would hit a closed (or reused) descriptor: close it after them.
    if (this.syncing.size > 0) {
      void this.settle().then(() => {
        try {
          this.fs.close(fd);
        } catch {
          // Closing late, after a failed write: nothing is left to tell.
        }
      });
    } else this.fs.close(fd);
  }

  private rollBackTo(fd: number, size: number): void {
    try {
      this.fs.truncate(fd, size);
      this.fs.sync(fd);
    } catch {
      // We cannot vouch for the journal any more: stop appending rather than bury a broken line.
      this.close();
    }
  }

  private requireOpen(): number {
    if (this.fd === undefined) {
      throw new PersistenceError('closed', `The session journal ${this.file} is closed (an earlier write failed; reopen the store).`);
    }
    return this.fd;
  }
}
