// Shared pieces of the weak-model CLI tests: a temp workspace, a CLI run with fast retries, and readers
// for the JSON events and the requests the fake servers recorded.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, type CliRun } from '../../helpers/cli/runCli';
import type { ChatBody, FakeServerHandle } from '../../helpers/fakeLlm';

/** Base retry backoff for these runs (the product default is 1 s): retries stay real but quick. */
export const FAST_RETRY_ENV = { LOCALHARNESS_RETRY_BACKOFF_MS: '5' };

export function tempWorkspace(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `lh-weak-${prefix}-`));
}

/** `run --json --approve all` on the workspace, with fast retries. */
export function runAgent(serverFlags: string[], ws: string, task: string, extra: string[] = []): Promise<CliRun> {
  return runCli(['run', ...serverFlags, '--workspace', ws, '--approve', 'all', '--json', ...extra, task], { cwd: ws, env: FAST_RETRY_ENV });
}

/** A run_command call that appends one line to log.txt: the log shows how often it really ran. */
export function appendCall(line: string): { name: string; arguments: Record<string, unknown> } {
  return { name: 'run_command', arguments: { command: `echo ${line} >> log.txt` } };
}

export function logLines(ws: string): string[] {
  const file = path.join(ws, 'log.txt');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
}

export function notices(run: CliRun): string[] {
  return run.events.filter((e) => e.type === 'notice').map((e) => String(e.message));
}

/** All `text` events joined: what the user saw as the answer. */
export function shownText(run: CliRun): string {
  return run.events
    .filter((e) => e.type === 'text')
    .map((e) => String(e.text))
    .join('');
}

export function shownThinking(run: CliRun): string {
  return run.events
    .filter((e) => e.type === 'thinking')
    .map((e) => String(e.text))
    .join('');
}

export function toolResultEvents(run: CliRun): Array<{ name: string; ok: boolean; content: string }> {
  return run.events.filter((e) => e.type === 'tool_result').map((e) => ({ name: String(e.name), ok: e.ok === true, content: String(e.content) }));
}

export function turnEnd(run: CliRun): Record<string, unknown> {
  const last = run.events.at(-1);
  assert.equal(last?.type, 'turn_end', `the last event should be turn_end:\n${run.stdout}\n${run.stderr}`);
  return last!;
}

/** Exactly one notice matches `pattern`; returns it. */
export function oneNotice(run: CliRun, pattern: RegExp): string {
  const hits = notices(run).filter((n) => pattern.test(n));
  assert.equal(hits.length, 1, `expected one notice matching ${pattern}, got:\n${notices(run).join('\n')}`);
  return hits[0]!;
}

/** The content of the last user message of a request (a nudge or corrective feedback lands there). */
export function lastUserContent(request: ChatBody): string {
  const users = (request.messages ?? []).filter((m) => m.role === 'user');
  const last = users.at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

/** Whether a recorded request offered native tools (both wire formats use a top-level `tools` array). */
export function offersTools(request: ChatBody): boolean {
  return Array.isArray(request.tools) && request.tools.length > 0;
}

/** The fake servers a suite started, closed together when it ends. */
export class ServerPool {
  private servers: FakeServerHandle[] = [];

  async add(server: Promise<FakeServerHandle>): Promise<FakeServerHandle> {
    const s = await server;
    this.servers.push(s);
    return s;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.close()));
    this.servers = [];
  }
}
