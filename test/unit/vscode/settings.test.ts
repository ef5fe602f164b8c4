import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, parseSettings, serverUrl } from '../../../src/editor/settings/harnessSettings';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

test('unset settings give the documented defaults with no problems', () => {
  const { settings, problems } = parseSettings(from({}));
  assert.deepEqual(settings, DEFAULT_SETTINGS);
  assert.deepEqual(problems, []);
  assert.equal(serverUrl(settings), 'http://127.0.0.1:11434');
});

test('valid values are used as given (trailing slashes trimmed, seconds turned into ms)', () => {
  const { settings, problems } = parseSettings(
    from({
      provider: 'openai',
      'openai.baseUrl': 'http://127.0.0.1:8080/v1/',
      model: ' qwen3:8b ',
      contextSize: 16384,
      keepAlive: '1h',
      think: false,
      maxRounds: 7,
      firstByteTimeoutSeconds: 30,
      'approval.autoApprove': ['read', 'write'],
      'approval.rules': [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }],
    }),
  );
  assert.deepEqual(problems, []);
  assert.equal(settings.provider, 'openai');
  assert.equal(serverUrl(settings), 'http://127.0.0.1:8080/v1');
  assert.equal(settings.model, 'qwen3:8b');
  assert.equal(settings.contextSize, 16384);
  assert.equal(settings.keepAlive, '1h');
  assert.equal(settings.think, false);
  assert.equal(settings.maxRounds, 7);
  assert.equal(settings.firstByteTimeoutMs, 30_000);
  assert.deepEqual(settings.autoApprove, ['read', 'write']);
  assert.deepEqual(settings.rules, [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }]);
});

test('bad values fall back or clamp, and each one is reported', () => {
  const { settings, problems } = parseSettings(
    from({
      provider: 'anthropic',
      'ollama.host': 'localhost:11434',
      maxRounds: 1000,
      contextSize: 'big',
      think: 'yes',
      'approval.autoApprove': ['read', 'everything'],
      'approval.rules': [{ tool: 'run_command', decision: 'maybe' }, { tool: 'edit_file', decision: 'deny' }],
    }),
  );
  assert.equal(settings.provider, 'ollama');
  assert.equal(settings.maxRounds, 200);
  assert.equal(settings.contextSize, 0);
  assert.equal(settings.think, true);
  assert.deepEqual(settings.autoApprove, ['read']);
  assert.deepEqual(settings.rules, [{ tool: 'edit_file', decision: 'deny' }]);
  const text = problems.join('\n');
  for (const key of ['provider', 'ollama.host', 'maxRounds', 'contextSize', 'think', 'autoApprove', 'approval.rules']) {
    assert.match(text, new RegExp(`localharness\\.${key.replace('.', '\\.')}|${key}`), `no problem reported for ${key}`);
  }
  assert.equal(problems.length, 7);
});

test('agent, context, fallback models and instructions are validated; a bad object falls back to the defaults', () => {
  const good = parseSettings(
    from({
      agent: { toolProtocol: 'xml', policy: { maxContinuationNudges: 1 } },
      context: { compressAt: 0.6, neverCompressTools: ['read_file'] },
      fallbackModels: ['small-model', '', 3],
      instructions: ' Use tabs. ',
    }),
  );
  assert.deepEqual(good.problems, []);
  assert.deepEqual(good.settings.agent, { toolProtocol: 'xml', policy: { maxContinuationNudges: 1 } });
  assert.deepEqual(good.settings.context, { compressAt: 0.6, neverCompressTools: ['read_file'] });
  assert.deepEqual(good.settings.fallbackModels, ['small-model']);
  assert.equal(good.settings.instructions, 'Use tabs.');

  const bad = parseSettings(from({ agent: { toolProtocol: 'smoke-signals' }, context: { compressAt: 7 }, fallbackModels: 'x' }));
  assert.deepEqual(bad.settings.agent, {});
  assert.deepEqual(bad.settings.context, {});
  assert.deepEqual(bad.settings.fallbackModels, []);
  assert.equal(bad.problems.length, 3);
  assert.match(bad.problems[0]!, /localharness\.agent: .*toolProtocol/);
  assert.match(bad.problems[1]!, /localharness\.context: .*compressAt/);
});

test('approval.sensitivePatterns: trimmed, de-duplicated; junk entries and a non-list are reported', () => {
  const ok = parseSettings(from({ 'approval.sensitivePatterns': [' deploy/** ', 'deploy/**', '**/.env*'] }));
  assert.deepEqual(ok.settings.sensitivePatterns, ['deploy/**', '**/.env*']);
  assert.deepEqual(ok.problems, []);
  const junk = parseSettings(from({ 'approval.sensitivePatterns': ['a', 3, ''] }));
  assert.deepEqual(junk.settings.sensitivePatterns, ['a']);
  assert.match(junk.problems.join('\n'), /sensitivePatterns: ignored entries/);
  const notList = parseSettings(from({ 'approval.sensitivePatterns': 'deploy/**' }));
  assert.deepEqual(notList.settings.sensitivePatterns, []);
  assert.match(notList.problems.join('\n'), /should be a list of path patterns/);
});

test('localharness.thinkingBudget: 2,000 by default, 0 turns it off, a bad value is reported and clamped', () => {
  assert.equal(parseSettings(from({})).settings.thinkingBudget, 2000);
  assert.equal(parseSettings(from({ thinkingBudget: 0 })).settings.thinkingBudget, 0);
  const bad = parseSettings(from({ thinkingBudget: -3 }));
  assert.equal(bad.settings.thinkingBudget, 0);
  assert.match(bad.problems.join('\n'), /localharness\.thinkingBudget must be between 0 and 200000/);
});
