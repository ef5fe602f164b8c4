// File moves that never leave a half-written file behind: write a temp file, fsync, rename over the
// target, fsync the directory. And moving a bad file aside instead of deleting it.
import { existsSync, renameSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export async function writeFileAtomic(file: string, data: Uint8Array): Promise<void> {
  const temp = `${file}.tmp-${process.pid}`;
  try {
    const handle = await open(temp, 'w');
    try {
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
