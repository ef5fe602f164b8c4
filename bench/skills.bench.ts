// Skills bench (issue 33): the system-prompt tokens 20 skills add (names and descriptions, plus load_skill's
// definition, which is offered whenever a skill exists) against the same 20 packs inlined as rules files
// (.localharness/rules/*.md), read by the real loaders from a real temp workspace.
// Run: node --import tsx bench/skills.bench.ts
// Tokens are the project's own estimate (src/core/tokens.ts), the number the context meter and budgets use.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeFileSystem } from '../src/node/nodeFileSystem';
import { discoverSkills, renderSkillList } from '../src/core/skills/skillFiles';
import { createLoadSkillTool } from '../src/core/skills/loadSkillTool';
import { loadWorkspaceRules } from '../src/core/prompt/rulesFiles';
import { composeSystemPrompt } from '../src/core/prompt/systemPromptBuilder';
import { ToolRegistry } from '../src/core/tools/registry';
import { estimateToolDefinitionTokens, estimateTokens } from '../src/core/tokens';

/** Twenty packs as teams write them: a short name, a one-line description, a body of instructions. */
const PACKS: Array<[string, string]> = [
  ['deploy', 'Deploy to staging or production with the release script'],
  ['db-migrate', 'Write and run a database migration safely'],
  ['api-client', 'Regenerate the API client from the OpenAPI file'],
  ['release-notes', 'Draft release notes from merged pull requests'],
  ['test-fixtures', 'Create test fixtures and factories for new models'],
  ['i18n', 'Add or change translated strings in every locale'],
  ['perf-profile', 'Profile a slow endpoint and read the flame graph'],
  ['docker', 'Build and run the app in Docker for local tests'],
  ['feature-flag', 'Add a feature flag and clean it up afterwards'],
  ['security-review', 'Review a change for injection and auth bugs'],
  ['logging', 'Add structured logs with the right fields'],
  ['error-pages', 'Change the error pages and their translations'],
  ['ci-debug', 'Find why a CI job fails and reproduce it locally'],
  ['dependency-bump', 'Upgrade a dependency and fix what breaks'],
  ['graphql', 'Add a GraphQL field with resolver and tests'],
  ['css-tokens', 'Use the design tokens instead of raw colours'],
  ['accessibility', 'Check a page for keyboard and screen reader use'],
  ['cron-jobs', 'Add a scheduled job with retries and alerts'],
  ['cache', 'Cache an expensive call and invalidate it right'],
  ['onboarding', 'Explain the repo layout to a new contributor'],
];

function body(name: string, description: string): string {
  const steps = Array.from({ length: 12 }, (_, i) => `${i + 1}. For ${name}, step ${i + 1}: check the inputs, run the script in scripts/${name}.sh with --dry-run first, read its output, then run it for real and record what changed in the log.`);
  return `# ${description}\n\nWhen to use: ${description.toLowerCase()}.\n\n${steps.join('\n')}\n\nNever skip the dry run. Ask before touching production.\n`;
}

const root = mkdtempSync(path.join(tmpdir(), 'lh-skills-bench-'));
for (const [name, description] of PACKS) {
  const dir = path.join(root, '.agents', 'skills', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body(name, description)}`);
  mkdirSync(path.join(root, '.localharness', 'rules'), { recursive: true });
  writeFileSync(path.join(root, '.localharness', 'rules', `${name}.md`), body(name, description));
}

async function main(): Promise<void> {
  const fs = new NodeFileSystem();
  const folders = [{ name: 'ws', path: root }];
  const signal = new AbortController().signal;
  const system = { os: 'Linux', shell: '/bin/bash', workspaceFolders: [root] };
  const base = estimateTokens(composeSystemPrompt({ system }).text);

  const skills = await discoverSkills(fs, { folders });
  const list = renderSkillList(skills);
  const registry = new ToolRegistry();
  registry.register(createLoadSkillTool());
  const listTokens = estimateTokens(composeSystemPrompt({ system, skills: list }).text) - base;
  const toolTokens = estimateToolDefinitionTokens(registry.definitions());
  const skillTokens = listTokens + toolTokens;

  const all = await loadWorkspaceRules(fs, folders, signal, { maxChars: Infinity, maxFileChars: Infinity });
  const inlined = estimateTokens(composeSystemPrompt({ system, rules: all.text }).text) - base;
  const capped = await loadWorkspaceRules(fs, folders, signal);
  const cappedTokens = estimateTokens(composeSystemPrompt({ system, rules: capped.text }).text) - base;

  console.log(`# ${skills.length} skills vs the same ${all.files.length} packs as rules files`);
  console.log('| | prompt tokens added | ratio to skills |');
  console.log('|---|---|---|');
  console.log(`| skills: the list in the system prompt (names + descriptions) | ${listTokens} | ${(listTokens / skillTokens).toFixed(2)} |`);
  console.log(`| skills: load_skill's definition (fixed, however many skills) | ${toolTokens} | ${(toolTokens / skillTokens).toFixed(2)} |`);
  console.log(`| skills: together | ${skillTokens} | 1.0 |`);
  console.log(`| rules files inlined whole | ${inlined} | ${(inlined / skillTokens).toFixed(1)} |`);
  console.log(`| rules files inlined, default 6,000-character cap (${capped.files.length} files, cut) | ${cappedTokens} | ${(cappedTokens / skillTokens).toFixed(1)} |`);
  console.log(`target: the 20 skills' list under 300 tokens: ${listTokens < 300 ? 'met' : 'NOT met'} (${listTokens}); with load_skill's fixed definition ${skillTokens}`);
}

void main();
