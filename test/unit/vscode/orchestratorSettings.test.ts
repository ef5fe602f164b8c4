// `localharness.orchestrator.*`: parsed like the other settings (bad values reported, defaults kept), the two
// server addresses read from the user's settings only, and the planner/executor a turn uses chosen from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, parseSettings, type HarnessSettings } from '../../../src/editor/settings/harnessSettings';
import { resolveServerSettings, type ScopedValues } from '../../../src/editor/settings/serverSettings';
import { EXECUTOR_MISSING, chooseOrchestrator, orchestratorKey, orchestratorOptions } from '../../../src/editor/orchestrator/orchestratorEndpoints';
import { createChatProvider } from '../../../src/editor/engine/turnEngine';
import { Logger } from '../../../src/editor/log/logger';
import { RecordingLogSink } from '../../helpers/recordingLogSink';

const parse = (values: Record<string, unknown>) => parseSettings((key) => values[key]);

test('defaults: off, no models, the chat\u2019s server, 12 steps', () => {
  const { settings, problems } = parse({});
  assert.deepEqual(settings.orchestrator, { enabled: false, plannerModel: '', executorModel: '', plannerBaseUrl: '', executorBaseUrl: '', plannerProvider: '', executorProvider: '', maxSteps: 12 });
  assert.deepEqual(problems, []);
});

test('values are read, trimmed, and addresses lose their trailing slash', () => {
  const { settings, problems } = parse({
    'orchestrator.enabled': true,
    'orchestrator.plannerModel': ' qwen3:30b ',
    'orchestrator.executorModel': 'qwen2.5:1.5b',
    'orchestrator.plannerBaseUrl': 'http://10.0.0.5:11434/',
    'orchestrator.executorBaseUrl': 'https://gpu.local:11434',
    'orchestrator.maxSteps': 6,
  });
  assert.deepEqual(settings.orchestrator, {
    enabled: true,
    plannerModel: 'qwen3:30b',
    executorModel: 'qwen2.5:1.5b',
    plannerBaseUrl: 'http://10.0.0.5:11434',
    executorBaseUrl: 'https://gpu.local:11434',
    plannerProvider: '',
    executorProvider: '',
    maxSteps: 6,
  });
  assert.deepEqual(problems, []);
});

test('bad values are reported and replaced: a non-boolean switch, a non-http address, steps out of range', () => {
  const { settings, problems } = parse({
    'orchestrator.enabled': 'yes',
    'orchestrator.executorModel': 7,
    'orchestrator.plannerBaseUrl': 'ftp://x',
    'orchestrator.executorBaseUrl': 'localhost:11434',
    'orchestrator.maxSteps': 500,
  });
  assert.equal(settings.orchestrator.enabled, false);
  assert.equal(settings.orchestrator.executorModel, '');
  assert.equal(settings.orchestrator.plannerBaseUrl, '');
  assert.equal(settings.orchestrator.executorBaseUrl, '');
  assert.equal(settings.orchestrator.maxSteps, 50);
  assert.deepEqual(problems, [
    'localharness.orchestrator.enabled should be true or false; using false.',
    'localharness.orchestrator.executorModel should be a string; using "".',
    'localharness.orchestrator.plannerBaseUrl "ftp://x" is not an http(s) address; using the chat\'s server.',
    'localharness.orchestrator.executorBaseUrl "localhost:11434" is not an http(s) address; using the chat\'s server.',
    'localharness.orchestrator.maxSteps must be between 1 and 50; using 50.',
  ]);
  assert.equal(parse({ 'orchestrator.maxSteps': 0 }).settings.orchestrator.maxSteps, 1);
});

test('switched on without an executor model: said once in the problems, and the turn is not planned', () => {
  const { settings, problems } = parse({ 'orchestrator.enabled': true });
  assert.match(problems.join('\n'), /orchestrator\.enabled is on but localharness\.orchestrator\.executorModel is empty/);
  assert.deepEqual(chooseOrchestrator(settings, 'qwen3:8b', false), { kind: 'unavailable', reason: EXECUTOR_MISSING });
});

/** `user` and `workspace` as settings.json files would hold them (keys below `localharness.`). */
function scoped(user: Record<string, unknown>, workspace: Record<string, unknown>) {
  const inspect = (key: string): ScopedValues => ({ globalValue: user[key], workspaceValue: workspace[key] });
  return { get: (key: string) => workspace[key] ?? user[key], inspect };
}

