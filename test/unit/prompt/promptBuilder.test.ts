import { test } from 'node:test';
import assert from 'node:assert/strict';
import { composeSystemPrompt, promptParts, PART_PRIORITY, CHAIN_OF_THOUGHT } from '../../../src/core/prompt/systemPromptBuilder';
import { TEXT_PROTOCOL_HEADER } from '../../../src/core/toolProtocol/textPrompt';
import type { ToolDefinition } from '../../../src/core/messages';

const system = { os: 'Linux', shell: 'bash', workspaceFolders: ['/w/app'] };
const tools: ToolDefinition[] = [{ name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];

const full = {
  system,
  userInstructions: 'Answer in French.',
  rules: '## AGENTS.md\nUse tabs.',
  loopBreakingTools: true,
  chainOfThought: true,
  toolProtocol: 'xml' as const,
  tools,
  todos: [
    { text: 'read config', status: 'done' as const },
    { text: 'fix port', status: 'pending' as const },
  ],
  retrievedContext: 'src/port.ts:3 const PORT = 80;',
  hotContext: '# Working context\nFiles you read: config.json',
};

test('every part is present, named, and in the seed order', () => {
  const built = composeSystemPrompt(full);
  assert.deepEqual(built.included, ['base', 'user_instructions', 'rules_files', 'loop_rules', 'capabilities', 'chain_of_thought', 'tool_calling', 'planning', 'retrieved_context', 'hot_context']);
  assert.deepEqual(built.dropped, []);
  assert.equal(built.notice, undefined);
  assert.match(built.text, /User instructions:\nAnswer in French\./);
  assert.match(built.text, /Project rules:\n## AGENTS\.md\nUse tabs\./);
  assert.match(built.text, /call task_completion with a summary/);
  assert.match(built.text, /Environment: Linux, shell bash\. Workspace: \/w\/app\./);
  assert.ok(built.text.includes(CHAIN_OF_THOUGHT));
  assert.ok(built.text.includes(TEXT_PROTOCOL_HEADER));
  assert.match(built.text, /- \[x\] read config\n- \[ \] fix port/);
  assert.match(built.text, /Possibly relevant code:\nsrc\/port\.ts:3/);
  assert.ok(built.text.endsWith('Files you read: config.json'));
});

test('optional parts are left out when they have nothing to say', () => {
  const built = composeSystemPrompt({ system });
  assert.deepEqual(built.included, ['base', 'loop_rules', 'capabilities']);
  assert.equal(built.text.includes('task_completion'), false);
  assert.equal(composeSystemPrompt({ system, toolProtocol: 'native', tools }).text.includes(TEXT_PROTOCOL_HEADER), false);
});

test('a tight budget drops the lowest priorities first and reports it', () => {
  const whole = composeSystemPrompt(full).tokens;
  const first = composeSystemPrompt({ ...full, budgetTokens: whole - 5 });
  assert.deepEqual(first.dropped, ['retrieved_context'], 'retrieved code is the first to go');
  assert.match(first.notice!, /over its budget of \d+ tokens; left out: retrieved_context\./);
  const cot = composeSystemPrompt({ ...full, retrievedContext: undefined, budgetTokens: composeSystemPrompt({ ...full, retrievedContext: undefined }).tokens - 5 });
  assert.deepEqual(cot.dropped, ['chain_of_thought']);

  const tiny = composeSystemPrompt({ ...full, budgetTokens: 10 });
  const order = Object.entries(PART_PRIORITY)
    .filter(([, p]) => p !== Infinity)
    .sort((a, b) => a[1] - b[1])
    .map(([name]) => name);
  assert.deepEqual(tiny.dropped, order, 'dropped from the lowest priority up');
  assert.deepEqual(tiny.included, ['base', 'tool_calling'], 'the base and the xml calling rules are never dropped');
});

test('parts carry their priorities', () => {
  const parts = promptParts(full);
  assert.equal(parts.find((p) => p.name === 'hot_context')!.priority, PART_PRIORITY.hot_context);
  assert.ok(PART_PRIORITY.user_instructions > PART_PRIORITY.retrieved_context);
});

test('hosts can add their own parts, which are budgeted like the rest', () => {
  const built = composeSystemPrompt({ system, extraParts: [{ name: 'restrictions', priority: 95, text: 'Read tools only.' }] });
  assert.deepEqual(built.included, ['base', 'loop_rules', 'restrictions', 'capabilities']);
  const tight = composeSystemPrompt({ system, extraParts: [{ name: 'restrictions', priority: 95, text: 'Read tools only.' }], budgetTokens: built.tokens - 5 });
  assert.deepEqual(tight.dropped, ['capabilities']);
  assert.ok(tight.included.includes('restrictions'));
});
