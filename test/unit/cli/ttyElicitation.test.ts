// The terminal form for MCP elicitation, driven by a scripted input stream (the lines a user would type).
// The form is read from a server-everything-like schema by the MCP client's own parser, and every accepted
// answer is checked with the client's own validator: what the form returns is what a server would receive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { askElicitation, ttyElicitation } from '../../../src/cli/ttyElicitation';
import { terminalLines } from '../../../src/cli/terminalLines';
import { parseElicitationSchema, validateElicitationAnswer } from '../../../src/mcp/elicitationSchema';
import type { ElicitationRequest } from '../../../src/mcp/clientFeatures';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', description: 'Your full, legal name', minLength: 2 },
    check: { type: 'boolean', title: 'Agree', description: 'Agree to the terms' },
    firstLine: { type: 'string', description: 'Favorite first line', default: 'It was a dark and stormy night.' },
    email: { type: 'string', format: 'email', description: 'Your email address' },
    birthdate: { type: 'string', format: 'date' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    number: { type: 'number', minimum: 0, maximum: 1000 },
    friend: { type: 'string', enum: ['Monica', 'Rachel', 'Joey'], default: 'Monica' },
    hero: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Green Lantern' }] },
    fish: { type: 'array', minItems: 1, maxItems: 2, items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }, { const: 'fish-3', title: 'Trout' }] } },
  },
  required: ['name', 'email'],
};

function request(message = 'Please provide inputs for the following fields:', requested: Record<string, unknown> = schema): ElicitationRequest {
  return { server: 'everything', message, fields: parseElicitationSchema(requested), requestedSchema: requested };
}

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Runs the form against `typed` (one entry per line; the input ends after the last unless `keepOpen`). */
async function fill(typed: string[], req = request(), options: { keepOpen?: boolean; signal?: AbortSignal } = {}) {
  const input = new PassThrough();
  const output = new Collect();
  input.write(typed.map((l) => `${l}\n`).join(''));
  if (!options.keepOpen) input.end();
  const lines = terminalLines(input, output, options.signal ?? new AbortController().signal);
  try {
    const answer = await askElicitation(req, lines);
    return { answer, output: output.text };
  } finally {
    lines.close();
  }
}

test('yes, then every field: invalid input is explained and asked again; the answer passes the client validation', async () => {
  const req = request();
  const { answer, output } = await fill([
    'y',
    'A', // too short
    'Ada Lovelace',
    'maybe', // not y/n
    'yes',
    '', // default first line
    'ada@', // not an email
    'ada@example.com',
    '1815-02-30', // not a real day
    '1815-12-10',
    '101', // above maximum
    '7.5', // not whole
    '', // default 42
    'lots', // not a number
    '3.14',
    'rachel', // a value, any case
    '5', // out of range
    'Green Lantern', // by label
    '1, 3, 2', // too many
    'tuna,3',
  ], req);
  assert.deepEqual(answer, {
    action: 'accept',
    content: {
      name: 'Ada Lovelace',
      check: true,
      firstLine: 'It was a dark and stormy night.',
      email: 'ada@example.com',
      birthdate: '1815-12-10',
      integer: 42,
      number: 3.14,
      friend: 'Rachel',
      hero: 'hero-2',
      fish: ['fish-1', 'fish-3'],
    },
  });
  assert.deepEqual(validateElicitationAnswer(req.fields, answer.action === 'accept' ? answer.content : undefined), { ok: true, content: answer.action === 'accept' ? answer.content : {} });

  // What the user saw: who asks and why, then each field with its title, description, rules, choices and default.
  assert.match(output, /MCP server "everything" asks for input:\n {2}Please provide inputs for the following fields:/);
  assert.match(output, /Answer\? \[y\]es \/ \[n\]o \(decline\) \/ \[c\]ancel: y\n/);
  assert.match(output, /\[1\/10\] Full name \(name\), required\n {2}Your full, legal name\n {2}text, at least 2 characters\nname: A\n {2}at least 2 characters, got 1; try again/);
  assert.match(output, /check: maybe\n {2}answer y or n; try again/);
  assert.match(output, /firstLine, optional\n {2}Favorite first line\n {2}text\n {2}Enter: It was a dark and stormy night\./);
  assert.match(output, /email: ada@\n {2}not an email address/);
  assert.match(output, /birthdate: 1815-02-30\n {2}not a date \(YYYY-MM-DD\)/);
  assert.match(output, /a whole number from 1 to 100\n {2}Enter: 42/);
  assert.match(output, /integer: 101\n {2}at most 100; try again/);
  assert.match(output, /integer: 7\.5\n {2}a whole number is needed/);
  assert.match(output, /number, optional\n {2}a number from 0 to 1000\n {2}Enter: leave it out/);
  assert.match(output, / {4}1\) Monica\n {4}2\) Rachel\n {4}3\) Joey\n {2}Enter: Monica/);
  assert.match(output, / {4}1\) Superman \(hero-1\)\n {4}2\) Green Lantern \(hero-2\)/);
  assert.match(output, /hero: 5\n {2}"5" is not one of the choices \(1 to 2, or a value\)/);
  assert.match(output, /1 to 2 of \(numbers or values, separated by commas\):/);
  assert.match(output, /fish: 1, 3, 2\n {2}choose at most 2/);
});