test('the planner\u2019s and executor\u2019s servers come from the user\u2019s settings only; a workspace\u2019s are ignored and reported', () => {
  const user = { 'orchestrator.plannerBaseUrl': 'http://10.0.0.5:11434' };
  const workspace = {
    'orchestrator.enabled': true,
    'orchestrator.executorModel': 'tiny',
    'orchestrator.plannerBaseUrl': 'https://collect.example.com',
    'orchestrator.executorBaseUrl': 'https://collect.example.com',
  };
  for (const trusted of [true, false]) {
    const { get, inspect } = scoped(user, workspace);
    const r = resolveServerSettings(get, inspect, trusted);
    const o = r.user.settings.orchestrator;
    assert.equal(o.plannerBaseUrl, 'http://10.0.0.5:11434', 'the user\u2019s address');
    assert.equal(o.executorBaseUrl, '', 'none from the user: the chat\u2019s server, not the workspace\u2019s');
    // The switch and the model names send nothing elsewhere: the workspace may set them, like `model`.
    assert.equal(o.enabled, true);
    assert.equal(o.executorModel, 'tiny');
    assert.ok(r.ignored.includes('localharness.orchestrator.plannerBaseUrl is read from your user settings only; the workspace\'s value is ignored.'), r.ignored.join('\n'));
    assert.ok(r.ignored.includes('localharness.orchestrator.executorBaseUrl is read from your user settings only; the workspace\'s value is ignored.'), r.ignored.join('\n'));
  }
});

function withOrchestrator(base: Partial<HarnessSettings>, o: Partial<HarnessSettings['orchestrator']>): HarnessSettings {
  return { ...DEFAULT_SETTINGS, ...base, orchestrator: { ...DEFAULT_SETTINGS.orchestrator, ...o } };
}

test('off unless enabled or asked for this turn; the planner defaults to the chat model on the chat\u2019s server', () => {
  const settings = withOrchestrator({ ollamaHost: 'http://127.0.0.1:11434' }, { executorModel: 'qwen2.5:1.5b' });
  assert.deepEqual(chooseOrchestrator(settings, 'qwen3:8b', false), { kind: 'off' });
  assert.equal(orchestratorKey({ kind: 'off' }), null);
  const forced = chooseOrchestrator(settings, 'qwen3:8b', true);
  assert.equal(forced.kind, 'on');
  if (forced.kind !== 'on') return;
  assert.equal(forced.choice.planner.model, 'qwen3:8b');
  assert.equal(forced.choice.executor.model, 'qwen2.5:1.5b');
  assert.equal(forced.choice.planner.settings, settings, 'same server, same settings');
  assert.equal(forced.choice.executor.settings, settings);
  assert.equal(forced.choice.maxSteps, 12);
  const enabled = chooseOrchestrator({ ...settings, orchestrator: { ...settings.orchestrator, enabled: true } }, 'qwen3:8b', false);
  assert.equal(orchestratorKey(enabled), orchestratorKey(forced), 'the setting and the command plan the same way');
});

test('an address of its own moves the endpoint to that server with the chat\u2019s provider kind, for both kinds', () => {
  const ollama = withOrchestrator({ provider: 'ollama' }, { enabled: true, plannerModel: 'big', executorModel: 'small', executorBaseUrl: 'http://10.0.0.9:11434' });
  const d = chooseOrchestrator(ollama, 'chat', false);
  assert.equal(d.kind, 'on');
  if (d.kind !== 'on') return;
  assert.equal(d.choice.planner.model, 'big');
  assert.equal(d.choice.planner.settings.ollamaHost, DEFAULT_SETTINGS.ollamaHost);
  assert.equal(d.choice.executor.settings.provider, 'ollama');
  assert.equal(d.choice.executor.settings.ollamaHost, 'http://10.0.0.9:11434');

  const openai = withOrchestrator({ provider: 'openai' }, { enabled: true, executorModel: 'small', plannerBaseUrl: 'http://10.0.0.7:1234/v1' });
  const e = chooseOrchestrator(openai, 'chat', false);
  assert.equal(e.kind, 'on');
  if (e.kind !== 'on') return;
  assert.equal(e.choice.planner.settings.provider, 'openai');
  assert.equal(e.choice.planner.settings.openaiBaseUrl, 'http://10.0.0.7:1234/v1');
  assert.equal(e.choice.executor.settings.openaiBaseUrl, DEFAULT_SETTINGS.openaiBaseUrl);
});

