// The editor's MCP host under Node (src/editor/mcp/mcpHost.ts) with the published server-memory from node_modules:
// nothing starts before the warm-up or a turn, definitions reload when they change (the setting and the workspace's
// .vscode/mcp.json on disk), a server the user stopped stays stopped across reloads, a crashed server comes back,
// one that cannot start fails without holding up the turn, and trust unblocks the workspace's servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { Logger } from '../../../src/editor/log/logger';
import type { SettingValues, WorkspaceFileText } from '../../../src/editor/mcp/configSources';
import { ConsentPolicy, ConsentStore, type ConsentAnswer } from '../../../src/editor/mcp/consent';
import { McpHost, type McpHostPort } from '../../../src/editor/mcp/mcpHost';
import type { McpClientFeatures } from '../../../src/mcp/clientFeatures';
import type { McpServerConfig } from '../../../src/mcp/types';
import { RecordingLogSink } from '../../helpers/recordingLogSink';
import { assertProcessGone, packageBin, spawnedPids, tempDir, waitForStatus } from '../../helpers/mcp/mcpHarness';

const MEMORY_BIN = packageBin('@modelcontextprotocol/server-memory');

/** Workspace state in memory, as VS Code's Memento keeps it for the consent store. */
class MemoryMemento {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

/** The editor as the host sees it: a settings value, one folder on disk (its MCP files read from there), trust. */
class DiskEditorPort implements McpHostPort {
  setting: SettingValues = {};
  trusted = true;
  answer: ConsentAnswer = 'allow';
  readonly asked: string[] = [];
  readonly policy = new ConsentPolicy({
    store: new ConsentStore(new MemoryMemento()),
    ask: async (server) => {
      this.asked.push(server.name);
      return this.answer;
    },
  });
  readonly consent = this.policy.port;

  constructor(readonly folder: string) {}

  mcpServersSetting(): SettingValues {
    return this.setting;
  }
  folders(): string[] {
    return [this.folder];
  }
  async readWorkspaceFiles(): Promise<{ files: WorkspaceFileText[]; errors: string[] }> {
    const path = join(this.folder, '.vscode', 'mcp.json');
    try {
      return { files: [{ folder: this.folder, path, text: readFileSync(path, 'utf8') }], errors: [] };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], errors: [] };
      throw err;
    }
  }
  toolTimeoutMs(): number | undefined {
    return undefined;
  }
  isWorkspaceTrusted(): boolean {
    return this.trusted;
  }
  askAgain(server: McpServerConfig): void {
    this.policy.askAgain(server);
  }
  features(): McpClientFeatures | undefined {
    return { roots: () => [{ uri: `file://${this.folder}`, name: 'ws' }] };
  }
}

function memoryServer(dir: string, name: string): Record<string, unknown> {
  return { command: process.execPath, args: [MEMORY_BIN], env: { MEMORY_FILE_PATH: join(dir, `${name}.jsonl`) } };
}

function setup() {
  const dir = tempDir('host');
  const folder = join(dir.path, 'ws');
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  const port = new DiskEditorPort(folder);
  const registry = new ToolRegistry();
  const sink = new RecordingLogSink();
  let registryAsked = 0;
  let changes = 0;
  const host = new McpHost({
    port,
    log: new Logger(sink),
    getRegistry: async () => {
      registryAsked++;
      return registry;
    },
    clientVersion: '9.9.9',
    onDidChange: () => changes++,
    onServerLog: () => undefined,
    reloadDebounceMs: 20,
    tuning: { restartDelaysMs: [50, 50, 50], defaultStartTimeoutMs: 20_000 },
  });
  const pids = new Set<number>();
  const seen = (name: string) => {
    for (const pid of host.runningManager ? spawnedPids(host.runningManager, name) : []) pids.add(pid);
  };
  const finish = async () => {
    for (const s of host.statuses()) seen(s.name);
    await host.shutdown();
    for (const pid of pids) await assertProcessGone(pid);
    assert.deepEqual(registry.list(), [], 'shutting down takes every MCP tool out of the registry');
    dir.cleanup();
  };
  /** A turn's start, with the notices it showed. */
  const turn = async (signal = new AbortController().signal) => {
    const notices: string[] = [];
    await host.beforeTurn(signal, (m) => notices.push(m));
    return notices;
  };
  /** Definitions changed: the host reloads after its debounce; the next turn waits for it. */
  const reload = async (why: string) => {
    host.scheduleReload(why);
    await new Promise((r) => setTimeout(r, 40));
    return turn();
  };
  return { dir, folder, port, registry, host, sink, finish, turn, reload, seen, registryAsked: () => registryAsked, changes: () => changes };
}

