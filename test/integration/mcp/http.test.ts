// HTTP servers: Streamable HTTP, the fallback to the old SSE transport, and headers from the config.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import type { McpServerConfig } from '../../../src/mcp/types';
import { assertProcessGone, fixture, runCall, tempDir } from '../../helpers/mcp/mcpHarness';

interface HttpFixture {
  child: ChildProcess;
  url: string;
}

function startHttpFixture(mode: 'streamable' | 'sse'): Promise<HttpFixture> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixture('httpServer.mjs'), mode], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`http fixture (${mode}) did not report its port`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${match[1]}/mcp` });
      }
    });
    child.on('error', reject);
  });
}

function httpServer(name: string, url: string, headers: Record<string, string>, type: 'http' | 'sse' = 'http'): McpServerConfig {
  return { name, source: { kind: 'userSetting' }, transport: { type, url, headers }, tools: {} };
}

const fixtures: HttpFixture[] = [];
let streamable: HttpFixture;
let sseOnly: HttpFixture;
const dir = tempDir('http');

before(async () => {
  streamable = await startHttpFixture('streamable');
  sseOnly = await startHttpFixture('sse');
  fixtures.push(streamable, sseOnly);
});

after(async () => {
  for (const f of fixtures) {
    f.child.stdin!.end();
    await assertProcessGone(f.child.pid!);
  }
  dir.cleanup();
});

const auth = { Authorization: 'Bearer secret-token' };

test('Streamable HTTP: connects with the configured headers and calls a tool', async () => {
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, defaultStartTimeoutMs: 5000 });
  try {
    await manager.setServers([httpServer('calc', streamable.url, auth)]);
    await manager.startAll();
    const status = manager.status('calc');
    assert.equal(status.state, 'ready', status.message);
    assert.equal(status.pid, undefined);
    assert.match(manager.getLog('calc').join('\n'), /connected over Streamable HTTP/);
    const { execution } = await runCall(registry, dir.path, 'calc__add', { a: 2, b: 3 });
    assert.equal(execution.content, 'streamable: 5');
  } finally {
    await manager.dispose();
  }
});

test('an SSE-only server is reached through the fallback; type "sse" goes there directly', async () => {
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, defaultStartTimeoutMs: 5000 });
  try {
    await manager.setServers([httpServer('old', sseOnly.url, auth), httpServer('direct', sseOnly.url, auth, 'sse')]);
    await manager.startAll();
    for (const status of manager.statuses()) assert.equal(status.state, 'ready', `${status.name}: ${status.message}`);
    assert.match(manager.getLog('old').join('\n'), /Streamable HTTP failed .*; trying the SSE transport/);
    assert.equal((await runCall(registry, dir.path, 'old__add', { a: 1, b: 1 })).execution.content, 'sse: 2');
    assert.equal((await runCall(registry, dir.path, 'direct__add', { a: 4, b: 4 })).execution.content, 'sse: 8');
  } finally {
    await manager.dispose();
  }
});

test('a rejected token fails the start with both transports\' errors', async () => {
  const manager = new McpManager({ registry: new ToolRegistry(), defaultStartTimeoutMs: 5000 });
  try {
    await manager.setServers([httpServer('locked', streamable.url, { Authorization: 'Bearer wrong' })]);
    await manager.startAll();
    const status = manager.status('locked');
    assert.equal(status.state, 'failed');
    assert.doesNotMatch(status.message!, /stdout/);
    assert.match(status.message!, /MCP server "locked" failed to start: Streamable HTTP failed: .*missing token; SSE fallback failed: .*401/);
  } finally {
    await manager.dispose();
  }
});

test('nothing listening: a clear connection error, no hang', async () => {
  const manager = new McpManager({ registry: new ToolRegistry(), defaultStartTimeoutMs: 5000 });
  try {
    await manager.setServers([httpServer('nobody', 'http://127.0.0.1:9/mcp', {})]);
    const started = Date.now();
    await manager.startAll();
    assert.equal(manager.status('nobody').state, 'failed');
    assert.match(manager.status('nobody').message!, /failed to start: Streamable HTTP failed: .*; SSE fallback failed: /);
    assert.ok(Date.now() - started < 5000);
  } finally {
    await manager.dispose();
  }
});
