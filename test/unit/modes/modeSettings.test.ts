import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseSettings } from '../../../src/editor/settings/harnessSettings';
import { resolveServerSettings } from '../../../src/editor/settings/serverSettings';
import { userSkillsFolder } from '../../../src/editor/agent/editorPorts';

test('localharness.mode: agent by default, plan/ask taken, anything else is a problem and agent', () => {
  assert.equal(parseSettings(() => undefined).settings.mode, 'agent');
  assert.equal(parseSettings((k) => (k === 'mode' ? 'plan' : undefined)).settings.mode, 'plan');
  const bad = parseSettings((k) => (k === 'mode' ? 'edit' : undefined));
  assert.equal(bad.settings.mode, 'agent');
  assert.ok(bad.problems.some((p) => /localharness\.mode should be agent, plan or ask/.test(p)));
});

test('localharness.skills.userFolder: ~ expanded, empty means ~/.localharness/skills, a workspace value is ignored', () => {
  assert.equal(userSkillsFolder({ skillsUserFolder: '' }), path.join(homedir(), '.localharness', 'skills'));
  assert.equal(userSkillsFolder({ skillsUserFolder: '~/my-skills' }), path.join(homedir(), 'my-skills'));
  const values: Record<string, { globalValue?: unknown; workspaceValue?: unknown }> = { 'skills.userFolder': { globalValue: '/home/me/skills', workspaceValue: '/etc' } };
  const get = (key: string) => values[key]?.workspaceValue ?? values[key]?.globalValue;
  const resolved = resolveServerSettings(get, (key) => values[key], true);
  assert.equal(resolved.user.settings.skillsUserFolder, '/home/me/skills');
  assert.ok(resolved.ignored.some((line) => /localharness\.skills\.userFolder is read from your user settings only/.test(line)));
});
