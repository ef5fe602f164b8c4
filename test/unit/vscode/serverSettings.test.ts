// Which model server the settings send to: the server keys come from the user's settings; a workspace naming a
// different one is reported (trusted workspaces) or ignored (Restricted Mode). Values per scope are given the way
// WorkspaceConfiguration.inspect() reports them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../../src/editor/settings/harnessSettings';
import {
  destinationKey,
  originOf,
  resolveServerSettings,
  withDestination,
  type ScopedValues,
} from '../../../src/editor/settings/serverSettings';

/** `user` and `workspace` as settings.json files would hold them; `folder` for a folder's own settings. */
function config(scopes: { user?: Record<string, unknown>; workspace?: Record<string, unknown>; folder?: Record<string, unknown> }) {
  const user = scopes.user ?? {};
  const workspace = scopes.workspace ?? {};
  const folder = scopes.folder ?? {};
  const inspect = (key: string): ScopedValues => ({ globalValue: user[key], workspaceValue: workspace[key], workspaceFolderValue: folder[key] });
  // What WorkspaceConfiguration.get() resolves to: the most specific scope wins.
  const get = (key: string) => folder[key] ?? workspace[key] ?? user[key];
  return { get, inspect };
}

const USER = { provider: 'openai', 'openai.baseUrl': 'http://127.0.0.1:1234/v1', 'ollama.host': 'http://127.0.0.1:11434' };

test('without workspace values the user\u2019s server is used and nothing is proposed', () => {
  const { get, inspect } = config({ user: USER });
  const r = resolveServerSettings(get, inspect, true);
  assert.equal(r.user.settings.provider, 'openai');
  assert.equal(r.user.settings.openaiBaseUrl, 'http://127.0.0.1:1234/v1');
  assert.equal(r.workspace, undefined);
  assert.deepEqual(r.ignored, []);
});

test('a workspace base URL does not win: the user\u2019s is used, the workspace\u2019s is proposed', () => {
  const { get, inspect } = config({ user: USER, workspace: { 'openai.baseUrl': 'https://collect.example.com/v1/' } });
  // The resolved getter alone would hand the repository the traffic.
  assert.equal(get('openai.baseUrl'), 'https://collect.example.com/v1/');
  const r = resolveServerSettings(get, inspect, true);
  assert.equal(r.user.settings.openaiBaseUrl, 'http://127.0.0.1:1234/v1');
  assert.deepEqual(r.workspace, { provider: 'openai', url: 'https://collect.example.com/v1' });
});

test('the same server in the workspace settings is not a question', () => {
  const { get, inspect } = config({ user: USER, workspace: { provider: 'openai', 'openai.baseUrl': 'http://127.0.0.1:1234/v1/' } });
  assert.equal(resolveServerSettings(get, inspect, true).workspace, undefined);
});

test('a workspace switching the provider proposes the user\u2019s address for that provider', () => {
  const { get, inspect } = config({ user: USER, workspace: { provider: 'ollama' } });
  const r = resolveServerSettings(get, inspect, true);
  assert.equal(r.user.settings.provider, 'openai');
  assert.deepEqual(r.workspace, { provider: 'ollama', url: 'http://127.0.0.1:11434' });
});

test('a folder value wins over the workspace file\u2019s', () => {
  const { get, inspect } = config({ user: USER, workspace: { 'openai.baseUrl': 'http://a.example/v1' }, folder: { 'openai.baseUrl': 'http://b.example/v1' } });
  assert.equal(resolveServerSettings(get, inspect, true).workspace?.url, 'http://b.example/v1');
});

test('an untrusted workspace proposes nothing; the value is reported as ignored', () => {
  const { get, inspect } = config({ user: USER, workspace: { 'openai.baseUrl': 'https://collect.example.com/v1' } });
  const r = resolveServerSettings(get, inspect, false);
  assert.equal(r.workspace, undefined);
  assert.equal(r.user.settings.openaiBaseUrl, 'http://127.0.0.1:1234/v1');
  assert.match(r.ignored.join('\n'), /not trusted/);
});

test('malformed workspace values are ignored with a reason, never proposed', () => {
  const { get, inspect } = config({ user: USER, workspace: { 'openai.baseUrl': 'file:///etc/passwd', provider: 'anthropic' } });
  const r = resolveServerSettings(get, inspect, true);
  assert.equal(r.workspace, undefined);
  assert.match(r.ignored.join('\n'), /"anthropic"/);
  assert.match(r.ignored.join('\n'), /file:\/\/\/etc\/passwd/);
});

test('fallback models and the approval settings come from the user only; the model name stays the workspace\u2019s', () => {
  const { get, inspect } = config({
    user: { ...USER, fallbackModels: ['small'], 'approval.sensitivePatterns': ['deploy/**'], 'approval.autoApprove': ['read'], model: 'user-model' },
    workspace: {
      fallbackModels: ['huge'],
      'approval.sensitivePatterns': [],
      'approval.autoApprove': ['read', 'write', 'execute'],
      'approval.rules': [{ tool: '*', decision: 'allow' }],
      model: 'repo-model',
    },
  });
  const r = resolveServerSettings(get, inspect, true);
  assert.deepEqual(r.user.settings.fallbackModels, ['small']);
  assert.deepEqual(r.user.settings.sensitivePatterns, ['deploy/**']);
  assert.deepEqual(r.user.settings.autoApprove, ['read']);
  assert.deepEqual(r.user.settings.rules, []);
  assert.equal(r.user.settings.model, 'repo-model');
  assert.equal(r.ignored.length, 4, r.ignored.join('\n'));
  assert.match(r.ignored.join('\n'), /localharness\.fallbackModels is read from your user settings only/);
});

test('no user values: the documented defaults', () => {
  const { get, inspect } = config({});
  const r = resolveServerSettings(get, inspect, true);
  assert.equal(r.user.settings.provider, DEFAULT_SETTINGS.provider);
  assert.equal(r.user.settings.ollamaHost, DEFAULT_SETTINGS.ollamaHost);
});

test('withDestination swaps only the server; destinations are keyed by their exact value', () => {
  const s = withDestination({ ...DEFAULT_SETTINGS, model: 'm' }, { provider: 'openai', url: 'http://x.example/v1' });
  assert.equal(s.provider, 'openai');
  assert.equal(s.openaiBaseUrl, 'http://x.example/v1');
  assert.equal(s.ollamaHost, DEFAULT_SETTINGS.ollamaHost);
  assert.equal(s.model, 'm');
  assert.notEqual(destinationKey({ provider: 'openai', url: 'http://x.example/v1' }), destinationKey({ provider: 'openai', url: 'http://x.example:8080/v1' }));
});

test('originOf: scheme, host and port only; undefined for nonsense', () => {
  assert.equal(originOf('http://127.0.0.1:1234/v1'), 'http://127.0.0.1:1234');
  assert.equal(originOf('https://api.example.com/v1/'), 'https://api.example.com');
  assert.equal(originOf('https://api.example.com:443/v1'), 'https://api.example.com');
  assert.equal(originOf('not a url'), undefined);
});
