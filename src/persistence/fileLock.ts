// One writer per database file. Two processes folding the same file would overwrite each other's
// changes, so the second opener gets a clear error instead. A lock left by a dead process is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { PersistenceError } from './errors';

export interface FileLock {
  release(): void;
}

export function acquireLock(lockPath: string, what: string): FileLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockPath, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(lockPath);
      if (holder !== undefined && isAlive(holder)) {
        throw new PersistenceError(
          'locked',
          `${what} is already open in ${holder === process.pid ? 'this process' : `process ${holder}`} (lock file ${lockPath}).`,
        );
      }
      // Stale: its owner is gone (crashed or killed).
      rmSync(lockPath, { force: true });
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        if (readHolder(lockPath) === process.pid) rmSync(lockPath, { force: true });
      },
    };
  }
  throw new PersistenceError('locked', `Could not take the lock ${lockPath} for ${what}.`);
}

function readHolder(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
