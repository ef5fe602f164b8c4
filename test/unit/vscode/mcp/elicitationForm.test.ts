import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElicitationRequest, ElicitField } from '../../../../src/mcp/clientFeatures';
import { parseElicitationSchema, validateElicitationAnswer } from '../../../../src/mcp/elicitationSchema';
import {
  describeField,
  formPort,
  readText,
  runElicitationForm,
  SKIP_ID,
  type FormAsker,
  type PickQuestion,
  type TextQuestion,
} from '../../../../src/editor/mcp/elicitationForm';

type Step =
  | { confirm: 'respond' | 'decline' | undefined }
  | { text: string | undefined }
  | { pick: string[] | undefined }
  /** Answer with the first item label matching, as a user clicking it would. */
  | { pickLabel: string };

/** Plays the user from a script and records every question, as the editor's dialogs would show it. */
class ScriptedAsker implements FormAsker {
  readonly texts: TextQuestion[] = [];
  readonly picks: PickQuestion[] = [];
  readonly confirms: string[] = [];
  constructor(private readonly steps: Step[]) {}

  private next<K extends string>(kind: K): Step {
    const step = this.steps.shift();
    if (!step) throw new Error(`the script ran out at a ${kind} question`);
    if (!(kind in step) && !(kind === 'pick' && 'pickLabel' in step)) throw new Error(`expected a ${kind} step, got ${JSON.stringify(step)}`);
    return step;
  }
  async confirm(request: { server: string; message: string }) {
    this.confirms.push(`${request.server}: ${request.message}`);
    return (this.next('confirm') as { confirm: 'respond' | 'decline' | undefined }).confirm;
  }
  async text(question: TextQuestion) {
    this.texts.push(question);
    return (this.next('text') as { text: string | undefined }).text;
  }
  async pick(question: PickQuestion) {
    this.picks.push({ ...question, preselected: [...question.preselected] });
    const step = this.next('pick');
    if ('pickLabel' in step) {
      const item = question.items.find((i) => i.label === step.pickLabel);
      if (!item) throw new Error(`no item "${step.pickLabel}" in ${question.items.map((i) => i.label).join(', ')}`);
      return [item.id];
    }
    return (step as { pick: string[] | undefined }).pick;
  }
  get unused(): number {
    return this.steps.length;
  }
}

const signal = () => new AbortController().signal;

function form(fields: ElicitField[], message = 'Tell me about you'): ElicitationRequest {
  return { server: 'everything', message, fields, requestedSchema: {} };
}

const NAME: ElicitField = { kind: 'string', name: 'name', title: 'Your name', required: true, minLength: 2, maxLength: 10 };
const AGE: ElicitField = { kind: 'number', name: 'age', required: false, integer: true, minimum: 1, maximum: 120, default: 30 };
const AGREE: ElicitField = { kind: 'boolean', name: 'agree', required: true };
const COLOR: ElicitField = {
  kind: 'enum',
  name: 'color',
  required: false,
  options: [
    { value: 'r', label: 'Red' },
    { value: 'g', label: 'Green' },
  ],
  default: 'g',
};
const TOOLS: ElicitField = {
  kind: 'multiEnum',
  name: 'tools',
  required: true,
  options: ['hammer', 'saw', 'drill'].map((v) => ({ value: v, label: v })),
  minItems: 1,
  maxItems: 2,
  default: ['saw'],
};