test('either endpoint may be the other kind of server: its own address, else that kind\u2019s address from the settings; bad kinds reported', () => {
  const settings = withOrchestrator(
    { provider: 'ollama', openaiBaseUrl: 'http://127.0.0.1:1234/v1' },
    { enabled: true, executorModel: 'small', executorProvider: 'openai', plannerProvider: 'ollama' },
  );
  const d = chooseOrchestrator(settings, 'chat', false);
  assert.equal(d.kind, 'on');
  if (d.kind !== 'on') return;
  assert.equal(d.choice.planner.settings, settings, 'the same kind as the chat and no address: the chat\u2019s server');
  assert.equal(d.choice.executor.settings.provider, 'openai');
  assert.equal(d.choice.executor.settings.openaiBaseUrl, 'http://127.0.0.1:1234/v1');
  const own = chooseOrchestrator(withOrchestrator({ provider: 'ollama' }, { enabled: true, executorModel: 'small', executorProvider: 'openai', executorBaseUrl: 'http://10.0.0.3:8080/v1' }), 'chat', false);
  assert.ok(own.kind === 'on' && own.choice.executor.settings.provider === 'openai' && own.choice.executor.settings.openaiBaseUrl === 'http://10.0.0.3:8080/v1');
  const { settings: parsed, problems } = parse({ 'orchestrator.executorProvider': 'lmstudio', 'orchestrator.plannerProvider': 'openai' });
  assert.equal(parsed.orchestrator.executorProvider, '');
  assert.equal(parsed.orchestrator.plannerProvider, 'openai');
  assert.deepEqual(problems, ['localharness.orchestrator.executorProvider should be "ollama" or "openai" (empty: the chat\'s); using the chat\'s.']);
});

test('the session key changes with every part of the choice, so a settings change rebuilds the session', () => {
  const base = withOrchestrator({}, { enabled: true, executorModel: 'small' });
  const key = (s: HarnessSettings, chat = 'chat') => orchestratorKey(chooseOrchestrator(s, chat, false));
  const keys = [
    key(base),
    key(base, 'other-chat'),
    key({ ...base, orchestrator: { ...base.orchestrator, executorModel: 'smaller' } }),
    key({ ...base, orchestrator: { ...base.orchestrator, plannerModel: 'big' } }),
    key({ ...base, orchestrator: { ...base.orchestrator, executorBaseUrl: 'http://10.0.0.9:11434' } }),
    key({ ...base, orchestrator: { ...base.orchestrator, plannerBaseUrl: 'http://10.0.0.9:11434' } }),
    key({ ...base, orchestrator: { ...base.orchestrator, maxSteps: 3 } }),
    key({ ...base, orchestrator: { ...base.orchestrator, executorProvider: 'openai' } }),
  ];
  assert.equal(new Set(keys).size, keys.length, JSON.stringify(keys));
  assert.ok(keys.every((k) => k !== null));
});

test('the session option gets a provider per endpoint, at that endpoint\u2019s address, with the configured window', async () => {
  const settings = withOrchestrator({ contextSize: 8192 }, { enabled: true, executorModel: 'small', executorBaseUrl: 'http://10.0.0.9:11434' });
  const d = chooseOrchestrator(settings, 'chat', false);
  assert.equal(d.kind, 'on');
  if (d.kind !== 'on') return;
  const log = new Logger(new RecordingLogSink());
  const options = await orchestratorOptions(d.choice, async (s) => createChatProvider(s, undefined, log));
  assert.equal(options.planner.model, 'chat');
  assert.equal(options.planner.provider.baseUrl, DEFAULT_SETTINGS.ollamaHost);
  assert.equal(options.executor.model, 'small');
  assert.equal(options.executor.provider.baseUrl, 'http://10.0.0.9:11434');
  assert.equal(options.planner.contextSize, 8192);
  assert.equal(options.executor.contextSize, 8192);
  assert.equal(options.maxSteps, 12);

  const unsized = chooseOrchestrator({ ...settings, contextSize: 0 }, 'chat', false);
  if (unsized.kind !== 'on') throw new Error('expected a choice');
  const built = await orchestratorOptions(unsized.choice, async (s) => createChatProvider(s, undefined, log));
  assert.equal('contextSize' in built.planner || 'contextSize' in built.executor, false, 'no window configured: the server decides');
});
