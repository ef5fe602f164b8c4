// Skills and prompt files read from a real temp folder: discovery (first name wins, no description = not a skill,
// linked folders skipped), the compact list, load_skill's body and files, and the ways out of a skill's folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { discoverSkills, readSkill, renderSkillList } from '../../../src/core/skills/skillFiles';
import { resolvePromptFile } from '../../../src/editor/agent/promptFileTurn';

const fs = new NodeFileSystem();

function tree(): { ws: string; user: string; outside: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-skills-'));
  const ws = path.join(root, 'ws');
  const user = path.join(root, 'user');
  const outside = path.join(root, 'outside');
  for (const dir of [path.join(ws, '.agents/skills/deploy/docs'), path.join(ws, '.localharness/skills/deploy'), path.join(ws, '.localharness/skills/nodesc'), path.join(user, 'style'), outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(ws, '.agents/skills/deploy/SKILL.md'), '---\nname: deploy\ndescription: Deploy   the\n app\n---\nBody of deploy.\n');
  writeFileSync(path.join(ws, '.agents/skills/deploy/docs/steps.md'), 'steps\n');
  writeFileSync(path.join(ws, '.localharness/skills/deploy/SKILL.md'), '---\nname: deploy\ndescription: A second deploy\n---\nshadowed\n');
  writeFileSync(path.join(ws, '.localharness/skills/nodesc/SKILL.md'), 'no front matter\n');
  writeFileSync(path.join(user, 'style/SKILL.md'), '---\ndescription: House style\n---\nTabs.\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(outside, path.join(ws, '.agents/skills/linked'));
  symlinkSync(outside, path.join(ws, '.agents/skills/deploy/escape'));
  return { ws, user, outside };
}

test('discovery: workspace first, the first of a name wins, a skill needs a description, linked folders are skipped', async () => {
  const { ws, user } = tree();
  const skills = await discoverSkills(fs, { folders: [{ name: 'ws', path: ws }], userFolder: user });
  assert.deepEqual(skills.map((s) => [s.name, s.description, s.source]), [
    ['deploy', 'Deploy the app', 'ws'],
    ['style', 'House style', 'user'],
  ]);
  assert.equal(renderSkillList(skills), 'Skills (load one with load_skill):\ndeploy: Deploy the app\nstyle: House style');
  assert.equal(renderSkillList([]), '');
});

test('load_skill: the body without front matter and the files beside it; a file of it; no way out of its folder', async () => {
  const { ws } = tree();
  const [deploy] = await discoverSkills(fs, { folders: [{ name: 'ws', path: ws }] });
  const body = await readSkill(fs, deploy!);
  assert.match(body, /^# Skill: deploy\nBody of deploy\./);
  assert.match(body, /- docs\/steps\.md/);
  assert.doesNotMatch(body, /description:/);
  assert.equal(await readSkill(fs, deploy!, 'docs/steps.md'), 'steps\n');
  await assert.rejects(readSkill(fs, deploy!, '../../../outside/secret.txt'), /is not a file of the skill deploy/);
  await assert.rejects(readSkill(fs, deploy!, '/etc/passwd'), /is not a file of the skill deploy/);
  await assert.rejects(readSkill(fs, deploy!, 'escape/secret.txt'), /leads outside the skill deploy's folder/);
  await assert.rejects(readSkill(fs, deploy!, 'missing.md'), /has no file "missing\.md"; its files: docs\/steps\.md/);
});

test('a prompt file resolves from /name; other slashes and unknown names stay the message', async () => {
  const { ws } = tree();
  mkdirSync(path.join(ws, '.github/prompts'), { recursive: true });
  writeFileSync(path.join(ws, '.github/prompts/fix.prompt.md'), '---\nmode: plan\ntools: [read_file]\n---\nFix $ARGUMENTS\n');
  const folders = [{ name: 'ws', path: ws }];
  assert.deepEqual(await resolvePromptFile('/fix the bug', fs, folders), { name: 'fix', file: path.join(ws, '.github/prompts/fix.prompt.md'), text: 'Fix the bug', mode: 'plan', tools: ['read_file'] });
  assert.equal(await resolvePromptFile('/nothing here', fs, folders), undefined);
  assert.equal(await resolvePromptFile('/etc/hosts', fs, folders), undefined);
  assert.equal(await resolvePromptFile('fix it', fs, folders), undefined);
});
