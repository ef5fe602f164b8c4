// Start/stop/restart, consent and trust, tool-list changes and pagination, configuration changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { commandLineOf } from '../../../src/mcp/serverCommand';
import { McpManager } from '../../../src/mcp/manager';
import type { McpServerConfig, McpServerStatus } from '../../../src/mcp/types';
import { assertProcessGone, fixture, runCall, spawnedPids, stdioServer, tempDir, waitForStatus } from '../../helpers/mcp/mcpHarness';

function fromWorkspaceFile(config: McpServerConfig): McpServerConfig {
  return { ...config, source: { kind: 'workspaceFile', path: '/ws/.vscode/mcp.json' } };
}

/** A consent port that answers from a script and remembers what it was shown. */
class ScriptedConsent {
  readonly asked: string[] = [];
  constructor(private readonly answer: boolean | Error) {}
  readonly port = async (_server: McpServerConfig, commandLine: string): Promise<boolean> => {
    this.asked.push(commandLine);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  };
}

test('stop kills the process and removes the tools; start brings them back; changes fire events', async () => {
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry });
  const seen: McpServerStatus['state'][] = [];
  manager.onDidChange((s) => seen.push(s.state));
  await manager.setServers([stdioServer('s', fixture('scripted.mjs'))]);
  try {
    assert.equal(manager.status('s').state, 'stopped');
    await manager.start('s');
    const first = manager.status('s');
    assert.equal(first.state, 'ready');
    assert.equal(first.tools.length, 7);
    assert.deepEqual(first.serverInfo, { name: 'scripted', version: '1.2.3' });
    assert.ok(registry.get('s__ping'));

    await manager.stop('s');
    assert.equal(manager.status('s').state, 'stopped');
    await assertProcessGone(first.pid!);
    assert.equal(registry.get('s__ping'), undefined);

    await manager.restart('s');
    assert.equal(manager.status('s').state, 'ready');
    assert.notEqual(manager.status('s').pid, first.pid);
    assert.deepEqual(seen.slice(0, 3), ['starting', 'ready', 'stopped']);
    assert.match(manager.getLog('s').join('\n'), /\[stderr\] scripted: ready/);
  } finally {
    const pids = spawnedPids(manager, 's');
    await manager.dispose();
    for (const pid of pids) await assertProcessGone(pid);
  }
});

test('tools/list is followed through every page', async () => {
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry });
  await manager.setServers([stdioServer('pages', fixture('paginated.mjs'))]);
  try {
    await manager.startAll();
    const status = manager.status('pages');
    assert.deepEqual(status.tools.map((t) => `${t.registeredName}:${t.risk}`), [
      'pages__tool_1:read',
      'pages__tool_2:write',
      'pages__tool_3:read',
      'pages__tool_4:write',
      'pages__tool_5:read',
    ]);
  } finally {
    await manager.dispose();
  }
});

test('notifications/tools/list_changed re-lists and re-registers the tools', async () => {
  const dir = tempDir('listchanged');
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry });
  await manager.setServers([stdioServer('s', fixture('scripted.mjs'))]);
  try {
    await manager.startAll();
    const tokensBefore = manager.status('s').toolTokens;
    const added = await runCall(registry, dir.path, 's__add_tool', { n: 1 });
    assert.equal(added.execution.content, 'added extra_1');
    const status = await waitForStatus(manager, 's', (s) => s.tools.some((t) => t.mcpName === 'extra_1'));
    assert.ok(status.toolTokens > tokensBefore, 'the new definition costs tokens');
    assert.equal((await runCall(registry, dir.path, 's__extra_1', {})).execution.content, 'extra_1 ran');
  } finally {
    await manager.dispose();
    dir.cleanup();
  }
});

test('workspace-defined servers never start in an untrusted workspace, and nobody is asked', async () => {
  const dir = tempDir('untrusted');
  const startLog = join(dir.path, 'starts.log');
  const consent = new ScriptedConsent(true);
  const manager = new McpManager({ registry: new ToolRegistry(), consent: consent.port, isWorkspaceTrusted: () => false });
  await manager.setServers([fromWorkspaceFile(stdioServer('ws', fixture('scripted.mjs'), [], { env: { START_LOG: startLog } }))]);
  try {
    await manager.startAll();
    const status = manager.status('ws');
    assert.equal(status.state, 'blocked');
    assert.match(status.message!, /not trusted/);
    assert.deepEqual(consent.asked, []);
    assert.equal(existsSync(startLog), false, 'no process was started');
  } finally {
    await manager.dispose();
    dir.cleanup();
  }
});

