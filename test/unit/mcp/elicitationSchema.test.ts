import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ElicitationSchemaError, parseElicitationSchema, validateElicitationAnswer } from '../../../src/mcp/elicitationSchema';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 130, default: 30 },
    score: { type: 'number', minimum: 0.5 },
    ok: { type: 'boolean', default: false },
    colour: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'], default: 'g' },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2' }] },
    tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] }, default: ['a'] },
    fish: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }] } },
  },
  required: ['name', 'age'],
};

test('every field kind the spec allows is read, with labels from enumNames, oneOf and anyOf titles', () => {
  const fields = parseElicitationSchema(schema);
  assert.deepEqual(fields.map((f) => `${f.name}:${f.kind}${f.required ? '!' : ''}`), [
    'name:string!', 'email:string', 'site:string', 'born:string', 'at:string', 'age:number!', 'score:number', 'ok:boolean', 'colour:enum', 'hero:enum', 'tags:multiEnum', 'fish:multiEnum',
  ]);
  assert.deepEqual(fields[0], { kind: 'string', name: 'name', title: 'Name', required: true, minLength: 2, maxLength: 5 });
  assert.deepEqual(fields[5], { kind: 'number', name: 'age', required: true, integer: true, default: 30, minimum: 0, maximum: 130 });
  assert.deepEqual(fields[6], { kind: 'number', name: 'score', required: false, integer: false, minimum: 0.5 });
  assert.deepEqual(fields[8], { kind: 'enum', name: 'colour', required: false, default: 'g', options: [{ value: 'r', label: 'Red' }, { value: 'g', label: 'Green' }] });
  assert.deepEqual(fields[9], { kind: 'enum', name: 'hero', required: false, options: [{ value: 'h1', label: 'Superman' }, { value: 'h2', label: 'h2' }] });
  assert.deepEqual(fields[10], { kind: 'multiEnum', name: 'tags', required: false, default: ['a'], minItems: 1, maxItems: 2, options: ['a', 'b', 'c'].map((v) => ({ value: v, label: v })) });
  assert.deepEqual(fields[11], { kind: 'multiEnum', name: 'fish', required: false, options: [{ value: 'f1', label: 'Tuna' }] });
});

test('schemas a form cannot show are refused with the reason', () => {
  const bad: Array<[unknown, RegExp]> = [
    ['nope', /not an object/],
    [{ type: 'array' }, /not "object"/],
    [{ properties: { a: { type: 'object' } } }, /field "a" has the unsupported type "object"/],
    [{ properties: { a: { type: 'string', format: 'ipv4' } } }, /unsupported format "ipv4"/],
    [{ properties: { a: { type: 'array', items: { type: 'number' } } } }, /items are not an enum of strings/],
    [{ properties: { a: { type: 'string', enum: [1, 2] } } }, /enum value 1 is not a string/],
    [{ properties: {}, required: ['ghost'] }, /requires "ghost", which it does not define/],
  ];
  for (const [input, message] of bad) assert.throws(() => parseElicitationSchema(input), (e: unknown) => e instanceof ElicitationSchemaError && message.test(e.message));
  assert.deepEqual(parseElicitationSchema({ type: 'object', properties: {} }), []);
});

const fields = parseElicitationSchema(schema);
const valid = { name: 'Ada', age: 36, email: 'ada@example.org', site: 'https://ada.dev/x', born: '1815-12-10', at: '2024-02-29T10:00:00Z', score: 0.5, ok: true, colour: 'r', hero: 'h2', tags: ['a', 'c'], fish: ['f1'] };

test('a valid answer passes unchanged; optional fields may be left out', () => {
  assert.deepEqual(validateElicitationAnswer(fields, valid), { ok: true, content: valid });
  assert.deepEqual(validateElicitationAnswer(fields, { name: 'Bo', age: 0 }), { ok: true, content: { name: 'Bo', age: 0 } });
});

test('each kind of wrong answer is caught and named', () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ age: 3 }, /^"name" is required$/],
    [{ name: 'Ada' }, /^"age" is required$/],
    [{ name: 'A', age: 1 }, /"name" must be at least 2 characters long/],
    [{ name: 'Adalbert', age: 1 }, /"name" must be at most 5 characters long/],
    [{ name: 7, age: 1 }, /"name" must be a string, got number 7/],
    [{ name: 'Ada', age: '36' }, /"age" must be a number, got the text "36"/],
    [{ name: 'Ada', age: 36.5 }, /"age" must be a whole number, got 36\.5/],
    [{ name: 'Ada', age: 131 }, /"age" must be at most 130, got 131/],
    [{ name: 'Ada', age: -1 }, /"age" must be at least 0, got -1/],
    [{ name: 'Ada', age: 1, score: 0.1 }, /"score" must be at least 0\.5/],
    [{ name: 'Ada', age: 1, ok: 'yes' }, /"ok" must be true or false/],
    [{ name: 'Ada', age: 1, email: 'ada at example' }, /"email" is not a valid email/],
    [{ name: 'Ada', age: 1, site: 'ada.dev' }, /"site" is not a valid uri/],
    [{ name: 'Ada', age: 1, born: '2023-02-29' }, /"born" is not a valid date/],
    [{ name: 'Ada', age: 1, born: '10/12/1815' }, /"born" is not a valid date/],
    [{ name: 'Ada', age: 1, at: '2024-01-01 10:00' }, /"at" is not a valid date-time/],
    [{ name: 'Ada', age: 1, colour: 'Red' }, /"colour" must be one of r, g; got "Red"/],
    [{ name: 'Ada', age: 1, hero: 'h3' }, /"hero" must be one of h1, h2/],
    [{ name: 'Ada', age: 1, tags: [] }, /"tags" needs at least 1 choice/],
    [{ name: 'Ada', age: 1, tags: ['a', 'b', 'c'] }, /"tags" takes at most 2 choices/],
    [{ name: 'Ada', age: 1, tags: ['a', 'a'] }, /"tags" lists a choice twice/],
    [{ name: 'Ada', age: 1, tags: ['z'] }, /"tags" contains "z", not among a, b, c/],
    [{ name: 'Ada', age: 1, tags: 'a' }, /"tags" must be a list of choices/],
    [{ name: 'Ada', age: 1, extra: 1 }, /"extra" is not a field of the form/],
  ];
  for (const [content, message] of cases) {
    const check = validateElicitationAnswer(fields, content);
    assert.equal(check.ok, false, JSON.stringify(content));
    assert.ok(!check.ok && check.problems.some((p) => message.test(p)), `${JSON.stringify(content)} → ${!check.ok && check.problems.join('; ')}`);
  }
  assert.deepEqual(validateElicitationAnswer(fields, null), { ok: false, problems: ['the answer is not an object'] });
});
