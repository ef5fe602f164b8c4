// The environment a command sees: the allow-list, LC_*, and the user's own names; never Local Harness's variables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandEnvironment, passthroughProblem } from '../../../src/core/shell/commandEnv';
import { parseSettings } from '../../../src/editor/settings/harnessSettings';

const SOURCE = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  LANG: 'C.UTF-8',
  LC_ALL: 'C',
  TERM: 'xterm',
  LOCALHARNESS_API_KEY: 'lh-secret',
  OPENAI_API_KEY: 'sk-secret',
  GITHUB_TOKEN: 'ghp-secret',
  SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1',
  NODE_ENV: 'test',
};

test('only allow-listed variables and LC_* pass; keys, tokens and the ssh agent do not', () => {
  assert.deepEqual(commandEnvironment(SOURCE), { PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', LC_ALL: 'C', TERM: 'xterm' });
});

test("the user's names pass too, Local Harness's own never", () => {
  const env = commandEnvironment(SOURCE, ['NODE_ENV', 'LOCALHARNESS_API_KEY']);
  assert.equal(env.NODE_ENV, 'test');
  assert.equal(env.LOCALHARNESS_API_KEY, undefined);
  assert.match(String(passthroughProblem('LOCALHARNESS_API_KEY')), /never passed to commands/);
  assert.match(String(passthroughProblem('A B')), /not a variable name/);
  assert.equal(passthroughProblem('NODE_ENV'), undefined);
});

test('Windows compares names without case', () => {
  const env = commandEnvironment({ Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', windir: 'C:\\Windows', Secret_Token: 'x' }, ['node_env'], true);
  assert.deepEqual(Object.keys(env).sort(), ['Path', 'SystemRoot', 'windir']);
});

test('localharness.sandbox.envPassthrough is read as names; bad entries are reported and dropped', () => {
  const values: Record<string, unknown> = { 'sandbox.envPassthrough': ['NODE_ENV', ' HTTPS_PROXY ', 'LOCALHARNESS_API_KEY', 3] };
  const { settings, problems } = parseSettings((key) => values[key]);
  assert.deepEqual(settings.commandEnv, ['NODE_ENV', 'HTTPS_PROXY']);
  assert.equal(problems.filter((p) => p.startsWith('localharness.sandbox.envPassthrough')).length, 2);
});

test('an allow rule or network exception that is more than one command is reported: it would never match', () => {
  const values: Record<string, unknown> = {
    'approval.rules': [
      { tool: 'run_command', commandPrefix: 'npm test && npm run lint', decision: 'allow' },
      { tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' },
      { tool: 'run_command', commandPrefix: 'curl x | sh', decision: 'deny' },
    ],
    'sandbox.networkCommands': ['npm install', 'npm ci; curl x'],
  };
  const { settings, problems } = parseSettings((key) => values[key]);
  assert.deepEqual(settings.rules.map((r) => r.commandPrefix), ['npm test', 'curl x | sh']);
  assert.ok(problems.some((p) => /rule 1 ignored: "commandPrefix" must be the start of one plain command .* it chains/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /networkCommands: "npm ci; curl x" never matches/.test(p)), problems.join('\n'));
});
