// What a shell command changed in the workspace, so a turn's checkpoint covers run_command too: before the command
// the workspace's files are listed (size, mtime) and their bytes kept (read again only when they changed since the
// last command); afterwards a second listing names the files the command modified, created or deleted. Bounded:
// at most MAX_FILES files, files up to MAX_FILE_BYTES, MAX_TOTAL_BYTES of contents kept; `.git` and node_modules are
// skipped. A change to a file beyond the bounds cannot be restored (it is named, not recorded).
import * as nodePath from 'node:path';
import type { FileSystemPort } from '../ports';

export const SNAPSHOT_LIMITS = { files: 5_000, fileBytes: 1024 * 1024, totalBytes: 20 * 1024 * 1024 };
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

interface Listed {
  size: number;
  mtimeMs: number;
}

export interface CommandChanges {
  /** Path → the bytes before the command (null: it did not exist). */
  changed: Map<string, Uint8Array | null>;
  /** Changed files whose earlier bytes were not kept (over a bound): not restorable. */
  unrecorded: string[];
}

export class WorkspaceSnapshotter {
  /** Bytes kept from earlier commands, valid while size and mtime still match. */
  private readonly kept = new Map<string, Listed & { bytes: Uint8Array }>();

  constructor(private readonly fs: FileSystemPort) {}

  /** Runs `run` between two listings of `folders`; undefined changes when the workspace is over the file bound. */
  async around<T>(folders: readonly string[], run: () => Promise<T>): Promise<{ result: T; changes: CommandChanges | undefined }> {
    const before = await this.list(folders);
    if (before) await this.keepContents(before);
    const result = await run();
    if (!before) return { result, changes: undefined };
    const after = await this.list(folders);
    if (!after) return { result, changes: undefined };
    const changes: CommandChanges = { changed: new Map(), unrecorded: [] };
    const note = (path: string, previous: Uint8Array | null | undefined) => {
      if (previous === undefined) changes.unrecorded.push(path);
      else changes.changed.set(path, previous);
      this.kept.delete(path);
    };
    for (const [path, was] of before) {
      const now = after.get(path);
      if (now && now.size === was.size && now.mtimeMs === was.mtimeMs) continue;
      note(path, this.bytesOf(path, was));
    }
    for (const path of after.keys()) if (!before.has(path)) note(path, null);
    return { result, changes };
  }

  private bytesOf(path: string, listed: Listed): Uint8Array | undefined {
    const kept = this.kept.get(path);
    return kept && kept.size === listed.size && kept.mtimeMs === listed.mtimeMs ? kept.bytes : undefined;
  }

  private async keepContents(listing: Map<string, Listed>): Promise<void> {
    let total = 0;
    for (const path of [...this.kept.keys()]) if (!listing.has(path)) this.kept.delete(path);
    for (const [path, listed] of listing) {
      if (listed.size > SNAPSHOT_LIMITS.fileBytes || total + listed.size > SNAPSHOT_LIMITS.totalBytes) {
        this.kept.delete(path);
        continue;
      }
      total += listed.size;
      if (this.bytesOf(path, listed)) continue;
      try {
        this.kept.set(path, { ...listed, bytes: await this.fs.readBytes(path) });
      } catch {
        this.kept.delete(path); // gone or unreadable meanwhile: not restorable, like a file over the bounds
      }
    }
  }

  /** Regular files under the folders (symlinks are not followed); undefined when there are more than the bound. */
  private async list(folders: readonly string[]): Promise<Map<string, Listed> | undefined> {
    const out = new Map<string, Listed>();
    const pending = [...folders];
    while (pending.length > 0) {
      const dir = pending.pop()!;
      let entries;
      try {
        entries = await this.fs.readDirectory(dir);
      } catch {
        continue;
      }
      for (const entry of entries) {
        const path = nodePath.join(dir, entry.name);
        if (entry.kind === 'directory') {
          if (!SKIPPED_DIRS.has(entry.name)) pending.push(path);
          continue;
        }
        if (entry.kind !== 'file') continue;
        const stat = await this.fs.lstat(path).catch(() => undefined);
        if (!stat || stat.kind !== 'file') continue;
        out.set(path, { size: stat.size, mtimeMs: stat.mtimeMs });
        if (out.size > SNAPSHOT_LIMITS.files) return undefined;
      }
    }
    return out;
  }
}