test('an empty line leaves an optional field out, takes a default, and is refused for a required field', async () => {
  const small = {
    type: 'object',
    properties: {
      nick: { type: 'string' },
      color: { type: 'string', default: 'blue' },
      age: { type: 'integer' },
      code: { type: 'string' },
    },
    required: ['code'],
  };
  const { answer, output } = await fill(['yes', '', '', '', '', 'X1'], request('Who are you?', small));
  assert.deepEqual(answer, { action: 'accept', content: { color: 'blue', code: 'X1' } });
  assert.match(output, /code: \n {2}an answer is required; try again/);
});

test('no declines, cancel cancels, anything else asks again', async () => {
  assert.deepEqual((await fill(['n'])).answer, { action: 'decline' });
  assert.deepEqual((await fill(['No'])).answer, { action: 'decline' });
  assert.deepEqual((await fill(['c'])).answer, { action: 'cancel' });
  const again = await fill(['what?', '', 'n']);
  assert.deepEqual(again.answer, { action: 'decline' });
  assert.equal(again.output.match(/Answer\? /g)?.length, 3, 'asked three times');
});

test('the end of input, at the first question or in the middle of the form, cancels', async () => {
  assert.deepEqual((await fill([])).answer, { action: 'cancel' });
  const midway = await fill(['y', 'Ada Lovelace']);
  assert.deepEqual(midway.answer, { action: 'cancel' });
  assert.match(midway.output, /check: \nCancelled/);
});

test('aborting (the run is interrupted) while a question waits cancels', async () => {
  const controller = new AbortController();
  const pending = fill(['y'], request(), { keepOpen: true, signal: controller.signal });
  await new Promise((r) => setTimeout(r, 20));
  controller.abort();
  assert.deepEqual((await pending).answer, { action: 'cancel' });
});

test('a form with no fields is accepted empty after yes', async () => {
  const { answer } = await fill(['y'], request('Confirm?', { type: 'object', properties: {} }));
  assert.deepEqual(answer, { action: 'accept', content: {} });
});

test('control characters from the server are shown escaped, not sent to the terminal', async () => {
  const { output } = await fill(['n'], request('Hi\x1b[2J\x1b]0;pwned\x07 there'));
  assert.ok(!output.includes('\x1b'), 'no escape character reaches the terminal');
  assert.match(output, /Hi\\x1b\[2J\\x1b\]0;pwned\\x07 there/);
});

/** A stand-in terminal: readline treats it as a TTY (raw keys, Ctrl-C as SIGINT). */
function fakeTty(): PassThrough & { isTTY: boolean; setRawMode(mode: boolean): void } {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode(mode: boolean): void };
  stream.isTTY = true;
  stream.setRawMode = () => undefined;
  return stream;
}

test('on a terminal, Ctrl-C cancels the form (and only the form)', async () => {
  const input = fakeTty();
  const output = new Collect();
  const elicit = ttyElicitation(input as unknown as NodeJS.ReadStream, output, () => assert.fail('no notice on a terminal'));
  const pending = elicit(request(), new AbortController().signal);
  input.write('y\r');
  input.write('Ada\r');
  await new Promise((r) => setTimeout(r, 20));
  input.write('\x03');
  assert.deepEqual(await pending, { action: 'cancel' });
  assert.match(output.text, /\^C/);
});

test('on a terminal, answers typed with Enter fill the form', async () => {
  const input = fakeTty();
  const output = new Collect();
  const elicit = ttyElicitation(input as unknown as NodeJS.ReadStream, output, () => assert.fail('no notice on a terminal'));
  const req = request('Name?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
  const pending = elicit(req, new AbortController().signal);
  input.write('y\r');
  await new Promise((r) => setTimeout(r, 10));
  input.write('Grace\r');
  assert.deepEqual(await pending, { action: 'accept', content: { name: 'Grace' } });
});

test('without a terminal the request is declined at once and the notice says so', async () => {
  const input = new PassThrough() as unknown as NodeJS.ReadStream; // not a TTY; nothing is ever read from it
  const notices: string[] = [];
  const elicit = ttyElicitation(input, new Collect(), (m) => notices.push(m));
  assert.deepEqual(await elicit(request('Please provide\n inputs'), new AbortController().signal), { action: 'decline' });
  assert.deepEqual(notices, ['declined MCP server "everything"\'s request for input ("Please provide inputs"): there is no terminal to ask on']);
});
