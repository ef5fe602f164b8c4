// The real journal file operations as a class, so a test or bench overrides only the one it watches or breaks
// (a write that fails halfway, an fsync held back, fsyncs timed) and the rest reach the disk unchanged.
import { nodeJournalFs, type JournalFs } from '../../../src/persistence/journalFs';

export class RealJournalFs implements JournalFs {
  open(path: string, flags: 'a+' | 'w' | 'r'): number {
    return nodeJournalFs.open(path, flags);
  }
  write(fd: number, data: Uint8Array): number {
    return nodeJournalFs.write(fd, data);
  }
  sync(fd: number): void {
    nodeJournalFs.sync(fd);
  }
  syncInPool(fd: number): Promise<void> {
    return nodeJournalFs.syncInPool!(fd);
  }
  truncate(fd: number, length: number): void {
    nodeJournalFs.truncate(fd, length);
  }
  size(fd: number): number {
    return nodeJournalFs.size(fd);
  }
  read(fd: number, into: Uint8Array, position: number): number {
    return nodeJournalFs.read(fd, into, position);
  }
  close(fd: number): void {
    nodeJournalFs.close(fd);
  }
  rename(from: string, to: string): void {
    nodeJournalFs.rename(from, to);
  }
  syncDir(dir: string): void {
    nodeJournalFs.syncDir(dir);
  }
}

/** Real disk, every fsync timed (in the thread pool too): the part of a save that is the disk's, not ours. */
export class FsyncTimingJournalFs extends RealJournalFs {
  syncMs = 0;
  syncs = 0;

  override sync(fd: number): void {
    const start = performance.now();
    super.sync(fd);
    this.syncMs += performance.now() - start;
    this.syncs++;
  }

  override async syncInPool(fd: number): Promise<void> {
    const start = performance.now();
    await super.syncInPool(fd);
    this.syncMs += performance.now() - start;
    this.syncs++;
  }
}