test('accept: every field asked in order, "field i of n" in the titles, values typed as the schema says', async () => {
  const asker = new ScriptedAsker([{ confirm: 'respond' }, { text: 'Ada' }, { text: '36' }, { pickLabel: 'Yes' }, { pickLabel: 'Red' }, { pick: ['hammer', 'drill'] }]);
  const answer = await runElicitationForm(form([NAME, AGE, AGREE, COLOR, TOOLS]), asker, signal());
  assert.deepEqual(answer, { action: 'accept', content: { name: 'Ada', age: 36, agree: true, color: 'r', tools: ['hammer', 'drill'] } });
  assert.deepEqual(asker.confirms, ['everything: Tell me about you']);
  assert.deepEqual(
    [...asker.texts.map((q) => q.title), ...asker.picks.map((q) => q.title)],
    ['everything: Your name (field 1 of 5)', 'everything: age (field 2 of 5)', 'everything: agree (field 3 of 5)', 'everything: color (field 4 of 5)', 'everything: tools (field 5 of 5)'],
  );
  assert.equal(asker.picks[2]!.canPickMany, true, 'a multi-select enum ticks several');
  assert.equal(asker.picks[0]!.canPickMany, false);
  assert.equal(asker.unused, 0);
});

test('defaults are prefilled and preselected; taking them as they are answers with them', async () => {
  const asker = new ScriptedAsker([{ confirm: 'respond' }, { text: '30' }, { pick: ['g'] }, { pick: ['saw'] }]);
  const answer = await runElicitationForm(form([AGE, COLOR, TOOLS]), asker, signal());
  assert.equal(asker.texts[0]!.value, '30', 'the number default is in the box');
  assert.deepEqual(asker.picks[0]!.preselected, ['g'], 'the enum default is highlighted');
  assert.deepEqual(asker.picks[1]!.preselected, ['saw'], 'the multi-select default is ticked');
  assert.deepEqual(answer, { action: 'accept', content: { age: 30, color: 'g', tools: ['saw'] } });
});

test('optional fields may be left empty and are then left out of the answer', async () => {
  const note: ElicitField = { kind: 'string', name: 'note', required: false };
  const optionalTools: ElicitField = { ...TOOLS, required: false };
  const asker = new ScriptedAsker([{ confirm: 'respond' }, { text: '' }, { text: '' }, { pickLabel: 'No answer' }, { pick: [] }]);
  const answer = await runElicitationForm(form([note, AGE, COLOR, optionalTools]), asker, signal());
  assert.deepEqual(answer, { action: 'accept', content: {} });
  assert.ok(asker.picks[0]!.items.some((i) => i.id === SKIP_ID), 'an optional single choice offers "No answer"');
});

test('a required choice offers no "No answer"', async () => {
  const asker = new ScriptedAsker([{ confirm: 'respond' }, { pickLabel: 'No' }]);
  const answer = await runElicitationForm(form([AGREE]), asker, signal());
  assert.deepEqual(answer, { action: 'accept', content: { agree: false } });
  assert.deepEqual(
    asker.picks[0]!.items.map((i) => i.label),
    ['Yes', 'No'],
  );
});

test('Decline in the opening question declines; closing it cancels, and nothing else is asked', async () => {
  const declined = new ScriptedAsker([{ confirm: 'decline' }]);
  assert.deepEqual(await runElicitationForm(form([NAME]), declined, signal()), { action: 'decline' });
  assert.equal(declined.texts.length, 0);
  const closed = new ScriptedAsker([{ confirm: undefined }]);
  assert.deepEqual(await runElicitationForm(form([NAME]), closed, signal()), { action: 'cancel' });
  assert.equal(closed.texts.length, 0);
});

test('Esc on any field cancels the whole form (no partial answer is sent)', async () => {
  const onText = new ScriptedAsker([{ confirm: 'respond' }, { text: 'Ada' }, { text: undefined }]);
  assert.deepEqual(await runElicitationForm(form([NAME, AGE, AGREE]), onText, signal()), { action: 'cancel' });
  const onPick = new ScriptedAsker([{ confirm: 'respond' }, { text: 'Ada' }, { text: '' }, { pick: undefined }]);
  assert.deepEqual(await runElicitationForm(form([NAME, AGE, AGREE]), onPick, signal()), { action: 'cancel' });
});

