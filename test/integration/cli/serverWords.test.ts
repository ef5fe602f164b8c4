// Errors in the server's words, on both wire formats, through the built CLI (npm run build) as a real process:
// an HTML 502 page, a 200 carrying a JSON error, text where a stream belongs, a whole JSON reply to a streamed
// request, a 400 from a validating server; 429 with Retry-After is retried after the asked wait; a password in
// the base URL and a line break in the key are refused before anything is sent and never printed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { ScriptedReply } from '../../helpers/fakeLlm';

const ENV = { LOCALHARNESS_DB: '', LOCALHARNESS_RETRY_BACKOFF_MS: '0' };

const CASES: Array<{ name: string; reply: ScriptedReply; says: RegExp; openaiOnly?: boolean }> = [
  { name: 'an HTML 502 page', reply: { fault: 'html_error', errorMessage: 'upstream connect error or disconnect' }, says: /HTTP 502.*an HTML page "502 Bad Gateway": upstream connect error or disconnect/ },
  { name: 'a 200 with a JSON error', reply: { fault: 'json_error_200', errorMessage: 'CUDA error: out of memory' }, says: /HTTP 200\): CUDA error: out of memory/ },
  { name: 'text/plain instead of a stream', reply: { fault: 'wrong_content_type', errorMessage: 'model is loading, come back later' }, says: /HTTP 200\): text\/plain.* instead of a stream: model is loading, come back later/ },
  { name: 'a whole JSON reply to a streamed request', reply: { fault: 'not_streamed', text: 'hi' }, says: /HTTP 200\): one whole JSON reply instead of a stream/, openaiOnly: true },
  { name: 'a 400 with the reason', reply: { fault: 'http500', status: 400, errorMessage: 'This model does not support the tools parameter' }, says: /HTTP 400\): This model does not support the tools parameter/ },
];

for (const wire of WIRE_FORMATS) {
  for (const c of CASES) {
    if (c.openaiOnly && wire.name !== 'openai') continue;
    test(`${c.name} is reported with the status and the server's message (${wire.name})`, async (t) => {
      const server = await wire.start([c.reply, c.reply, c.reply, c.reply], c.name);
      t.after(() => server.close());
      const r = await runCli(['run', ...wire.flags(server), 'say hi'], { env: ENV });
      assert.equal(r.code, 1, r.stderr);
      const said = r.stdout + r.stderr;
      assert.match(said, c.says);
      assert.doesNotMatch(said, /sent an empty reply|returned nothing|Check that the model server is running/);
    });
  }

  test(`429 with Retry-After is retried after the wait the server asked for (${wire.name})`, async (t) => {
    const server = await wire.start([{ fault: 'http500', status: 429, retryAfter: '1', errorMessage: 'too many requests' }, { text: 'Done after waiting.' }], 'retry after');
    t.after(() => server.close());
    const started = Date.now();
    const r = await runCli(['run', ...wire.flags(server), 'say hi'], { env: ENV });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Done after waiting\./);
    assert.match(r.stdout + r.stderr, /HTTP 429\): too many requests.*retrying in 1 s as the server asked/);
    assert.ok(Date.now() - started >= 1000, 'it waited');
  });
}

test('a password in the base URL and a line break in the key are refused in one line, never printed', async () => {
  const withPassword = await runCli(['run', '--provider', 'openai', '--base-url', 'http://alice:s3cr3t-pw@127.0.0.1:9/v1', '--model', 'm', 'hi'], { env: ENV });
  assert.equal(withPassword.code, 2);
  assert.match(withPassword.stderr, /--base-url "http:\/\/alice:\*\*\*@127\.0\.0\.1:9\/v1" contains a user name or password/);
  assert.doesNotMatch(withPassword.stdout + withPassword.stderr, /s3cr3t-pw/);
  assert.equal(withPassword.stderr.trim().split('\n').length, 1);

  const doctor = await runCli(['doctor', '--provider', 'ollama', '--base-url', 'http://bob:hunter2@127.0.0.1:9'], { env: ENV });
  assert.equal(doctor.code, 2);
  assert.doesNotMatch(doctor.stdout + doctor.stderr, /hunter2/);

  const key = await runCli(['run', '--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', 'hi'], { env: { ...ENV, LOCALHARNESS_API_KEY: 'sk-abc123\n' } });
  assert.equal(key.code, 2);
  assert.match(key.stderr, /LOCALHARNESS_API_KEY contains a line break .*nothing was sent/);
  assert.doesNotMatch(key.stdout + key.stderr, /sk-abc123|broke off/);
});
