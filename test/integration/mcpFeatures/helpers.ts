// The real @modelcontextprotocol/server-everything over stdio or Streamable HTTP, with a manager whose
// client features (roots, elicitation, sampling) are ports the test scripts, and a fetch that records.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolResult } from '../../../src/core/tools/tool';
import type { ElicitationAnswer, ElicitationRequest, McpClientFeatures, McpRoot, SamplingRequest } from '../../../src/mcp/clientFeatures';
import { McpManager } from '../../../src/mcp/manager';
import type { McpServerConfig } from '../../../src/mcp/types';
import { packageBin, repoRoot, stdioServer, toolContext } from '../../helpers/mcp/mcpHarness';

export const EVERYTHING = 'everything';
export type Transport = 'stdio' | 'http';

/** A port on 127.0.0.1 that was free a moment ago (server-everything takes its port from $PORT, not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface HttpEverything {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** `node dist/index.js streamableHttp` on a free port; resolves once it says it listens. */
export async function startHttpEverything(): Promise<HttpEverything> {
  const port = await freePort();
  const child = spawn(process.execPath, [packageBin('@modelcontextprotocol/server-everything'), 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: repoRoot,
  });
  child.stdout!.resume();
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server-everything (HTTP) did not start:\n${err}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (/listening on port/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything (HTTP) exited with ${code}:\n${err}`));
    });
  });
  return {
    child,
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Every JSON-RPC message the client POSTed, parsed. */
export interface RecordingFetch {
  fetch: FetchLike;
  sent: Array<Record<string, unknown>>;
}

export function recordingFetch(): RecordingFetch {
  const sent: Array<Record<string, unknown>> = [];
  const fetchImpl: FetchLike = async (url, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const body = JSON.parse(init.body) as Record<string, unknown> | Array<Record<string, unknown>>;
      sent.push(...(Array.isArray(body) ? body : [body]));
    }
    return fetch(url, init);
  };
  return { fetch: fetchImpl, sent };
}

/** The ports the tests script: each test sets what the "user" answers next and reads what was asked. */
export class ScriptedHost {
  roots: McpRoot[] = [];
  elicitAnswer: (request: ElicitationRequest) => ElicitationAnswer | Promise<ElicitationAnswer> = () => ({ action: 'cancel' });
  readonly elicitations: ElicitationRequest[] = [];
  approve: (request: SamplingRequest) => boolean | Promise<boolean> = () => false;
  readonly approvals: SamplingRequest[] = [];

  features(sample: McpClientFeatures['sample'], samplingPerMinute: number): McpClientFeatures {
    return {
      roots: () => this.roots,
      elicit: async (request) => {
        this.elicitations.push(request);
        return this.elicitAnswer(request);
      },
      approveSampling: async (request) => {
        this.approvals.push(request);
        return this.approve(request);
      },
      ...(sample && { sample }),
      samplingPerMinute,
    };
  }
}

export interface Harness {
  registry: ToolRegistry;
  manager: McpManager;
  host: ScriptedHost;
  /** The manager's clock: tests move it forward to age the sampling window. */
  clock: { now: number };
  callTool(tool: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal; onProgress?: (m: string) => void }): Promise<ToolResult>;
}

export async function startHarness(options: {
  transport: Transport;
  httpUrl?: string;
  fetch?: FetchLike;
  sample?: McpClientFeatures['sample'];
  samplingPerMinute: number;
}): Promise<Harness> {
  const registry = new ToolRegistry();
  const host = new ScriptedHost();
  const clock = { now: Date.now() };
  const manager = new McpManager({
    registry,
    defaultStartTimeoutMs: 20_000,
    defaultToolTimeoutMs: 30_000,
    now: () => clock.now,
    features: host.features(options.sample, options.samplingPerMinute),
    ...(options.fetch && { fetch: options.fetch }),
  });
  const config: McpServerConfig =
    options.transport === 'stdio'
      ? stdioServer(EVERYTHING, packageBin('@modelcontextprotocol/server-everything'))
      : { name: EVERYTHING, source: { kind: 'userSetting' }, transport: { type: 'http', url: options.httpUrl!, headers: {} }, tools: {} };
  await manager.setServers([config]);
  await manager.startAll();
  const status = manager.status(EVERYTHING);
  if (status.state !== 'ready') throw new Error(`server-everything did not start: ${status.message}\n${manager.getLog(EVERYTHING).join('\n')}`);
  // Tools that depend on our capabilities are registered after the handshake and announced by list_changed.
  const conditional = ['get-roots-list', 'trigger-elicitation-request', ...(options.sample ? ['trigger-sampling-request'] : [])];
  await eventually('the capability-dependent tools', () => {
    const names = manager.status(EVERYTHING).tools.map((t) => t.mcpName);
    return conditional.every((n) => names.includes(n)) ? true : undefined;
  });
  const callTool: Harness['callTool'] = async (tool, args = {}, callOptions = {}) => {
    const info = manager.status(EVERYTHING).tools.find((t) => t.mcpName === tool);
    if (!info) throw new Error(`server-everything offers no tool "${tool}" (has: ${manager.status(EVERYTHING).tools.map((t) => t.mcpName).join(', ')})`);
    const ctx = toolContext(repoRoot, callOptions.signal ?? new AbortController().signal, callOptions.onProgress);
    return registry.get(info.registeredName)!.invoke(args, ctx);
  };
  return { registry, manager, host, clock, callTool };
}

/** Polls until `check` returns a value (not undefined); rejects with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