test('an invalid answer is asked again with the problem shown and the text kept', async () => {
  const asker = new ScriptedAsker([{ confirm: 'respond' }, { text: 'A' }, { text: 'Ada' }, { text: '500' }, { text: 'forty' }, { text: '4.5' }, { text: '45' }]);
  const answer = await runElicitationForm(form([NAME, AGE]), asker, signal());
  assert.deepEqual(answer, { action: 'accept', content: { name: 'Ada', age: 45 } });
  const [first, second, third, fourth, fifth, sixth] = asker.texts;
  assert.equal(first!.problem, undefined);
  assert.equal(second!.problem, 'At least 2 characters.');
  assert.equal(second!.value, 'A', 'what was typed stays in the box');
  assert.equal(third!.problem, undefined, 'a new field starts clean');
  assert.equal(fourth!.problem, 'At most 120.');
  assert.equal(fifth!.problem, 'Enter a whole number.');
  assert.equal(sixth!.problem, 'Enter a whole number.');
});

test('too many or too few ticks are asked again, keeping the ticks', async () => {
  const asker = new ScriptedAsker([{ confirm: 'respond' }, { pick: ['hammer', 'saw', 'drill'] }, { pick: [] }, { pick: ['drill'] }]);
  const answer = await runElicitationForm(form([TOOLS]), asker, signal());
  assert.deepEqual(answer, { action: 'accept', content: { tools: ['drill'] } });
  assert.match(asker.picks[1]!.problem ?? '', /at most 2/);
  assert.deepEqual(asker.picks[1]!.preselected, ['hammer', 'saw', 'drill']);
  assert.match(asker.picks[2]!.problem ?? '', /at least one/i);
});

test('a required field left empty is asked again', async () => {
  const asker = new ScriptedAsker([{ confirm: 'respond' }, { text: '' }, { text: 'Bob' }, { pickLabel: 'Yes' }]);
  const answer = await runElicitationForm(form([NAME, AGREE]), asker, signal());
  assert.deepEqual(answer, { action: 'accept', content: { name: 'Bob', agree: true } });
  assert.equal(asker.texts[1]!.problem, 'This field is required.');
});

test('a user who never gets it right ends in cancel, not an endless loop', async () => {
  const asker = new ScriptedAsker([{ confirm: 'respond' }, ...Array.from({ length: 20 }, () => ({ text: 'x' }))]);
  assert.deepEqual(await runElicitationForm(form([NAME]), asker, signal()), { action: 'cancel' });
});

test('a cancelled request (the server or Stop) ends the form with cancel', async () => {
  const abort = new AbortController();
  const asker: FormAsker = {
    confirm: async () => 'respond',
    text: async () => {
      abort.abort();
      return 'Ada';
    },
    pick: async () => assert.fail('nothing is asked after the cancel'),
  };
  assert.deepEqual(await runElicitationForm(form([NAME, AGREE]), asker, abort.signal), { action: 'cancel' });
  const before = new AbortController();
  before.abort();
  assert.deepEqual(await runElicitationForm(form([NAME]), new ScriptedAsker([]), before.signal), { action: 'cancel' });
});

test('formats: the input box rejects what the client would refuse to send', () => {
  const field = (format: 'email' | 'uri' | 'date' | 'date-time'): Extract<ElicitField, { kind: 'string' }> => ({ kind: 'string', name: 'f', required: true, format });
  assert.deepEqual(readText(field('email'), 'ada@example.com'), { ok: true, value: 'ada@example.com' });
  assert.equal(readText(field('email'), 'ada at example').ok, false);
  assert.equal(readText(field('uri'), 'https://ada.dev').ok, true);
  assert.equal(readText(field('uri'), 'ada.dev').ok, false);
  assert.equal(readText(field('date'), '1815-12-10').ok, true);
  assert.equal(readText(field('date'), '1815-02-30').ok, false);
  assert.equal(readText(field('date-time'), '2024-05-31T14:30:00Z').ok, true);
  const number: Extract<ElicitField, { kind: 'number' }> = { kind: 'number', name: 'n', required: true, integer: false, minimum: 0, maximum: 1000 };
  assert.deepEqual(readText(number, ' 3.14 '), { ok: true, value: 3.14 });
  assert.equal(readText(number, '1e3').ok, true);
  assert.equal(readText(number, '0x10').ok, false, 'hex is not a JSON number');
  assert.equal(readText(number, 'Infinity').ok, false);
  assert.equal(readText(number, '-1').ok, false);
  assert.match(describeField(number), /number from 0 to 1000, required/);
});