test('consent: the user sees the exact command line; a no, a throw or no port at all keep the server from starting', async () => {
  const dir = tempDir('consent');
  const startLog = join(dir.path, 'starts.log');
  const config = fromWorkspaceFile(stdioServer('ws', fixture('scripted.mjs'), [], { env: { START_LOG: startLog } }));
  for (const [answer, pattern] of [
    [false, /you did not allow/],
    [new Error('dialog closed'), /you did not allow/],
    [undefined, /needs your consent to start, but no one can be asked/],
  ] as const) {
    const consent = answer === undefined ? undefined : new ScriptedConsent(answer);
    const manager = new McpManager({ registry: new ToolRegistry(), ...(consent && { consent: consent.port }) });
    await manager.setServers([config]);
    await manager.startAll();
    assert.equal(manager.status('ws').state, 'blocked');
    assert.match(manager.status('ws').message!, pattern);
    if (consent) assert.deepEqual(consent.asked, [commandLineOf(config)]);
    await manager.dispose();
  }
  assert.equal(existsSync(startLog), false, 'no process was started');
  dir.cleanup();
});

test('consent given once covers automatic restarts, not manual ones; servers from settings or a CLI file need none', async () => {
  const dir = tempDir('consent-yes');
  const consent = new ScriptedConsent(true);
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, consent: consent.port, restartDelaysMs: [50] });
  await manager.setServers([
    fromWorkspaceFile(stdioServer('ws', fixture('scripted.mjs'))),
    { ...stdioServer('user', fixture('scripted.mjs')), source: { kind: 'userSetting' } },
  ]);
  try {
    await manager.startAll();
    assert.deepEqual(manager.statuses().map((s) => s.state), ['ready', 'ready']);
    assert.equal(consent.asked.length, 1);
    assert.match(consent.asked[0]!, /scripted\.mjs/);
    await runCall(registry, dir.path, 'ws__crash', {});
    await waitForStatus(manager, 'ws', (s) => s.state === 'ready' && s.restartAttempts === 1);
    assert.equal(consent.asked.length, 1, 'the automatic restart did not ask again');
    await manager.restart('ws');
    assert.equal(consent.asked.length, 2, 'a restart by the user asks the port again (the host may have revoked consent)');
  } finally {
    const pids = [...spawnedPids(manager, 'ws'), ...spawnedPids(manager, 'user')];
    await manager.dispose();
    for (const pid of pids) await assertProcessGone(pid);
    dir.cleanup();
  }
});

test('setServers: a changed definition restarts a running server, a removed one stops, an unchanged one is left alone', async () => {
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry });
  const keep = stdioServer('keep', fixture('scripted.mjs'));
  const change = stdioServer('change', fixture('scripted.mjs'));
  const drop = stdioServer('drop', fixture('paginated.mjs'));
  await manager.setServers([keep, change, drop]);
  try {
    await manager.startAll();
    const before = Object.fromEntries(manager.statuses().map((s) => [s.name, s.pid]));
    await manager.setServers([keep, { ...change, tools: { ping: { disabled: true } } }]);
    assert.deepEqual(manager.serverNames(), ['keep', 'change']);
    await assertProcessGone(before.drop!);
    assert.equal(registry.get('drop__tool_1'), undefined);
    const changed = await waitForStatus(manager, 'change', (s) => s.state === 'ready');
    assert.notEqual(changed.pid, before.change);
    assert.equal(registry.get('change__ping'), undefined, 'the new definition disabled ping');
    assert.equal(manager.status('keep').pid, before.keep);
    await assert.rejects(manager.setServers([keep, keep]), /two MCP servers are named "keep"/);
  } finally {
    await manager.dispose();
  }
});

test('stopping a server that is still in its handshake returns promptly and kills it', async () => {
  const manager = new McpManager({ registry: new ToolRegistry(), defaultStartTimeoutMs: 30_000 });
  await manager.setServers([stdioServer('slowpoke', fixture('noHandshake.mjs'))]);
  try {
    const starting = manager.start('slowpoke');
    const deadline = Date.now() + 10_000;
    while (spawnedPids(manager, 'slowpoke').length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const [pid] = spawnedPids(manager, 'slowpoke');
    assert.ok(pid, 'the process was spawned');
    const stopped = Date.now();
    await manager.stop('slowpoke');
    await starting;
    assert.ok(Date.now() - stopped < 5000, `stop took ${Date.now() - stopped} ms`);
    assert.equal(manager.status('slowpoke').state, 'stopped');
    await assertProcessGone(pid);
  } finally {
    await manager.dispose();
  }
});
