// Test harness for the built-in tools: a real temp workspace (plus a sibling "outside" folder), the real
// node adapters, and calls that go through the real registry, approval gate and tool executor.
import { mkdtemp, mkdir, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ApprovalGate } from '../../../src/core/approval/gate';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { executeToolCall } from '../../../src/core/agent/toolExecutor';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import type { ProcessRunner } from '../../../src/core/ports';
import { registerBuiltinTools, type BuiltinToolOptions } from '../../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { RISK_LEVELS, type ToolContext } from '../../../src/core/tools/tool';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';

export class TempWorkspace {
  private constructor(
    /** Parent temp dir holding both folders. */
    readonly base: string,
    /** The workspace folder tools are confined to. */
    readonly root: string,
    /** A folder next to the workspace that must never be touched. */
    readonly outside: string,
  ) {}

  static async create(): Promise<TempWorkspace> {
    // realpath: macOS puts tmpdir behind a symlink (/var -> /private/var).
    const base = await realpath(await mkdtemp(path.join(tmpdir(), 'lh-tools-')));
    const root = path.join(base, 'ws');
    const outside = path.join(base, 'outside');
    await mkdir(root);
    await mkdir(outside);
    return new TempWorkspace(base, root, outside);
  }

  abs(rel: string): string {
    return path.join(this.root, ...rel.split('/'));
  }

  async write(rel: string, content: string | Buffer): Promise<string> {
    const file = this.abs(rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  }

  async read(rel: string): Promise<string> {
    return readFile(this.abs(rel), 'utf8');
  }

  async exists(rel: string): Promise<boolean> {
    return stat(this.abs(rel)).then(
      () => true,
      () => false,
    );
  }

  /** Every entry under the outside folder with its size and mtime, to prove nothing there changed. */
  async outsideSnapshot(): Promise<string> {
    const lines: string[] = [];
    const visit = async (dir: string) => {
      for (const name of (await readdir(dir)).sort()) {
        const full = path.join(dir, name);
        const s = await stat(full);
        lines.push(`${path.relative(this.outside, full)} ${s.isDirectory() ? 'dir' : s.size} ${s.mtimeMs}`);
        if (s.isDirectory()) await visit(full);
      }
    };
    await visit(this.outside);
    return lines.join('\n');
  }

  async dispose(): Promise<void> {
    await rm(this.base, { recursive: true, force: true });
  }
}

export interface CallResult {
  ok: boolean;
  content: string;
  events: AgentEvent[];
}

/** The built-in tools wired to a temp workspace, called the way the agent loop calls them. */
export class ToolHarness {
  readonly registry = new ToolRegistry();
  readonly tracker = new ContextTracker();
  readonly fs = new NodeFileSystem();
  readonly roots: WorkspaceRoots;
  private seq = 0;

  constructor(
    readonly ws: TempWorkspace,
    options: BuiltinToolOptions = {},
    readonly runner: ProcessRunner = new NodeProcessRunner({ killGraceMs: 500 }),
  ) {
    this.roots = new WorkspaceRoots([{ name: 'ws', path: ws.root }], this.fs);
    registerBuiltinTools(this.registry, options);
  }

  context(signal: AbortSignal = new AbortController().signal): ToolContext {
    return { roots: this.roots, fs: this.fs, runner: this.runner, tracker: this.tracker, signal };
  }

  /** Validate, describe for approval (auto-approved), invoke: exactly the executor's path. */
  async call(name: string, args: Record<string, unknown> | string, signal: AbortSignal = new AbortController().signal): Promise<CallResult> {
    const bus = new EventBus();
    const events: AgentEvent[] = [];
    bus.on((e) => events.push(e));
    const gate = new ApprovalGate({ policy: { autoApprove: RISK_LEVELS, rules: [] } });
    const execution = await executeToolCall(
      { id: `call_${++this.seq}`, name, arguments: args },
      {
        registry: this.registry,
        gate,
        bus,
        context: { roots: this.roots, fs: this.fs, runner: this.runner, tracker: this.tracker },
        maxResultChars: 1_000_000,
        now: () => Date.now(),
      },
      signal,
    );
    return { ok: execution.ok, content: execution.content, events };
  }

  /** The approval description a tool would show, without running it. */
  async describe(name: string, args: Record<string, unknown>) {
    const parsed = this.registry.parse({ id: 'd', name, arguments: args });
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.tool.describeForApproval(parsed.args as never, this.context());
  }
}
