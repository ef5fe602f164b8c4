// Wraps a FileSystemPort so every agent write first records the file's previous bytes (the undo stack and the turn's
// checkpoint) and afterwards what it left there (so a later restore can tell the user's own edits from the agent's).
import type { FileKind, FileStat, FileSystemPort } from '../ports';
import type { WorkspaceRoots } from '../workspace/workspaceRoots';
import { isGitInternal } from './history';
import { WorkspaceSnapshotter } from './commandSnapshot';
import { confineToWorkspace, type RefusedFile } from './restoreConfinement';

export interface FileCheckpoint {
  path: string;
  /** Exact bytes (text from older sinks); null when the file did not exist. */
  before: Uint8Array | string | null;
}

export interface CheckpointSink {
  /** `before` is null when the file did not exist. */
  pushCheckpoint(path: string, before: Uint8Array | string | null): Promise<unknown>;
  /** Files one operation changes together (a move): one undo step restores them all. */
  pushCheckpoints(entries: readonly FileCheckpoint[]): Promise<unknown>;
  /** What the change left at `path` (null: no file there now), for telling later edits by the user apart. */
  recordResult?(path: string, after: Uint8Array | null): Promise<unknown>;
}

export interface CheckpointSource {
  /** The newest undo step (one or more files, newest first), now taken off the stack; [] when there is none. */
  popUndoStep(): Promise<FileCheckpoint[]>;
}

export class CheckpointingFileSystem implements FileSystemPort {
  private readonly snapshotter: WorkspaceSnapshotter;

  constructor(
    private readonly inner: FileSystemPort,
    private readonly sink: CheckpointSink,
  ) {
    this.snapshotter = new WorkspaceSnapshotter(inner);
  }

  /**
   * Runs a shell command and checkpoints what it changed in `folders` (one undo step): the files it modified or
   * deleted with their bytes from before it, the files it created as new. See commandSnapshot.ts for the bounds.
   */
  async checkpointCommand<T>(folders: readonly string[], run: () => Promise<T>): Promise<T> {
    const { result, changes } = await this.snapshotter.around(folders, run);
    const entries = [...(changes?.changed ?? [])].filter(([path]) => !isGitInternal(path)).map(([path, before]) => ({ path, before }));
    if (entries.length > 0) {
      await this.sink.pushCheckpoints(entries);
      for (const entry of entries) await this.result(entry.path);
    }
    return result;
  }

  readFile(path: string): Promise<string> {
    return this.inner.readFile(path);
  }

  writeFile(path: string, content: string): Promise<void> {
    return this.write(path, content);
  }

  readBytes(path: string): Promise<Uint8Array> {
    return this.inner.readBytes(path);
  }

  writeBytes(path: string, data: Uint8Array): Promise<void> {
    return this.write(path, data);
  }

  async rename(from: string, to: string): Promise<void> {
    // One undo step: the source comes back first (nothing of the user's is ever missing), then the destination goes.
    await this.sink.pushCheckpoints([
      { path: to, before: null },
      { path: from, before: await this.previous(from) },
    ]);
    await this.inner.rename(from, to);
    await this.result(from);
    await this.result(to);
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
    await this.result(path);
  }

  /** The file's previous bytes are durable in the sink before the file changes, either way. */
  private async write(path: string, content: string | Uint8Array): Promise<void> {
    if (this.inner.writeAfter) {
      // The old bytes are read and recorded while the new ones are written beside the file; the port knows what it left.
      const left = await this.inner.writeAfter(path, content, async () => this.sink.pushCheckpoint(path, await this.previous(path)));
      await this.sink.recordResult?.(path, left);
      return;
    }
    await this.sink.pushCheckpoint(path, await this.previous(path));
    if (typeof content === 'string') await this.inner.writeFile(path, content);
    else await this.inner.writeBytes(path, content);
    await this.result(path);
  }

  private async previous(path: string): Promise<Uint8Array | null> {
    const stat = await this.inner.lstat(path);
    if (!stat || stat.kind !== 'file') return null;
    return this.inner.readBytes(path);
  }

  private async result(path: string): Promise<void> {
    if (!this.sink.recordResult) return;
    await this.sink.recordResult(path, await this.previous(path));
  }
}

export interface UndoOutcome {
  /** Paths restored, the first one first (for a move: the source, back in place); [] when there was nothing to undo. */
  restored: string[];
  /** Stored paths outside the workspace: not touched (restoreConfinement.ts). */
  refused: RefusedFile[];
}

/** Restores the most recent undo step: rewrites old contents, deletes files the agent created, inside `roots` only. */
export async function undoLastEdit(source: CheckpointSource, fs: FileSystemPort, roots: WorkspaceRoots): Promise<UndoOutcome> {
  const { inside, refused } = await confineToWorkspace(roots, await source.popUndoStep());
  for (const checkpoint of inside) {
    if (checkpoint.before === null) {
      if ((await fs.lstat(checkpoint.path)) && fs.remove) await fs.remove(checkpoint.path);
    } else if (typeof checkpoint.before === 'string') {
      await fs.writeFile(checkpoint.path, checkpoint.before);
    } else {
      await fs.writeBytes(checkpoint.path, checkpoint.before);
    }
  }
  return { restored: inside.map((c) => c.path), refused };
}