const toolNames = (registry: ToolRegistry, server: string) => registry.list().map((t) => t.name).filter((n) => n.startsWith(`${server}__`));

test('nothing starts before the warm-up; the warm-up starts every server once and their tools join the registry', async () => {
  const t = setup();
  try {
    t.port.setting = { globalValue: { a: memoryServer(t.dir.path, 'a'), b: memoryServer(t.dir.path, 'b') } };
    await t.host.loadConfig();
    assert.deepEqual(t.host.statuses().map((s) => [s.name, s.state, s.message]), [
      ['a', 'stopped', 'starts when you open the chat'],
      ['b', 'stopped', 'starts when you open the chat'],
    ]);
    assert.equal(t.host.runningManager, undefined);
    assert.equal(t.registryAsked(), 0, 'reading the definitions does not load the chat engine');
    assert.equal(t.host.summary(), undefined);

    const first = t.host.warmUp();
    assert.equal(t.host.warmUp(), first, 'one warm-up per window');
    await first;
    assert.deepEqual(t.host.statuses().map((s) => [s.name, s.state]), [['a', 'ready'], ['b', 'ready']]);
    assert.ok(toolNames(t.registry, 'a').includes('a__create_entities'), toolNames(t.registry, 'a').join(', '));
    assert.ok(toolNames(t.registry, 'b').includes('b__read_graph'));
    assert.equal(t.host.toolTokens(), t.host.statuses().reduce((n, s) => n + s.toolTokens, 0));
    assert.ok(t.host.toolTokens() > 100);
    assert.equal(t.registryAsked(), 1);
    assert.equal(t.host.runningManager!.status('a').serverInfo?.name !== undefined, true);
  } finally {
    await t.finish();
  }
});

test('the first turn starts the servers and says so once; a cancelled turn stops waiting, not the servers', async () => {
  const t = setup();
  try {
    t.port.setting = { globalValue: { a: memoryServer(t.dir.path, 'a') } };
    const cancelled = new AbortController();
    cancelled.abort();
    const none = await t.turn(cancelled.signal);
    assert.deepEqual(none, [], 'a turn cancelled before it started shows no notice');
    assert.equal(t.host.turnSignal, cancelled.signal);

    const first = await t.turn();
    assert.equal(t.host.statuses()[0]!.state, 'ready', 'the turn waited for the start it caused');
    assert.equal(first.length, 1);
    assert.match(first[0]!, /"a"/);
    assert.ok(toolNames(t.registry, 'a').length > 0);
    assert.deepEqual(await t.turn(), [], 'nothing changed: no second notice');
  } finally {
    await t.finish();
  }
});

test('a changed definition reloads: an added server starts, a removed one stops and its tools go', async () => {
  const t = setup();
  try {
    t.port.setting = { globalValue: { a: memoryServer(t.dir.path, 'a') } };
    await t.turn();
    const aPid = t.host.runningManager!.status('a').pid!;

    t.port.setting = { globalValue: { a: memoryServer(t.dir.path, 'a'), b: memoryServer(t.dir.path, 'b') } };
    const notices = await t.reload('the setting changed');
    assert.deepEqual(t.host.statuses().map((s) => [s.name, s.state]), [['a', 'ready'], ['b', 'ready']]);
    assert.equal(t.host.runningManager!.status('a').pid, aPid, 'an unchanged server keeps running');
    assert.ok(toolNames(t.registry, 'b').length > 0);
    assert.equal(notices.length, 1, 'the tools changed: the next turn says so');
    assert.match(notices[0]!, /2 servers/);

    // A workspace file is read from disk; its server asks for consent first.
    writeFileSync(join(t.folder, '.vscode', 'mcp.json'), JSON.stringify({ servers: { w: memoryServer(t.dir.path, 'w') } }));
    await t.reload('.vscode/mcp.json changed');
    assert.deepEqual(t.port.asked, ['w']);
    assert.equal(t.host.runningManager!.status('w').state, 'ready');

    t.seen('a');
    t.port.setting = { globalValue: { b: memoryServer(t.dir.path, 'b') } };
    await t.reload('the setting changed');
    assert.deepEqual(t.host.statuses().map((s) => s.name).sort(), ['b', 'w']);
    assert.deepEqual(toolNames(t.registry, 'a'), []);
    await assertProcessGone(aPid);

    // A definition that cannot be read keeps the servers; the problem is reported.
    writeFileSync(join(t.folder, '.vscode', 'mcp.json'), '{ "servers": ');
    await t.reload('.vscode/mcp.json changed');
    assert.equal(t.host.definitions.problems().errors.length, 1, t.host.definitions.problems().errors.join('\n'));
    assert.ok(t.sink.messages.some((m) => m.startsWith('MCP configuration: ')));
    assert.ok(t.changes() > 0);
  } finally {
    await t.finish();
  }
});

