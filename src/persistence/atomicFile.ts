// File moves that never leave a half-written file behind: write a temp file, fsync, rename over the
// target, fsync the directory. And moving a bad file aside instead of deleting it. Used for the session
// database, the CLI's MCP sign-ins and its code cache, so private files are made one way.
import { closeSync, existsSync, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** File mode, e.g. 0o600 for a file only the user may read; set even when a stale temp file was there. */
  mode?: number;
}

export async function writeFileAtomic(file: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = tempOf(file);
  try {
    const handle = await open(temp, 'w', options.mode);
    try {
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  await syncDirectory(path.dirname(file));
}

/** The same as writeFileAtomic, for callers that must not yield (an exit handler, a read-modify-write). */
export function writeFileAtomicSync(file: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): void {
  const temp = tempOf(file);
  try {
    const fd = openSync(temp, 'w', options.mode);
    try {
      if (options.mode !== undefined) fchmodSync(fd, options.mode);
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // the original error says more
    }
    throw err;
  }
  syncDirectorySync(path.dirname(file));
}

/**
 * Creates `dir` (0700) if needed and says whether only this user can write it: a folder in a shared place that
 * someone else made or can write is not used for secrets or for code this process runs.
 */
export function privateDirectory(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    return stat.isDirectory() && mine && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

const tempOf = (file: string) => `${file}.tmp-${process.pid}`;

async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot fsync a directory.
  } finally {
    await handle?.close();
  }
}

function syncDirectorySync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot fsync a directory.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `2024-05-01T12-30-00-000Z`: sortable and legal in file names everywhere. */
export function fileStamp(now: number): string {
  return new Date(now).toISOString().replace(/[:.]/g, '-');
}

/** Renames `file` to `<file>.corrupt-<timestamp>` (plus a counter if taken). Returns the new path. */
export function moveAside(file: string, now: number): string {
  const base = `${file}.corrupt-${fileStamp(now)}`;
  let target = base;
  for (let i = 1; existsSync(target); i++) target = `${base}-${i}`;
  renameSync(file, target);
  return target;
}
