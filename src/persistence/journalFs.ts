// The few synchronous file operations the journal needs, behind an interface so tests can make the
// disk fail on cue. Synchronous on purpose: an append is durable when the call returns.
import fs from 'node:fs';

export interface JournalFs {
  /** 'a+' appends and reads (creating the file), 'w' truncates, 'r' reads. Returns a file descriptor. */
  open(path: string, flags: 'a+' | 'w' | 'r'): number;
  /** Writes from the start of `data`; returns how many bytes were written (may be fewer). */
  write(fd: number, data: Uint8Array): number;
  /** Flushes the file to the disk (fsync). */
  sync(fd: number): void;
  /** Optional: the same fsync in the thread pool, for a caller that overlaps it with its own I/O. */
  syncInPool?(fd: number): Promise<void>;
  truncate(fd: number, length: number): void;
  size(fd: number): number;
  read(fd: number, into: Uint8Array, position: number): number;
  close(fd: number): void;
  rename(from: string, to: string): void;
  /** Makes a rename in `dir` durable. Best effort: some platforms cannot open directories. */
  syncDir(dir: string): void;
}

export const nodeJournalFs: JournalFs = {
  open: (path, flags) => fs.openSync(path, flags),
  write: (fd, data) => fs.writeSync(fd, data),
  sync: (fd) => fs.fsyncSync(fd),
  syncInPool: (fd) => new Promise<void>((resolve, reject) => fs.fsync(fd, (err) => (err ? reject(err) : resolve()))),
  truncate: (fd, length) => fs.ftruncateSync(fd, length),
  size: (fd) => fs.fstatSync(fd).size,
  read: (fd, into, position) => fs.readSync(fd, into, 0, into.length, position),
  close: (fd) => fs.closeSync(fd),
  rename: (from, to) => fs.renameSync(from, to),
  syncDir: (dir) => {
    let fd: number | undefined;
    try {
      fd = fs.openSync(dir, 'r');
      fs.fsyncSync(fd);
    } catch {
      // Windows cannot fsync a directory; renames there are durable enough once the file is synced.
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  },
};
