// Consent for a model server named by the workspace: asked once before the first request, remembered per
// workspace by exact value, Deny keeps the user's server, a dismissed dialog is a "no" for this window only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SERVER_ALLOW,
  SERVER_BUTTONS,
  SERVER_CHOICES_KEY,
  SERVER_DENY,
  ServerChoiceStore,
  ServerConsent,
  answerForButton,
  describeServerChoice,
  serverDialogText,
  type ServerAnswer,
  type ServerQuestion,
} from '../../../src/editor/settings/serverConsent';
import { resolveServerSettings, type ScopedValues, type ServerResolution } from '../../../src/editor/settings/serverSettings';

class MemoryMemento {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

const USER_URL = 'http://127.0.0.1:1234/v1';

function resolution(workspaceUrl?: string): ServerResolution {
  const user: Record<string, unknown> = { provider: 'openai', 'openai.baseUrl': USER_URL };
  const workspace: Record<string, unknown> = workspaceUrl ? { 'openai.baseUrl': workspaceUrl } : {};
  const inspect = (key: string): ScopedValues => ({ globalValue: user[key], workspaceValue: workspace[key] });
  return resolveServerSettings((key) => workspace[key] ?? user[key], inspect, true);
}

/** Answers each question with the next scripted answer and records what it was asked. */
function scriptedUser(answers: Array<ServerAnswer | undefined>) {
  const asked: ServerQuestion[] = [];
  const ask = async (q: ServerQuestion) => {
    asked.push(q);
    return answers.shift();
  };
  return { asked, ask };
}

test('no workspace server: the user\u2019s settings, nothing asked', async () => {
  const user = scriptedUser([]);
  const consent = new ServerConsent({ store: new ServerChoiceStore(new MemoryMemento()), ask: user.ask });
  const pick = await consent.settle(resolution());
  assert.equal(pick.settings.openaiBaseUrl, USER_URL);
  assert.equal(pick.source, 'user');
  assert.equal(user.asked.length, 0);
});

test('Allow: the workspace server is used, and remembered across windows (a new store on the same storage)', async () => {
  const memento = new MemoryMemento();
  const user = scriptedUser(['allow']);
  const consent = new ServerConsent({ store: new ServerChoiceStore(memento), ask: user.ask, now: () => new Date('2026-01-02T03:04:05Z') });
  const r = resolution('http://10.0.0.9:8000/v1');
  const first = await consent.settle(r);
  assert.equal(first.settings.openaiBaseUrl, 'http://10.0.0.9:8000/v1');
  assert.equal(first.source, 'workspace');
  assert.equal(first.how, 'asked');
  assert.deepEqual(user.asked, [{ workspace: { provider: 'openai', url: 'http://10.0.0.9:8000/v1' }, user: { provider: 'openai', url: USER_URL } }]);
  assert.deepEqual(memento.get(SERVER_CHOICES_KEY), [{ provider: 'openai', url: 'http://10.0.0.9:8000/v1', decision: 'allow', decidedAt: '2026-01-02T03:04:05.000Z' }]);

  const again = await consent.settle(r);
  assert.equal(again.how, 'remembered');
  const reloaded = new ServerConsent({ store: new ServerChoiceStore(memento), ask: scriptedUser([]).ask });
  assert.equal(reloaded.current(r).settings.openaiBaseUrl, 'http://10.0.0.9:8000/v1');
  assert.equal(user.asked.length, 1);
});

test('Deny: the user\u2019s server, remembered; a changed workspace value asks again', async () => {
  const memento = new MemoryMemento();
  const user = scriptedUser(['deny', 'allow']);
  const consent = new ServerConsent({ store: new ServerChoiceStore(memento), ask: user.ask });
  const denied = await consent.settle(resolution('http://evil.example/v1'));
  assert.equal(denied.settings.openaiBaseUrl, USER_URL);
  assert.equal(denied.source, 'user');
  assert.equal((await consent.settle(resolution('http://evil.example/v1'))).how, 'remembered');
  assert.equal(user.asked.length, 1);

  const changed = await consent.settle(resolution('http://evil.example:8080/v1'));
  assert.equal(user.asked.length, 2, 'a different value is a different question');
  assert.equal(changed.settings.openaiBaseUrl, 'http://evil.example:8080/v1');
});

test('a dismissed dialog is a no for this window only: not stored, not asked again until forgotten', async () => {
  const memento = new MemoryMemento();
  const user = scriptedUser([undefined, 'allow']);
  const consent = new ServerConsent({ store: new ServerChoiceStore(memento), ask: user.ask });
  const r = resolution('http://10.0.0.9:8000/v1');
  const pick = await consent.settle(r);
  assert.equal(pick.settings.openaiBaseUrl, USER_URL);
  assert.equal(pick.how, 'dismissed');
  assert.equal(memento.get(SERVER_CHOICES_KEY), undefined);
  assert.equal((await consent.settle(r)).how, 'dismissed');
  assert.equal(user.asked.length, 1);
  consent.forgetDismissed();
  assert.equal((await consent.settle(r)).source, 'workspace');
  assert.equal(user.asked.length, 2);
});

test('current() never asks: an undecided workspace server is not used', () => {
  const user = scriptedUser([]);
  const consent = new ServerConsent({ store: new ServerChoiceStore(new MemoryMemento()), ask: user.ask });
  const pick = consent.current(resolution('http://10.0.0.9:8000/v1'));
  assert.equal(pick.settings.openaiBaseUrl, USER_URL);
  assert.equal(pick.how, 'not asked yet');
  assert.equal(user.asked.length, 0);
});

test('requests arriving together share one dialog', async () => {
  let release!: (a: ServerAnswer) => void;
  let asked = 0;
  const consent = new ServerConsent({
    store: new ServerChoiceStore(new MemoryMemento()),
    ask: () => {
      asked++;
      return new Promise<ServerAnswer>((resolve) => (release = resolve));
    },
  });
  const r = resolution('http://10.0.0.9:8000/v1');
  const a = consent.settle(r);
  const b = consent.settle(r);
  await new Promise((resolve) => setImmediate(resolve));
  release('allow');
  const [pa, pb] = await Promise.all([a, b]);
  assert.equal(asked, 1);
  assert.equal(pa.source, 'workspace');
  assert.equal(pb.source, 'workspace');
});

test('revoking a remembered answer makes the next request ask again', async () => {
  const memento = new MemoryMemento();
  const store = new ServerChoiceStore(memento);
  const user = scriptedUser(['allow', 'deny']);
  const consent = new ServerConsent({ store, ask: user.ask });
  const r = resolution('http://10.0.0.9:8000/v1');
  await consent.settle(r);
  const [choice] = store.list();
  assert.equal(describeServerChoice(choice!), 'Model server for this workspace: http://10.0.0.9:8000/v1 (allowed)');
  const removed = await store.revoke([choice!]);
  assert.equal(removed.length, 1);
  assert.deepEqual(store.list(), []);
  const after = await consent.settle(r);
  assert.equal(user.asked.length, 2);
  assert.equal(after.settings.openaiBaseUrl, USER_URL);
  assert.equal(describeServerChoice(store.list()[0]!), 'Model server for this workspace: http://10.0.0.9:8000/v1 (denied)');
});

test('a failing dialog reaches the caller and does not wedge the next question', async () => {
  let calls = 0;
  const consent = new ServerConsent({
    store: new ServerChoiceStore(new MemoryMemento()),
    ask: async () => {
      calls++;
      if (calls === 1) throw new Error('no window');
      return 'deny';
    },
  });
  const r = resolution('http://10.0.0.9:8000/v1');
  await assert.rejects(consent.settle(r), /no window/);
  assert.equal((await consent.settle(r)).source, 'user');
  assert.equal(calls, 2);
});

test('storage from another version holding junk is ignored', () => {
  const memento = new MemoryMemento();
  memento.values.set(SERVER_CHOICES_KEY, [null, 'x', { provider: 'openai', url: 'http://a/v1', decision: 'maybe' }, { provider: 'ollama', url: 'http://b', decision: 'deny', decidedAt: '' }]);
  assert.deepEqual(new ServerChoiceStore(memento).list().map((c) => c.url), ['http://b']);
});

test('the dialog names both servers and the key rule; Deny is the first (default) button', () => {
  const { message, detail } = serverDialogText({ workspace: { provider: 'openai', url: 'https://collect.example.com/v1' }, user: { provider: 'ollama', url: 'http://127.0.0.1:11434' } });
  assert.equal(message, 'This workspace sets the model server to https://collect.example.com/v1. Send your code there?');
  assert.match(detail, /Your own settings use http:\/\/127\.0\.0\.1:11434 \(Ollama\)/);
  assert.match(detail, /API key is never sent to https:\/\/collect\.example\.com unless you stored a key for that server/);
  assert.match(detail, /Manage Approval Rules/);
  assert.equal(SERVER_BUTTONS[0], SERVER_DENY);
  assert.equal(answerForButton(SERVER_ALLOW), 'allow');
  assert.equal(answerForButton(SERVER_DENY), 'deny');
  assert.equal(answerForButton('Cancel'), undefined);
  assert.equal(answerForButton(undefined), undefined);
});
