import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCli, USAGE, UsageError } from '../../../src/cli/args';

test('doctor takes the server flags of run', () => {
  const o = parseCli(['doctor', '--provider', 'openai', '--base-url', 'http://h:1234/v1', '--model', 'm', '--num-ctx', '8192', '--tool-protocol', 'xml', '--embed-model', 'e', '--db', 'x.db', '--json'], { LOCALHARNESS_API_KEY: 'k' }, '/w');
  assert.deepEqual(o, {
    command: 'doctor',
    provider: 'openai',
    json: true,
    firstByteTimeoutMs: 300_000,
    baseUrl: 'http://h:1234/v1',
    model: 'm',
    embedModel: 'e',
    db: 'x.db',
    numCtx: 8192,
    toolProtocol: 'xml',
    apiKey: 'k',
  });
  assert.deepEqual(parseCli(['doctor'], {}, '/w'), { command: 'doctor', provider: 'ollama', json: false, firstByteTimeoutMs: 300_000 });
});

test('doctor refuses what does not apply', () => {
  assert.throws(() => parseCli(['doctor', '--approve', 'all'], {}, '/w'), (e) => e instanceof UsageError && /--approve does not apply to `doctor`/.test(e.message));
  assert.throws(() => parseCli(['doctor', 'extra'], {}, '/w'), /takes no arguments/);
  assert.throws(() => parseCli(['doctor', '--tool-protocol', 'smoke'], {}, '/w'), /native, xml or auto/);
  assert.throws(() => parseCli(['doctor', '--num-ctx', '0'], {}, '/w'), /positive whole number/);
  assert.ok(USAGE.includes('localharness doctor ['));
});