test('a server the user stopped stays stopped across reloads until they start it', async () => {
  const t = setup();
  try {
    t.port.setting = { globalValue: { a: memoryServer(t.dir.path, 'a') } };
    await t.host.warmUp();
    t.seen('a');
    await t.host.stop('a');
    assert.equal(t.host.statuses()[0]!.state, 'stopped');
    assert.deepEqual(toolNames(t.registry, 'a'), []);

    t.port.setting = { globalValue: { a: memoryServer(t.dir.path, 'a'), c: memoryServer(t.dir.path, 'c') } };
    await t.reload('the setting changed');
    assert.equal(t.host.runningManager!.status('c').state, 'ready', 'a new server starts');
    assert.equal(t.host.runningManager!.status('a').state, 'stopped', 'the stopped one does not');
    await t.turn();
    assert.equal(t.host.runningManager!.status('a').state, 'stopped', 'nor does a turn start it');

    await t.host.start('a');
    assert.equal(t.host.runningManager!.status('a').state, 'ready');
    await t.reload('the setting changed');
    assert.equal(t.host.runningManager!.status('a').state, 'ready');
  } finally {
    await t.finish();
  }
});

test('a crashed server restarts by itself; one that cannot start fails without holding up the turn', async () => {
  const t = setup();
  try {
    t.port.setting = {
      globalValue: { a: memoryServer(t.dir.path, 'a'), broken: { command: process.execPath, args: [join(t.dir.path, 'missing.js')] } },
    };
    await t.turn();
    const manager = t.host.runningManager!;
    assert.equal(manager.status('broken').state, 'failed');
    assert.match(manager.status('broken').message ?? '', /broken/);
    assert.equal(manager.status('a').state, 'ready');

    const before = manager.status('a').pid!;
    t.seen('a');
    process.kill(before, 'SIGKILL');
    await waitForStatus(manager, 'a', (s) => s.state === 'restarting');
    const back = await waitForStatus(manager, 'a', (s) => s.state === 'ready');
    assert.notEqual(back.pid, before);
    assert.equal(back.restartAttempts, 1);
    assert.ok(toolNames(t.registry, 'a').length > 0, 'its tools are back');
    await assertProcessGone(before);
  } finally {
    await t.finish();
  }
});

test("an untrusted workspace's servers stay blocked until trust is granted; refused consent blocks until asked again", async () => {
  const t = setup();
  try {
    t.port.trusted = false;
    t.port.setting = { globalValue: { user: memoryServer(t.dir.path, 'user') } };
    writeFileSync(join(t.folder, '.vscode', 'mcp.json'), JSON.stringify({ servers: { w: memoryServer(t.dir.path, 'w') } }));
    await t.turn();
    const manager = t.host.runningManager!;
    assert.equal(manager.status('user').state, 'ready', "the user's own server runs anyway");
    assert.equal(manager.status('w').state, 'blocked');
    assert.deepEqual(t.port.asked, [], 'no question in an untrusted workspace');

    t.port.trusted = true;
    t.port.answer = 'deny';
    t.host.trustGranted();
    await t.turn();
    assert.deepEqual(t.port.asked, ['w']);
    assert.equal(manager.status('w').state, 'blocked');

    t.port.answer = 'allow';
    await t.host.start('w');
    assert.deepEqual(t.port.asked, ['w', 'w'], 'starting it by hand asks again');
    assert.equal(manager.status('w').state, 'ready');
  } finally {
    await t.finish();
  }
});
