// Validation of a structured reply, the issue lines a model is shown, the JSON Schema sent, and the final error.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { parseReply } from '../../../src/core/structured/structuredCall';
import { describeIssues, pathText } from '../../../src/core/structured/issues';
import { responseJsonSchema } from '../../../src/core/structured/responseSchema';
import { StructuredOutputError } from '../../../src/core/structured/structuredOutputError';

const Plan = z.object({
  title: z.string().min(1),
  steps: z.array(z.object({ line: z.preprocess((v) => (typeof v === 'string' ? Number(v) : v), z.number().int()), what: z.string() })),
});

describe('parseReply', () => {
  test('takes the first candidate the schema accepts, coercions applied', () => {
    const reply = 'For example {"title": ""}. Here it is: {"title": "Do it", "steps": [{"line": "4", "what": "edit"}], "extra": 1}';
    const out = parseReply(reply, Plan);
    assert.deepEqual(out, { ok: true, value: { title: 'Do it', steps: [{ line: 4, what: 'edit' }] } });
  });

  test('names each problem by path and message', () => {
    const out = parseReply('{"title": "", "steps": [{"line": 1, "what": "a"}, {"line": "x"}]}', Plan);
    assert.ok(!out.ok);
    assert.deepEqual(
      out.issues.map((i) => i.split(':')[0]),
      ['title', 'steps[1].line', 'steps[1].what'],
    );
    assert.ok(out.issues.every((i) => /: \S/.test(i)), 'every issue has a message');
  });

  test('an object that nearly fits is reported rather than a stray value in the prose', () => {
    const out = parseReply('Step [1]: {"title": 5, "steps": []}', Plan);
    assert.ok(!out.ok);
    assert.match(out.issues[0]!, /^title: .*expected string/);
  });

  test('no JSON at all is one issue saying so', () => {
    assert.deepEqual(parseReply('Sorry, I cannot.', Plan), { ok: false, issues: ['the reply contains no JSON object'] });
  });
});

describe('issue paths', () => {
  test('root, keys and indices', () => {
    assert.equal(pathText([]), '(the whole reply)');
    assert.equal(pathText(['entities', 2, 'line']), 'entities[2].line');
    const error = z.object({ a: z.string() }).safeParse([]).error!;
    assert.match(describeIssues(error)[0]!, /^\(the whole reply\): .*expected object/);
  });
});

describe('responseJsonSchema', () => {
  test('the output side of the schema, without $schema or the ±2^53 integer bounds', () => {
    const schema = responseJsonSchema(Plan);
    assert.equal('$schema' in schema, false);
    assert.deepEqual(schema, {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1 },
        steps: {
          type: 'array',
          items: {
            type: 'object',
            properties: { line: { type: 'integer' }, what: { type: 'string' } },
            required: ['line', 'what'],
            additionalProperties: false,
          },
        },
      },
      required: ['title', 'steps'],
      additionalProperties: false,
    });
  });

  test('transforms JSON Schema cannot express do not throw', () => {
    const schema = responseJsonSchema(z.object({ n: z.string().transform((s) => s.length) }));
    assert.deepEqual(Object.keys(schema.properties as object), ['n']);
  });
});

describe('StructuredOutputError', () => {
  test('a readable message with the first issues, and the details as fields', () => {
    const err = new StructuredOutputError('file_summary', 2, '{"chunks": []}', ['summary: Required', 'a: x', 'b: y', 'c: z']);
    assert.equal(err.name, 'StructuredOutputError');
    assert.equal(err.message, `The model's reply did not match the "file_summary" format after 2 attempts: summary: Required; a: x; b: y (and 1 more).`);
    assert.equal(err.attempts, 2);
    assert.equal(err.lastRaw, '{"chunks": []}');
    assert.equal(err.issues.length, 4);
  });
});
