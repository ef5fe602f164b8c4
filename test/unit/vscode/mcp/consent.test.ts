import { test } from 'node:test';
import assert from 'node:assert/strict';
import { consentFingerprint } from '../../../../src/mcp/serverCommand';
import type { McpServerConfig, McpServerSource } from '../../../../src/mcp/types';
import {
  CONSENT_KEY,
  ConsentPolicy,
  ConsentStore,
  consentDialogText,
  type ConsentAnswer,
  type ConsentMemento,
} from '../../../../src/editor/mcp/consent';

/** A workspaceState stand-in that keeps JSON copies, as VS Code does. */
class RecordingMemento implements ConsentMemento {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

/** Answers consent questions from a queue and records what it was shown. */
class ScriptedAsker {
  readonly asked: Array<{ name: string; commandLine: string }> = [];
  constructor(private readonly answers: Array<ConsentAnswer | undefined | Promise<ConsentAnswer | undefined>>) {}
  readonly ask = async (server: McpServerConfig, commandLine: string): Promise<ConsentAnswer | undefined> => {
    this.asked.push({ name: server.name, commandLine });
    if (this.answers.length === 0) throw new Error(`no scripted answer left for ${server.name}`);
    return this.answers.shift();
  };
}

const FILE: McpServerSource = { kind: 'workspaceFile', path: '/w/.vscode/mcp.json' };

function server(name: string, args: string[] = ['server.js'], source: McpServerSource = FILE): McpServerConfig {
  return { name, source, transport: { type: 'stdio', command: '/usr/bin/node', args, env: {}, cwd: '/w' }, tools: {} };
}

function setup(answers: Array<ConsentAnswer | undefined | Promise<ConsentAnswer | undefined>>) {
  const memento = new RecordingMemento();
  const store = new ConsentStore(memento);
  const asker = new ScriptedAsker(answers);
  const policy = new ConsentPolicy({ store, ask: asker.ask, now: () => new Date('2026-01-02T03:04:05Z') });
  return { memento, store, asker, policy };
}

test('a user-defined server needs no consent and nobody is asked', async () => {
  const { policy, asker } = setup([]);
  assert.equal(await policy.port(server('mine', [], { kind: 'userSetting' }), 'node'), true);
  assert.equal(asker.asked.length, 0);
});

test('Allow is remembered per definition in workspace storage; the next start does not ask', async () => {
  const { policy, asker, memento, store } = setup(['allow']);
  const memory = server('memory');
  assert.equal(await policy.port(memory, 'node server.js'), true);
  assert.deepEqual(asker.asked, [{ name: 'memory', commandLine: 'node server.js' }]);
  assert.deepEqual(memento.values.get(CONSENT_KEY), [
    { fingerprint: consentFingerprint(memory), name: 'memory', commandLine: 'node server.js', definedIn: '/w/.vscode/mcp.json', grantedAt: '2026-01-02T03:04:05.000Z' },
  ]);
  assert.equal(await policy.port(memory, 'node server.js'), true);
  assert.equal(asker.asked.length, 1, 'remembered, not asked again');
  assert.equal(policy.isGranted(memory), true);
  // A new policy over the same storage (a reloaded window) still knows.
  const reloaded = new ConsentPolicy({ store, ask: () => Promise.reject(new Error('must not ask')) });
  assert.equal(await reloaded.decide(memory), true);
});

test('an edited definition (other arguments) asks again', async () => {
  const { policy, asker } = setup(['allow', 'deny']);
  assert.equal(await policy.decide(server('memory', ['a.js'])), true);
  assert.equal(await policy.decide(server('memory', ['b.js'])), false);
  assert.equal(asker.asked.length, 2);
  assert.equal(policy.isGranted(server('memory', ['a.js'])), true);
  assert.equal(policy.isGranted(server('memory', ['b.js'])), false);
});

test('Deny (or dismissing the dialog) is remembered for the window only, until the user starts the server', async () => {
  const { policy, asker, memento } = setup(['deny', undefined, 'allow']);
  const memory = server('memory');
  assert.equal(await policy.decide(memory), false);
  assert.equal(await policy.decide(memory), false, 'not asked on every turn');
  assert.equal(asker.asked.length, 1);
  assert.equal(policy.wasDenied(memory), true);
  assert.equal(memento.writes, 0, 'a no is not written to workspace storage');
  policy.askAgain(memory);
  assert.equal(await policy.decide(memory), false, 'dismissed = no');
  policy.askAgain(memory);
  assert.equal(await policy.decide(memory), true);
  assert.equal(asker.asked.length, 3);
});

test('questions come one at a time; a second question for the same definition waits for the first answer', async () => {
  let answerFirst!: (a: ConsentAnswer) => void;
  const first = new Promise<ConsentAnswer>((resolve) => (answerFirst = resolve));
  const { policy, asker } = setup([first, 'deny']);
  const a = policy.decide(server('a'));
  const aAgain = policy.decide(server('a'));
  const b = policy.decide(server('b', ['other.js']));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(asker.asked.map((q) => q.name), ['a'], 'b waits while a is on screen');
  answerFirst('allow');
  assert.deepEqual(await Promise.all([a, aAgain, b]), [true, true, false]);
  assert.deepEqual(asker.asked.map((q) => q.name), ['a', 'b']);
});

test('a failing dialog means no and does not block later questions', async () => {
  const memento = new RecordingMemento();
  const store = new ConsentStore(memento);
  let calls = 0;
  const policy = new ConsentPolicy({
    store,
    ask: async () => {
      calls++;
      if (calls === 1) throw new Error('no window');
      return 'allow';
    },
  });
  await assert.rejects(policy.decide(server('x')), /no window/);
  assert.equal(await policy.decide(server('y', ['y.js'])), true);
});

test('revoking removes only the chosen records, and the server asks again', async () => {
  const { policy, store, asker } = setup(['allow', 'allow', 'allow']);
  const one = server('one', ['1.js']);
  const two = server('two', ['2.js']);
  await policy.decide(one);
  await policy.decide(two);
  const removed = await store.revoke([consentFingerprint(one)]);
  assert.deepEqual(removed.map((r) => r.name), ['one']);
  assert.deepEqual(store.list().map((r) => r.name), ['two']);
  assert.equal(await policy.decide(one), true);
  assert.equal(asker.asked.length, 3, 'asked again after the revoke');
  assert.deepEqual(await store.revoke(['unknown']), []);
});

test('malformed storage is ignored, not trusted', () => {
  const memento = new RecordingMemento();
  memento.values.set(CONSENT_KEY, [{ fingerprint: 42 }, null, 'x', { fingerprint: 'f', name: 'n', commandLine: 'c', definedIn: 'd', grantedAt: 'g' }]);
  assert.deepEqual(new ConsentStore(memento).list().map((r) => r.fingerprint), ['f']);
  memento.values.set(CONSENT_KEY, { not: 'a list' });
  assert.deepEqual(new ConsentStore(memento).list(), []);
});

test('the dialog shows the exact command line and where it was defined', () => {
  const memory = server('memory');
  const text = consentDialogText(memory, "/usr/bin/node server.js  (in /w)");
  assert.match(text.message, /"memory" defined by this workspace/);
  assert.ok(text.detail.includes('/usr/bin/node server.js  (in /w)'));
  assert.match(text.detail, /run this command on your computer/);
  assert.match(text.detail, /Defined in \/w\/\.vscode\/mcp\.json/);
  assert.match(text.detail, /Revoke MCP Server Consent/);
  const http: McpServerConfig = { name: 'web', source: FILE, transport: { type: 'http', url: 'https://x.test/mcp', headers: {} }, tools: {} };
  assert.match(consentDialogText(http, 'HTTP https://x.test/mcp').detail, /will connect to:\n\nHTTP https:\/\/x\.test\/mcp/);
});
