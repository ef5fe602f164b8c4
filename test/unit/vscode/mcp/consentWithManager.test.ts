// The consent policy as the McpManager uses it, against the real published memory server: deny keeps the
// server blocked without asking again, a later explicit start asks again, allow is remembered across managers
// (a reloaded window), and an untrusted workspace never asks at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { McpManager } from '../../../../src/mcp/manager';
import type { McpServerConfig } from '../../../../src/mcp/types';
import { collectServers } from '../../../../src/editor/mcp/configSources';
import { ConsentPolicy, ConsentStore, type ConsentAnswer, type ConsentMemento } from '../../../../src/editor/mcp/consent';

const MEMORY_BIN = resolve(__dirname, '../../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js');

class MemoryMemento implements ConsentMemento {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

class QueuedAnswers {
  readonly asked: string[] = [];
  constructor(private readonly answers: ConsentAnswer[]) {}
  readonly ask = async (server: McpServerConfig, commandLine: string): Promise<ConsentAnswer> => {
    this.asked.push(`${server.name}: ${commandLine}`);
    const next = this.answers.shift();
    if (!next) throw new Error(`unexpected consent question for ${server.name}`);
    return next;
  };
}

function workspaceServers(folder: string): McpServerConfig[] {
  const text = JSON.stringify({
    servers: { memory: { command: process.execPath, args: [MEMORY_BIN], env: { MEMORY_FILE_PATH: '${workspaceFolder}/memory.jsonl' } } },
  });
  const result = collectServers({ files: [{ folder, path: join(folder, '.vscode/mcp.json'), text }] });
  assert.deepEqual(result.errors, []);
  return result.servers;
}

test('deny blocks without asking again, an explicit start asks again, allow is remembered by the next manager', { timeout: 60_000 }, async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'lh-mcp-consent-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const servers = workspaceServers(folder);
  const store = new ConsentStore(new MemoryMemento());
  const answers = new QueuedAnswers(['deny', 'allow']);
  const policy = new ConsentPolicy({ store, ask: answers.ask });
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, consent: policy.port, defaultStartTimeoutMs: 20_000 });
  t.after(() => manager.dispose());
  await manager.setServers(servers);

  await manager.startAll();
  assert.equal(manager.status('memory').state, 'blocked');
  assert.equal(answers.asked.length, 1);
  assert.ok(answers.asked[0]!.includes(`MEMORY_FILE_PATH=${folder}/memory.jsonl`), answers.asked[0]);
  assert.ok(answers.asked[0]!.includes(MEMORY_BIN));
  assert.equal(registry.get('memory__create_entities'), undefined);

  await manager.startAll(); // the next turn
  assert.equal(manager.status('memory').state, 'blocked');
  assert.equal(answers.asked.length, 1, 'a no stands for this window');

  policy.askAgain(servers[0]!); // the user pressed Start
  await manager.start('memory');
  assert.equal(manager.status('memory').state, 'ready');
  assert.equal(answers.asked.length, 2);
  assert.ok(registry.get('memory__create_entities'), 'its tools joined the registry');
  assert.ok(manager.totalToolTokens() > 100);
  await manager.dispose();
  assert.equal(registry.get('memory__create_entities'), undefined, 'disposing takes the tools out');

  // A reloaded window: a new policy and manager over the same workspace storage start it without asking.
  const again = new McpManager({
    registry: new ToolRegistry(),
    consent: new ConsentPolicy({ store, ask: () => Promise.reject(new Error('must not ask')) }).port,
    defaultStartTimeoutMs: 20_000,
  });
  t.after(() => again.dispose());
  await again.setServers(workspaceServers(folder));
  await again.startAll();
  assert.equal(again.status('memory').state, 'ready');
  await again.dispose();
});

test('an untrusted workspace neither asks nor starts workspace servers', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'lh-mcp-untrusted-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const answers = new QueuedAnswers([]);
  const policy = new ConsentPolicy({ store: new ConsentStore(new MemoryMemento()), ask: answers.ask });
  const manager = new McpManager({ registry: new ToolRegistry(), consent: policy.port, isWorkspaceTrusted: () => false });
  t.after(() => manager.dispose());
  await manager.setServers(workspaceServers(folder));
  await manager.startAll();
  assert.equal(manager.status('memory').state, 'blocked');
  assert.match(manager.status('memory').message ?? '', /not trusted/);
  assert.deepEqual(answers.asked, []);
});
