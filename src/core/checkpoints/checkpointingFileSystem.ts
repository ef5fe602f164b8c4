// Wraps a FileSystemPort so every agent write first records the file's previous content: the undo stack.
import type { FileKind, FileStat, FileSystemPort } from '../ports';

export interface FileCheckpoint {
  path: string;
  /** null when the file did not exist. */
  before: string | null;
}

export interface CheckpointSink {
  /** `before` is null when the file did not exist. */
  pushCheckpoint(path: string, before: string | null): Promise<unknown>;
  /** Files one operation changes together (a move): one undo step restores them all. */
  pushCheckpoints(entries: readonly FileCheckpoint[]): Promise<unknown>;
}

export interface CheckpointSource {
  /** The newest undo step (one or more files, newest first), now taken off the stack; [] when there is none. */
  popUndoStep(): Promise<FileCheckpoint[]>;
}

export class CheckpointingFileSystem implements FileSystemPort {
  constructor(
    private readonly inner: FileSystemPort,
    private readonly sink: CheckpointSink,
  ) {}

  readFile(path: string): Promise<string> {
    return this.inner.readFile(path);
  }

  async writeFile(path: string, content: string): Promise<void> {
    await this.sink.pushCheckpoint(path, await this.previous(path));
    await this.inner.writeFile(path, content);
  }

  readBytes(path: string): Promise<Uint8Array> {
    return this.inner.readBytes(path);
  }

  async writeBytes(path: string, data: Uint8Array): Promise<void> {
    await this.sink.pushCheckpoint(path, await this.previous(path));
    await this.inner.writeBytes(path, data);
  }

  async rename(from: string, to: string): Promise<void> {
    // One undo step: the source comes back first (nothing of the user's is ever missing), then the destination goes.
    await this.sink.pushCheckpoints([
      { path: to, before: null },
      { path: from, before: await this.previous(from) },
    ]);
    await this.inner.rename(from, to);
  }

  lstat(path: string): Promise<FileStat | undefined> {
    return this.inner.lstat(path);
  }

  realpath(path: string): Promise<string> {
    return this.inner.realpath(path);
  }

  readDirectory(path: string): Promise<Array<{ name: string; kind: FileKind }>> {
    return this.inner.readDirectory(path);
  }

  mkdir(path: string): Promise<void> {
    return this.inner.mkdir(path);
  }

  async remove(path: string): Promise<void> {
    if (!this.inner.remove) throw new Error('this file system cannot delete files');
    await this.sink.pushCheckpoint(path, await this.previous(path));
    await this.inner.remove(path);
  }

  private async previous(path: string): Promise<string | null> {
    const stat = await this.inner.lstat(path);
    if (!stat || stat.kind !== 'file') return null;
    return this.inner.readFile(path);
  }
}

/**
 * Restores the most recent undo step: rewrites old contents, deletes files the agent created. Returns the first
 * path restored (for a move: the source, back in place), undefined when there was nothing to undo.
 */
export async function undoLastEdit(source: CheckpointSource, fs: FileSystemPort): Promise<string | undefined> {
  const step = await source.popUndoStep();
  for (const checkpoint of step) {
    if (checkpoint.before === null) {
      if ((await fs.lstat(checkpoint.path)) && fs.remove) await fs.remove(checkpoint.path);
    } else {
      await fs.writeFile(checkpoint.path, checkpoint.before);
    }
  }
  return step[0]?.path;
}
