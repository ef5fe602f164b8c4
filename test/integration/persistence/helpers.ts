// Shared bits for the persistence tests: real temp directories and a clock the test moves by hand.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { Clock } from '../../../src/core/ports';

/** A fresh directory under the OS temp dir, removed when the test ends. */
export function tempDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-persist-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export class ManualClock implements Clock {
  constructor(private time = Date.UTC(2025, 0, 2, 3, 4, 5)) {}

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

/** Deterministic session ids: s1, s2, … */
export function counterIds(prefix = 's'): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}
