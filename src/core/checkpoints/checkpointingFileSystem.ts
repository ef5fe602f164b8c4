// Wraps a FileSystemPort so every agent write first records the file's previous content: the undo stack.
import type { FileKind, FileStat, FileSystemPort } from '../ports';

export interface CheckpointSink {
  /** `before` is null when the file did not exist. */
  pushCheckpoint(path: string, before: string | null): Promise<unknown>;
}

export interface CheckpointSource {
  popCheckpoint(): Promise<{ path: string; before: string | null } | undefined>;
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

  async rename(from: string, to: string): Promise<void> {
    // Undo pops the newest checkpoint first: bring the source back first (nothing of the user's is ever missing),
    // then a second undo removes the destination.
    const before = await this.previous(from);
    await this.sink.pushCheckpoint(to, null);
    await this.sink.pushCheckpoint(from, before);
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

/** Restores the most recent checkpoint: rewrites the old content, or deletes a file the agent created. */
export async function undoLastEdit(source: CheckpointSource, fs: FileSystemPort): Promise<string | undefined> {
  const checkpoint = await source.popCheckpoint();
  if (!checkpoint) return undefined;
  if (checkpoint.before === null) {
    if ((await fs.lstat(checkpoint.path)) && fs.remove) await fs.remove(checkpoint.path);
  } else {
    await fs.writeFile(checkpoint.path, checkpoint.before);
  }
  return checkpoint.path;
}
