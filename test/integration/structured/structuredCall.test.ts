// structuredCall over real HTTP against both fake servers: the schema travels as Ollama `format` / OpenAI
// `response_format`, a bad reply is retried with what was wrong, and the end states (value, error, abort).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ProviderError } from '../../../src/core/provider';
import { structuredCall } from '../../../src/core/structured/structuredCall';
import { StructuredOutputError } from '../../../src/core/structured/structuredOutputError';
import { responseJsonSchema } from '../../../src/core/structured/responseSchema';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { signal, wires } from './wires';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const Plan = z.object({
  title: z.string().min(1),
  steps: z.array(z.object({ n: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number().int()), what: z.string() })),
});
const ASK = [
  { role: 'system' as const, content: 'Plan the task. Reply with JSON only.' },
  { role: 'user' as const, content: 'Rename note-01.txt to note-1.txt' },
];
const GOOD = { title: 'Rename', steps: [{ n: 1, what: 'move the file' }] };

function messagesOf(body: Record<string, unknown> | undefined): Array<{ role: string; content: string }> {
  return (body?.messages ?? []) as Array<{ role: string; content: string }>;
}

for (const wire of wires(servers)) {
  describe(`structuredCall over ${wire.name}`, () => {
    test('the request carries the JSON Schema as structured output; a good reply is one attempt', async () => {
      const { server, provider } = await wire.start([{ text: JSON.stringify(GOOD) }], 'structured good');
      const out = await structuredCall({ provider, model: 'qwen3:8b', messages: ASK, schema: Plan, name: 'plan', signal: signal(), temperature: 0 });
      assert.deepEqual(out, { value: GOOD, attempts: 1, raw: JSON.stringify(GOOD) });
      assert.equal(server.requests.length, 1);
      const body = server.requests[0]!;
      const expected = wire.expectedFormat('plan', responseJsonSchema(Plan));
      assert.deepEqual(body[expected.key], expected.value);
      assert.equal(body.tools, undefined, 'no tools are offered');
      assert.deepEqual(messagesOf(body).map((m) => m.role), ['system', 'user']);
    });

    test('a plain chat request carries no structured-output field', async () => {
      const { server, provider } = await wire.start([{ text: 'hi' }], 'plain');
      for await (const _ of provider.chat({ model: 'qwen3:8b', messages: ASK, tools: [], signal: signal() })) void _;
      assert.equal('format' in server.requests[0]!, false);
      assert.equal('response_format' in server.requests[0]!, false);
    });

    test('fenced JSON with prose around it and a numeric string is accepted and coerced', async () => {
      const reply = 'Here is the plan:\n```json\n{"title": "Rename", "steps": [{"n": "1", "what": "move the file"}]}\n```\nDone.';
      const { provider } = await wire.start([{ text: reply, thinking: 'I should answer in JSON.' }], 'fenced');
      const out = await structuredCall({ provider, model: 'qwen3:8b', messages: ASK, schema: Plan, name: 'plan', signal: signal() });
      assert.deepEqual(out.value, GOOD);
      assert.equal(out.raw, reply, 'thinking is not part of the raw reply');
    });

    test('an invalid reply is retried with the bad reply and the validation errors by path', async () => {
      const bad = '{"steps": [{"n": "one", "what": "move"}]}';
      const { server, provider } = await wire.start([{ text: bad }, { text: JSON.stringify(GOOD) }], 'retry');
      const out = await structuredCall({ provider, model: 'qwen3:8b', messages: ASK, schema: Plan, name: 'plan', signal: signal() });
      assert.deepEqual(out, { value: GOOD, attempts: 2, raw: JSON.stringify(GOOD) });
      assert.equal(server.requests.length, 2);
      const retry = messagesOf(server.requests[1]);
      assert.deepEqual(retry.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
      assert.equal(retry[2]!.content, bad);
      const feedback = retry[3]!.content;
      assert.match(feedback, /^- title: .*expected string/m);
      assert.match(feedback, /^- steps\[0\]\.n: .*expected number/m);
      const expected = wire.expectedFormat('plan', responseJsonSchema(Plan));
      assert.deepEqual(server.requests[1]![expected.key], expected.value, 'the retry asks for the same format');
    });

    test('still invalid after the retry: StructuredOutputError with attempts, last reply and issues', async () => {
      const { server, provider } = await wire.start([{ text: 'I cannot do that.' }, { text: '{"title": ""}' }], 'always bad');
      const err = await structuredCall({ provider, model: 'qwen3:8b', messages: ASK, schema: Plan, name: 'plan', signal: signal() }).then(
        () => assert.fail('expected StructuredOutputError'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof StructuredOutputError, String(err));
      assert.equal(err.attempts, 2);
      assert.equal(err.lastRaw, '{"title": ""}');
      assert.deepEqual(err.issues.map((i) => i.split(':')[0]), ['title', 'steps']);
      assert.match(err.message, /"plan" format after 2 attempts: title: /);
      assert.equal(server.requests.length, 2);
      assert.match(messagesOf(server.requests[1]).at(-1)!.content, /the reply contains no JSON object/);
    });

    test('retries: 0 makes one call; a reply cut at the token limit says so', async () => {
      const { server, provider } = await wire.start([{ text: '{"title": "Ren', finishReason: 'length' }], 'cut');
      const err = await structuredCall({ provider, model: 'qwen3:8b', messages: ASK, schema: Plan, name: 'plan', signal: signal(), retries: 0, maxTokens: 5 }).catch((e: unknown) => e);
      assert.ok(err instanceof StructuredOutputError);
      assert.equal(err.attempts, 1);
      assert.match(err.issues.join('\n'), /cut off at the token limit/);
      assert.equal(server.requests.length, 1);
    });

    test('a provider error passes through unchanged and is not retried', async () => {
      const { server, provider } = await wire.start([{ fault: 'http500', status: 500, errorMessage: 'model crashed' }, { text: JSON.stringify(GOOD) }], 'server error');
      const err = await structuredCall({ provider, model: 'qwen3:8b', messages: ASK, schema: Plan, name: 'plan', signal: signal() }).catch((e: unknown) => e);
      assert.ok(err instanceof ProviderError, String(err));
      assert.equal(err.kind, 'http');
      assert.match(err.message, /model crashed/);
      assert.equal(server.requests.length, 1);
    });

    test('an abort mid-reply propagates and nothing is retried', async () => {
      const { server, provider } = await wire.start([{ text: '{"title": "Re', fault: 'hang' }, { text: JSON.stringify(GOOD) }], 'abort');
      const controller = new AbortController();
      const pending = structuredCall({ provider, model: 'qwen3:8b', messages: ASK, schema: Plan, name: 'plan', signal: controller.signal });
      while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      const err = await pending.catch((e: unknown) => e);
      assert.ok(err instanceof ProviderError, String(err));
      assert.equal(err.kind, 'aborted');
      await server.waitForClientAbort(1, 2000);
      assert.equal(server.requests.length, 1);
    });

    test('a schema name servers would refuse is cleaned up for OpenAI-compatible servers', async () => {
      const { server, provider } = await wire.start([{ text: JSON.stringify(GOOD) }], 'name');
      await structuredCall({ provider, model: 'qwen3:8b', messages: ASK, schema: Plan, name: 'plan step #2', signal: signal() });
      const expected = wire.expectedFormat('plan_step_2', responseJsonSchema(Plan));
      assert.deepEqual(server.requests[0]![expected.key], expected.value);
    });
  });
}
