// FileSystemPort on node:fs for the CLI. lstat never follows a final symlink; writes are atomic (temp file + rename).
// lstat and realpath answer synchronously: every tool call checks its paths several times (workspace
// confinement, approval targets), a local metadata lookup takes microseconds, and the thread-pool round trip
// (plus an Error object for every path that does not exist yet) cost the agent more than the lookups did.
import { lstatSync, promises as fsp, realpathSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FileKind, FileStat, FileSystemPort } from '../core/ports';
import { decodeText } from '../core/tools/encoding/textEncoding';

export class NodeFileSystem implements FileSystemPort {
  /** The text in the file's own encoding (UTF-8, UTF-16 with a BOM, else Windows-1252), as editors guess it. */
  async readFile(file: string): Promise<string> {
    return decodeText(await fsp.readFile(file));
  }

  /**
   * Write to a temp file in the same directory, then rename over the target: readers never see a half-written
   * file, a crash leaves the old content, and a symlink or hard link at the target is replaced, never written through.
   */
  async writeFile(file: string, content: string): Promise<void> {
    await this.replace(file, Buffer.from(content, 'utf8'));
  }

  async readBytes(file: string): Promise<Uint8Array> {
    return fsp.readFile(file);
  }

  async writeBytes(file: string, data: Uint8Array): Promise<void> {
    await this.replace(file, data);
  }

  /** See FileSystemPort.writeAfter: `ready` overlaps the temp file's fsync, the rename waits for both. */
  async writeAfter(file: string, content: string | Uint8Array, ready: () => Promise<unknown>): Promise<Uint8Array> {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    await this.replace(file, data, ready);
    return data;
  }

  private async replace(file: string, data: Uint8Array, ready?: () => Promise<unknown>): Promise<void> {
    // `ready` (a checkpoint of the old bytes) starts first and runs while the new bytes are written and synced beside
    // the file: the two wait for the disk together, and the rename waits for both.
    const before = ready ? Promise.resolve().then(ready) : undefined;
    before?.catch(() => undefined); // awaited below; a rejection before then is not unhandled
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    let created = false;
    try {
      // Keep the permissions of a file we replace (e.g. an executable script).
      const existing = lstatSync(file, { throwIfNoEntry: false });
      const mode = existing?.isFile() ? existing.mode & 0o7777 : undefined;
      // 'wx' fails rather than following anything that might already sit at the temp name.
      const handle = await fsp.open(temp, 'wx', mode ?? 0o666);
      created = true;
      try {
        await handle.writeFile(data);
        const [sync, recorded] = await Promise.allSettled([handle.sync(), before]);
        if (recorded.status === 'rejected') throw recorded.reason;
        if (sync.status === 'rejected') throw sync.reason;
      } finally {
        await handle.close();
      }
      if (mode !== undefined) await fsp.chmod(temp, mode); // open() applied the umask
      await fsp.rename(temp, file);
    } catch (err) {
      // Never replace the file when the record failed, and never leave before the record has settled.
      await before?.catch(() => undefined);
      if (created) await fsp.rm(temp, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  async lstat(file: string): Promise<FileStat | undefined> {
    let stats: Stats | undefined;
    try {
      stats = lstatSync(file, { throwIfNoEntry: false });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // ENOTDIR: a parent is a file, so nothing can be at this path either.
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw err;
    }
    if (!stats) return undefined;
    return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
  }

  async realpath(file: string): Promise<string> {
    return realpathSync.native(file);
  }

  async readDirectory(dir: string): Promise<Array<{ name: string; kind: FileKind }>> {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, kind: kindOf(e) }));
  }

  async rename(from: string, to: string): Promise<void> {
    await fsp.rename(from, to);
  }

  /** Creates missing parents too; an existing directory is fine. */
  async mkdir(dir: string): Promise<void> {
    await fsp.mkdir(dir, { recursive: true });
  }

  async remove(file: string): Promise<void> {
    await fsp.rm(file, { force: true });
  }
}

function kindOf(s: Stats | Dirent): FileKind {
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isDirectory()) return 'directory';
  if (s.isFile()) return 'file';
  return 'other';
}