test('server-everything\u2019s real form: walked with defaults and a few answers, the result passes the client\u2019s own check', async () => {
  // The requestedSchema `trigger-elicitation-request` sends (server-everything 2026.8.31), abridged to its kinds.
  const requestedSchema = {
    type: 'object',
    properties: {
      name: { title: 'String', type: 'string', description: 'Your full, legal name' },
      check: { title: 'Boolean', type: 'boolean', description: 'Agree to the terms and conditions' },
      email: { title: 'String with email format', type: 'string', format: 'email' },
      integer: { title: 'Integer', type: 'integer', minimum: 1, maximum: 100, default: 42 },
      untitledMultipleSelectEnum: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin'] }, default: ['Guitar'] },
      titledSingleSelectEnum: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Green Lantern' }], default: 'hero-1' },
      legacyTitledEnum: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-1' },
    },
    required: ['name'],
  };
  const fields = parseElicitationSchema(requestedSchema);
  const asker = new ScriptedAsker([
    { confirm: 'respond' },
    { text: 'Ada Lovelace' },
    { pickLabel: 'No answer' },
    { text: 'not-an-email' },
    { text: 'ada@example.com' },
    { text: '42' },
    { pick: ['Guitar', 'Violin'] },
    { pickLabel: 'Green Lantern' },
    { pickLabel: 'Dogs' },
  ]);
  const answer = await runElicitationForm({ server: 'everything', message: 'Please provide inputs', fields, requestedSchema }, asker, signal());
  assert.equal(answer.action, 'accept');
  const content = answer.action === 'accept' ? answer.content : {};
  assert.deepEqual(content, { name: 'Ada Lovelace', email: 'ada@example.com', integer: 42, untitledMultipleSelectEnum: ['Guitar', 'Violin'], titledSingleSelectEnum: 'hero-2', legacyTitledEnum: 'pet-2' });
  assert.deepEqual(validateElicitationAnswer(fields, content), { ok: true, content });
  assert.match(asker.texts[2]!.problem ?? '', /email address/);
  const heroes = asker.picks.find((p) => p.title.includes('titledSingleSelectEnum'))!;
  assert.deepEqual(
    heroes.items.map((i) => [i.label, i.description]),
    [
      ['Superman', 'hero-1'],
      ['Green Lantern', 'hero-2'],
      ['No answer', 'leave this optional field empty'],
    ],
  );
});

test('two forms asked at once are shown one after the other, each answered on its own', async () => {
  const events: string[] = [];
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  const asker: FormAsker = {
    async confirm({ server }) {
      events.push(`confirm ${server}`);
      return 'respond';
    },
    async text(question) {
      events.push(`text ${question.title}`);
      if (question.title.startsWith('first')) await firstHeld;
      return question.title.startsWith('first') ? 'Ann' : 'Bea';
    },
    pick: async () => assert.fail('no picks here'),
  };
  const port = formPort(asker);
  const one = port({ ...form([NAME]), server: 'first' }, signal());
  const two = port({ ...form([NAME]), server: 'second' }, signal());
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(events, ['confirm first', 'text first: Your name (field 1 of 1)'], 'the second form waits');
  releaseFirst();
  assert.deepEqual(await one, { action: 'accept', content: { name: 'Ann' } });
  assert.deepEqual(await two, { action: 'accept', content: { name: 'Bea' } });
  assert.deepEqual(events.slice(2), ['confirm second', 'text second: Your name (field 1 of 1)']);
});
