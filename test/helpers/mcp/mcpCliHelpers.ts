// Shared pieces for driving the CLI with MCP servers: config files, a streaming CLI child, and a /proc watcher
// that records every process the CLI spawns so a test can prove none outlives it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, type CliRun } from '../cli/runCli';

export const repoRoot = path.resolve(__dirname, '../../..');

/** The bin JS file of a published server package, run with this node (no npx, no network). */
export function packageBin(pkg: string): string {
  const dir = path.join(repoRoot, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!;
  return path.join(dir, bin);
}

export function fixture(name: string): string {
  return path.join(repoRoot, 'test/fixtures/mcp', name);
}

/** A temp folder with a `ws` workspace inside (realpath'd: the filesystem server compares resolved paths). */
export function tempWorkspace(prefix: string): { root: string; ws: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), `lh-mcpcli-${prefix}-`)));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  return { root, ws };
}

export interface StdioEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
  startTimeoutMs?: number;
  toolTimeoutMs?: number;
}

/** Writes a VS Code-format mcp.json (outside the workspace, so the model's tools never see it) and returns its path. */
export function writeMcpConfig(root: string, servers: Record<string, StdioEntry>): string {
  const file = path.join(root, 'mcp.json');
  const entries = Object.fromEntries(Object.entries(servers).map(([name, entry]) => [name, { type: 'stdio', ...entry }]));
  writeFileSync(file, JSON.stringify({ servers: entries }, null, 2));
  return file;
}

export function nodeServer(script: string, args: string[] = [], extra: Omit<StdioEntry, 'command' | 'args'> = {}): StdioEntry {
  return { command: process.execPath, args: [script, ...args], ...extra };
}

/** A process as seen in /proc: the start time tells a reused pid apart from the process we saw. */
export interface SeenProcess {
  pid: number;
  startTime: string;
  cmdline: string;
}

interface ProcStat {
  ppid: number;
  state: string;
  startTime: string;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; everything after the last ')' is fixed.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]), startTime: fields[19]! };
  } catch {
    return undefined;
  }
}

function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** True while the very process we saw still exists and has not exited (a zombie has exited). */
export function stillRunning(p: SeenProcess): boolean {
  const stat = readStat(p.pid);
  return stat !== undefined && stat.startTime === p.startTime && stat.state !== 'Z' && stat.state !== 'X';
}

/** Whether a live (non-zombie) process `pid` has `text` in its environment: ours, not a reused pid. */
export function runningWithEnv(pid: number, text: string): boolean {
  const stat = readStat(pid);
  if (!stat || stat.state === 'Z' || stat.state === 'X') return false;
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(text);
  } catch {
    return false;
  }
}

/** Polls /proc for every descendant of `rootPid` until stopped; a process seen once stays on the list. */
export class DescendantWatcher {
  private readonly seen = new Map<string, SeenProcess>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly rootPid: number, intervalMs = 50) {
    this.scan();
    this.timer = setInterval(() => this.scan(), intervalMs);
  }

  get processes(): SeenProcess[] {
    return [...this.seen.values()];
  }

  /** Processes whose command line contains `needle`. */
  matching(needle: string): SeenProcess[] {
    return this.processes.filter((p) => p.cmdline.includes(needle));
  }

  stop(): void {
    clearInterval(this.timer);
  }

  scan(): void {
    const parents = new Map<number, number[]>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const stat = readStat(Number(name));
      if (!stat) continue;
      const list = parents.get(stat.ppid) ?? [];
      list.push(Number(name));
      parents.set(stat.ppid, list);
    }
    const queue = [...(parents.get(this.rootPid) ?? [])];
    while (queue.length) {
      const pid = queue.shift()!;
      const stat = readStat(pid);
      if (!stat || stat.state === 'Z') continue;
      // Re-read the command line every time: right after fork a child still shows its parent's until it execs.
      const cmdline = readCmdline(pid);
      const key = `${pid}:${stat.startTime}`;
      const known = this.seen.get(key);
      if (!known) this.seen.set(key, { pid, startTime: stat.startTime, cmdline });
      else if (cmdline) known.cmdline = cmdline;
      queue.push(...(parents.get(pid) ?? []));
    }
  }
}

/** Waits until none of `processes` is running; throws naming the survivors after `withinMs`. */
export async function assertAllGone(processes: SeenProcess[], withinMs = 2000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const alive = processes.filter(stillRunning);
    if (alive.length === 0) return;
    if (Date.now() > deadline) {
      for (const p of alive) process.kill(p.pid, 'SIGKILL'); // don't leave them behind for the next test
      throw new Error(`orphan processes remain: ${alive.map((p) => `${p.pid} (${p.cmdline})`).join('; ')}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

const running = new Set<LiveCli>();

/** For an `after` hook: a failed assertion must not leave a CLI (or the servers it started) running. */
export function killLeftovers(): void {
  for (const cli of running) {
    cli.watcher.scan();
    cli.child.kill('SIGKILL');
    for (const p of cli.watcher.processes) if (stillRunning(p)) process.kill(p.pid, 'SIGKILL');
  }
  running.clear();
}

/** A CLI child whose output can be awaited while it runs (for signals mid-turn). */
export class LiveCli {
  readonly child: ChildProcess;
  readonly watcher: DescendantWatcher;
  stdout = '';
  stderr = '';
  readonly closed: Promise<number | null>;
  private closedAt: number | undefined;

  constructor(args: string[], cwd: string) {
    this.child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    this.watcher = new DescendantWatcher(this.child.pid!);
    running.add(this);
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => (this.stdout += d));
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.closed = new Promise((resolve) =>
      this.child.on('close', (code) => {
        this.closedAt = Date.now();
        this.watcher.stop();
        running.delete(this);
        resolve(code);
      }),
    );
  }

  get events(): CliRun['events'] {
    return this.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as CliRun['events'][number]);
  }

  /** Resolves once an event matches; rejects (and kills the CLI) after `timeoutMs`. */
  async waitForEvent(predicate: (e: CliRun['events'][number]) => boolean, timeoutMs: number): Promise<CliRun['events'][number]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(predicate);
      if (found) return found;
      if (this.closedAt !== undefined || Date.now() > deadline) {
        this.child.kill('SIGKILL');
        throw new Error(`event not seen within ${timeoutMs} ms.\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Waits for the exit; kills the CLI and fails after `timeoutMs`. Returns the code and when it closed. */
  async finished(timeoutMs: number): Promise<{ code: number | null; closedAt: number }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`CLI did not exit within ${timeoutMs} ms.\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`));
      }, timeoutMs);
    });
    try {
      const code = await Promise.race([this.closed, timeout]);
      return { code, closedAt: this.closedAt! };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The tools offered in a recorded chat request: the same `{type, function}` shape in both wire formats. */
export function offeredTools(request: Record<string, unknown>): Array<{ name: string; description?: string; parameters: Record<string, unknown> }> {
  const tools = (request.tools as Array<{ type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }> | undefined) ?? [];
  return tools.map((t) => t.function);
}
