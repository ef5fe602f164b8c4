// The single-writer lock: a live holder blocks, a dead one is taken over.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PersistenceError } from '../../../src/persistence/errors';
import { acquireLock } from '../../../src/persistence/fileLock';

function lockPath(t: import('node:test').TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'db.lock');
}

test('a lock held by a live process is refused with its pid; release frees it', (t) => {
  const file = lockPath(t);
  writeFileSync(file, String(process.ppid)); // our parent is certainly alive
  assert.throws(
    () => acquireLock(file, 'The test database'),
    (err: unknown) => err instanceof PersistenceError && err.code === 'locked' && err.message.includes(`process ${process.ppid}`),
  );
  rmSync(file);
  const lock = acquireLock(file, 'The test database');
  assert.equal(readFileSync(file, 'utf8'), String(process.pid));
  lock.release();
  assert.equal(existsSync(file), false);
});

test('a lock left by a dead process is taken over', (t) => {
  const file = lockPath(t);
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeFileSync(file, dead.stdout);
  const lock = acquireLock(file, 'The test database');
  assert.equal(readFileSync(file, 'utf8'), String(process.pid));
  lock.release();
});

test('release does not remove a lock someone else has taken since', (t) => {
  const file = lockPath(t);
  const lock = acquireLock(file, 'The test database');
  writeFileSync(file, String(process.ppid));
  lock.release();
  assert.equal(readFileSync(file, 'utf8'), String(process.ppid));
});
