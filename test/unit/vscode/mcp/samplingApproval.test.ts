import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SamplingRequest } from '../../../../src/mcp/clientFeatures';
import { PROMPT_PREVIEW_CHARS, SamplingApprovals, samplingDialogText, type SamplingAnswer, type SamplingDialogText } from '../../../../src/editor/mcp/samplingApproval';

function request(overrides: Partial<SamplingRequest> = {}): SamplingRequest {
  return {
    server: 'everything',
    messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: write a haiku about tea' }],
    systemPrompt: 'You are a helpful test server.',
    maxTokens: 100,
    modelHints: [],
    ...overrides,
  };
}

function approvals(answers: Array<SamplingAnswer | undefined | Error>, model: string | undefined = 'qwen3:8b') {
  const shown: SamplingDialogText[] = [];
  const logged: string[] = [];
  const policy = new SamplingApprovals({
    ask: async (text) => {
      shown.push(text);
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next;
    },
    modelName: () => model,
    log: (server, line) => logged.push(`${server}: ${line}`),
  });
  return { policy, shown, logged };
}

test('the dialog names the server, the model that answers, the token limit, the system prompt and the prompt', () => {
  const { message, detail } = samplingDialogText(request({ modelHints: ['claude-3-sonnet'] }), 'qwen3:8b');
  assert.match(message, /MCP server "everything" wants your model to answer a prompt/);
  assert.match(detail, /^Model: qwen3:8b \(the chat's model\)$/m);
  assert.match(detail, /^Token limit: 100$/m);
  assert.match(detail, /^System prompt: You are a helpful test server\.$/m);
  assert.match(detail, /suggested: claude-3-sonnet \(your chat's model answers instead\)/);
  assert.match(detail, /^user: Resource trigger-sampling-request context: write a haiku about tea$/m);
  assert.doesNotMatch(samplingDialogText(request({ systemPrompt: undefined }), undefined).detail, /System prompt/);
  assert.match(samplingDialogText(request(), undefined).detail, /^Model: the chat's model$/m);
});

test('a long prompt is cut to its first 300 characters, saying how much was left out', () => {
  const long = 'x'.repeat(1000);
  const { detail } = samplingDialogText(request({ messages: [{ role: 'user', text: long }] }), 'm');
  const shownPrompt = detail.split('Prompt:\n')[1]!;
  assert.equal(shownPrompt, `user: ${'x'.repeat(PROMPT_PREVIEW_CHARS - 6)}… (706 more characters)`);
});

test('Allow once asks again next time; Deny and closing the dialog refuse; a failing dialog refuses', async () => {
  const { policy, shown, logged } = approvals(['allow', 'deny', undefined, new Error('no window')]);
  assert.equal(await policy.port(request()), true);
  assert.equal(await policy.port(request()), false);
  assert.equal(await policy.port(request()), false);
  assert.equal(await policy.port(request()), false);
  assert.equal(shown.length, 4, 'asked every time');
  assert.match(logged[0]!, /^everything: sampling request \(1 message, \d+ characters, max 100 tokens, with a system prompt\): allowed once$/);
  assert.match(logged[1]!, /denied$/);
  assert.match(logged[2]!, /refused \(dialog closed\)$/);
  assert.match(logged[3]!, /the dialog failed \(no window\)/);
});

test('"Allow for this server" is remembered for that server only, until forgotten', async () => {
  const { policy, shown } = approvals(['allowServer', 'deny', 'deny']);
  assert.equal(await policy.port(request()), true);
  assert.equal(await policy.port(request()), true, 'not asked again');
  assert.equal(shown.length, 1);
  assert.equal(await policy.port(request({ server: 'other' })), false, 'another server is still asked');
  assert.equal(shown.length, 2);
  policy.forget('everything');
  assert.equal(await policy.port(request()), false, 'asked again after forget');
  assert.equal(shown.length, 3);
});
