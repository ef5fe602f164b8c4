// The plan schema: lenient where weak models are clumsy, strict where a plan would be useless.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePlan, needsTool, planSchema } from '../../../src/core/orchestrator/planRequest';
import { digestSteps, clip } from '../../../src/core/orchestrator/stepShortening';
import { parseReply, responseJsonSchema } from '../../../src/core/structured';

test('numeric ids become strings, a single depends_on becomes a list, extra fields are dropped', () => {
  const parsed = parsePlan({ steps: [{ id: 1, goal: 'list the folder', extra: true }, { id: 2, goal: 'read a.txt', depends_on: 1, confidence: 0.9 }], done_when: 'read' });
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.plan, {
    steps: [
      { id: '1', goal: 'list the folder', dependsOn: [] },
      { id: '2', goal: 'read a.txt', dependsOn: ['1'] },
    ],
    doneWhen: 'read',
  });
});

test('camelCase keys, null fields, a missing done_when and missing ids are accepted', () => {
  const parsed = parsePlan({ steps: [{ goal: 'a', toolHint: 'read_file', dependsOn: null }, { step: 7, goal: 'b', tool_hint: null, depends_on: ['1', 1] }] });
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.plan.steps, [
    { id: '1', goal: 'a', toolHint: 'read_file', dependsOn: [] },
    { id: '7', goal: 'b', dependsOn: ['1'] },
  ]);
  assert.equal(parsed.plan.doneWhen, '');
});

test('dependencies on unknown or later steps are dropped; duplicate ids are made unique', () => {
  const parsed = parsePlan({ steps: [{ id: 'a', goal: 'x', depends_on: ['b', 'zzz'] }, { id: 'b', goal: 'y', depends_on: 'a' }, { id: 'a', goal: 'z', depends_on: ['a'] }], done_when: '' });
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.plan.steps.map((s) => [s.id, s.dependsOn]), [['a', []], ['b', ['a']], ['a.3', ['a']]]);
});

test('strict: no steps, a step without a goal, a blank goal, too many steps', () => {
  for (const bad of [{ steps: [] }, { steps: [{ id: 1 }] }, { steps: [{ goal: '   ' }] }, { done_when: 'x' }, 'a plan', [{ goal: 'a' }]]) {
    assert.equal(parsePlan(bad).ok, false, JSON.stringify(bad));
  }
  const many = { steps: Array.from({ length: 5 }, (_, i) => ({ goal: `step ${i}` })), done_when: '' };
  assert.equal(parsePlan(many, 5).ok, true);
  const tooMany = parsePlan(many, 4);
  assert.equal(tooMany.ok, false);
  assert.match(JSON.stringify(!tooMany.ok && tooMany.error.issues), /at most 4 steps/);
});

test('a fenced reply with prose and a trailing comma parses through structured output', () => {
  const reply = 'Here is my plan:\n```json\n{"steps": [{"id": 1, "goal": "rename a.txt",}], "doneWhen": "renamed",}\n```';
  const parsed = parseReply(reply, planSchema(12));
  assert.ok(parsed.ok);
});

test('the JSON Schema sent to the server asks for the exact shape (strings, arrays, a step limit)', () => {
  const schema = responseJsonSchema(planSchema(12)) as { properties: { steps: { maxItems: number; items: { properties: Record<string, { type: string }>; required: string[] } } }; required: string[] };
  assert.equal(schema.properties.steps.maxItems, 12);
  assert.equal(schema.properties.steps.items.properties.id!.type, 'string');
  assert.equal(schema.properties.steps.items.properties.depends_on!.type, 'array');
  assert.deepEqual(schema.properties.steps.items.required, ['goal']);
  assert.deepEqual(schema.required, ['steps', 'done_when']);
});

test('needsTool: "none" marks a text-only step; no hint means a tool is needed', () => {
  assert.equal(needsTool({ id: '1', goal: 'g', dependsOn: [] }), true);
  assert.equal(needsTool({ id: '1', goal: 'g', toolHint: 'move_file', dependsOn: [] }), true);
  assert.equal(needsTool({ id: '1', goal: 'g', toolHint: 'None', dependsOn: [] }), false);
});

test('step digests share the budget and mark what was cut', () => {
  const step = (id: string) => ({ id, goal: `goal ${id}`, dependsOn: [] });
  const records = [1, 2, 3].map((i) => ({ step: step(String(i)), status: 'ok' as const, summary: 'done', result: 'x'.repeat(5000) }));
  const text = digestSteps(records, 1500);
  assert.ok(text.length < 2000, String(text.length));
  assert.match(text, /chars cut\]/);
  assert.equal(clip('short', 10), 'short');
});
