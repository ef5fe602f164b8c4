// Shared pieces of the small-window acceptance tests: a CLI run with quick retries, what is on disk after a
// rename task, and one-line reports of what the fake server measured.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runCli, type CliRun } from '../../helpers/cli/runCli';
import { noteName, renamed } from '../../helpers/tasks/fileTask';

/** Retries stay real but quick (the product default backoff is 1 s). */
export const FAST_RETRY_ENV = { LOCALHARNESS_RETRY_BACKOFF_MS: '5' };

/** One CLI run must stay well inside the folder's time budget. */
export const RUN_TIMEOUT_MS = 60_000;

export function runAgent(args: string[], ws: string): Promise<CliRun> {
  return runCli(['run', '--workspace', ws, '--approve', 'all', '--json', ...args], { cwd: ws, env: FAST_RETRY_ENV, timeoutMs: RUN_TIMEOUT_MS });
}

export type CliEvent = CliRun['events'][number];

/** Every note 1..count renamed after its kind, nothing else in the folder. */
export function assertAllRenamed(ws: string, count: number, context: string): void {
  const names = readdirSync(ws).sort();
  const expected = Array.from({ length: count }, (_, i) => renamed(i + 1)).sort();
  const left = Array.from({ length: count }, (_, i) => noteName(i + 1)).filter((n) => existsSync(path.join(ws, n)));
  assert.deepEqual(names, expected, `${left.length} of ${count} notes not renamed (${left.join(', ')}); ${context}`);
}

export function renamedCount(ws: string, count: number): number {
  return Array.from({ length: count }, (_, i) => renamed(i + 1)).filter((n) => existsSync(path.join(ws, n))).length;
}

/** move_file results that failed: a note moved twice, or a move the model got wrong. */
export function failedMoves(run: CliRun): string[] {
  return run.events.filter((e) => e.type === 'tool_result' && String(e.name).endsWith('move_file') && e.ok !== true).map((e) => String(e.content));
}

export function rounds(run: CliRun): number {
  return run.events.filter((e) => e.type === 'round_start').length;
}

export function compressionSummary(run: CliRun): string {
  const c = run.events.filter((e) => e.type === 'compression');
  return `${c.length} compressions (${c.map((e) => e.method).join(', ') || 'none'})`;
}

export function noticesOf(run: CliRun): string[] {
  return run.events.filter((e) => e.type === 'notice').map((e) => String(e.message));
}

export function lastLines(text: string, n = 6): string {
  return text.trim().split('\n').slice(-n).join('\n');
}
