// Shared pieces for the MCP integration tests: real servers from node_modules, fixture paths, waiting on status.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApprovalGate } from '../../../src/core/approval/gate';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { executeToolCall, type ToolExecution } from '../../../src/core/agent/toolExecutor';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import type { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolContext } from '../../../src/core/tools/tool';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import type { McpManager } from '../../../src/mcp/manager';
import type { McpServerConfig, McpServerStatus } from '../../../src/mcp/types';
import { isProcessAlive } from '../../../src/mcp/processes';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../../..');
export const fixturesDir = join(repoRoot, 'test/fixtures/mcp');

/** The bin JS file of a published server package, run with this node (no npx). */
export function packageBin(pkg: string): string {
  const dir = join(repoRoot, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!;
  return join(dir, bin);
}

export function stdioServer(name: string, script: string, args: string[] = [], extra: Partial<McpServerConfig> & { env?: Record<string, string> } = {}): McpServerConfig {
  const { env, ...rest } = extra;
  return {
    name,
    source: { kind: 'cliFile', path: join(repoRoot, 'mcp.json') },
    transport: { type: 'stdio', command: process.execPath, args: [script, ...args], env: env ?? {}, cwd: repoRoot },
    tools: {},
    ...rest,
  };
}

export function fixture(name: string): string {
  return join(fixturesDir, name);
}

export function tempDir(prefix: string): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), `lh-mcp-${prefix}-`));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Resolves with the status once `predicate` holds (checking the current one first); rejects after `timeoutMs`. */
export function waitForStatus(
  manager: McpManager,
  name: string,
  predicate: (status: McpServerStatus) => boolean,
  timeoutMs = 15_000,
): Promise<McpServerStatus> {
  return new Promise((resolvePromise, reject) => {
    const now = manager.status(name);
    if (predicate(now)) return resolvePromise(now);
    const timer = setTimeout(() => {
      subscription.dispose();
      const last = manager.status(name);
      reject(new Error(`timed out waiting for ${name}; last state ${last.state}: ${last.message ?? ''}\nlog:\n${manager.getLog(name).join('\n')}`));
    }, timeoutMs);
    const subscription = manager.onDidChange((status) => {
      if (status.name === name && predicate(status)) {
        clearTimeout(timer);
        subscription.dispose();
        resolvePromise(status);
      }
    });
  });
}

export async function assertProcessGone(pid: number, withinMs = 3000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} is still running (orphan)`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function toolContext(workspace: string, signal: AbortSignal, onProgress?: (message: string) => void): ToolContext {
  const fs = new NodeFileSystem();
  return {
    roots: new WorkspaceRoots([{ name: 'ws', path: workspace }], fs),
    fs,
    runner: new NodeProcessRunner(),
    tracker: new ContextTracker(),
    signal,
    ...(onProgress && { onProgress }),
  };
}

/** Runs one call through the core's executor (validation, approval policy, invoke), auto-approving every risk. */
export async function runCall(
  registry: ToolRegistry,
  workspace: string,
  name: string,
  args: Record<string, unknown> | string,
  signal: AbortSignal = new AbortController().signal,
): Promise<{ execution: ToolExecution; events: AgentEvent[] }> {
  const bus = new EventBus();
  const events: AgentEvent[] = [];
  bus.on((e) => events.push(e));
  const ctx = toolContext(workspace, signal);
  const { signal: _s, onProgress: _p, ...context } = ctx;
  const execution = await executeToolCall(
    { id: `call_${name}`, name, arguments: args },
    {
      registry,
      gate: new ApprovalGate({ policy: { autoApprove: ['read', 'write', 'execute', 'network'], rules: [] } }),
      bus,
      context,
      maxResultChars: 50_000,
      now: Date.now,
    },
    signal,
  );
  return { execution, events };
}

/** Every pid the manager spawned for a server, from its log. */
export function spawnedPids(manager: McpManager, name: string): number[] {
  return manager
    .getLog(name)
    .map((line) => /process (\d+) spawned/.exec(line)?.[1])
    .filter((pid): pid is string => pid !== undefined)
    .map(Number);
}
