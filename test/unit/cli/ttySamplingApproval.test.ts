// Approval of MCP sampling requests in the CLI: asked on a terminal, allowed by --allow-sampling, refused
// (with a note saying how to allow it) when neither.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describeSamplingRequest, ttySamplingApproval } from '../../../src/cli/ttySamplingApproval';
import type { SamplingRequest } from '../../../src/mcp/clientFeatures';

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function fakeTty(): NodeJS.ReadStream & PassThrough {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode(mode: boolean): void };
  stream.isTTY = true;
  stream.setRawMode = () => undefined;
  return stream as unknown as NodeJS.ReadStream & PassThrough;
}

/** readline's own cursor moves on a terminal, left out to read what the user saw. */
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

const request: SamplingRequest = {
  server: 'everything',
  messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: say hello' }],
  systemPrompt: 'You are a helpful test server.',
  maxTokens: 100,
  temperature: 0.7,
  modelHints: [],
};

function approval(input: NodeJS.ReadStream, allowAll: boolean) {
  const output = new Collect();
  const notices: string[] = [];
  const approve = ttySamplingApproval({ input, output, allowAll, model: 'qwen3:8b', notice: (m) => notices.push(m), signal: new AbortController().signal });
  return { approve, output, notices };
}

test('on a terminal: the request is shown and y approves, anything else refuses', async () => {
  for (const [typed, expected] of [['y\r', true], ['YES\r', true], ['\r', false], ['n\r', false], ['sure\r', false]] as const) {
    const input = fakeTty();
    const { approve, output, notices } = approval(input, false);
    const pending = approve(request);
    input.write(typed);
    assert.equal(await pending, expected, `typed ${JSON.stringify(typed)}`);
    assert.match(plain(output.text), /MCP server "everything" asks to have qwen3:8b answer this prompt \(sampling\), up to 100 tokens:/);
    assert.match(plain(output.text), / {2}system: You are a helpful test server\.\n {2}user: Resource trigger-sampling-request context: say hello\nAllow\? \[y\]es \/ \[N\]o: /);
    assert.deepEqual(notices, []);
  }
});

test('on a terminal: Ctrl-C refuses', async () => {
  const input = fakeTty();
  const { approve } = approval(input, false);
  const pending = approve(request);
  input.write('\x03');
  assert.equal(await pending, false);
});

test('--allow-sampling approves without asking, and says so', async () => {
  const input = fakeTty();
  const { approve, output, notices } = approval(input, true);
  assert.equal(await approve(request), true);
  assert.equal(output.text, '', 'nothing was asked');
  assert.deepEqual(notices, ['MCP server "everything" has qwen3:8b answer a prompt (up to 100 tokens): allowed by --allow-sampling']);
});

test('without a terminal and without --allow-sampling every request is refused with a hint', async () => {
  const { approve, notices } = approval(new PassThrough() as unknown as NodeJS.ReadStream, false);
  assert.equal(await approve(request), false);
  assert.match(notices[0]!, /refused MCP server "everything"'s request to have the model answer a prompt \(sampling\): there is no terminal to ask on; pass --allow-sampling to allow it/);
});

test('the description cuts long messages, keeps the last few, escapes control characters and names the hints', () => {
  const long: SamplingRequest = {
    ...request,
    messages: [
      ...Array.from({ length: 7 }, (_, i) => ({ role: 'user' as const, text: `message ${i}` })),
      { role: 'assistant', text: `red\x1b[31m${'x'.repeat(450)}` },
    ],
    modelHints: ['claude-3-sonnet'],
  };
  const text = describeSamplingRequest(long, 'llama3');
  assert.match(text, / {2}… 2 earlier messages\n {2}user: message 2\n/);
  assert.ok(!text.includes('message 1\n'));
  assert.match(text, /assistant: red\\x1b\[31mx{392}… \(58 more characters\)/);
  assert.ok(!text.includes('\x1b'));
  assert.match(text, /\(the server would prefer: claude-3-sonnet; llama3 answers\)/);
});
