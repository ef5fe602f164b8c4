// Reading the server's own words out of error bodies, Retry-After in both forms, and URLs printed without passwords.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorMessageOf, parseRetryAfter, serverText } from '../../../src/providers/serverWords';
import { checkApiKey, redactUrl } from '../../../src/providers/endpointSecrets';

test('error bodies in every shape servers use give their message', () => {
  assert.equal(errorMessageOf({ error: { message: 'CUDA error: out of memory', code: 500 } }), 'CUDA error: out of memory');
  assert.equal(errorMessageOf({ error: 'model "x" not found' }), 'model "x" not found');
  assert.equal(errorMessageOf({ object: 'error', message: 'messages[2] must be a tool message', type: 'BadRequestError', code: 400 }), 'messages[2] must be a tool message');
  assert.equal(errorMessageOf({ detail: 'Not Found' }), 'Not Found');
  assert.equal(errorMessageOf({ choices: [], message: 'not an error' }), undefined);
  assert.equal(serverText('<html><head><title>503 Service Unavailable</title><style>p{}</style></head><body><h1>503 Service Unavailable</h1><p>No server is available &amp; retrying.</p></body></html>', 'text/html'),
    'an HTML page "503 Service Unavailable": No server is available & retrying.');
  assert.equal(serverText('  ', null), 'no error text');
  assert.equal(serverText('x'.repeat(1000), 'text/plain').length, 301);
});

test('Retry-After in seconds or as a date', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  assert.equal(parseRetryAfter('3', now), 3000);
  assert.equal(parseRetryAfter(new Date(now + 7000).toUTCString(), now), 7000);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(null, now), undefined);
});

test('passwords in URLs are masked and keys with line breaks refused without being shown', () => {
  assert.equal(redactUrl('http://alice:s3cret@host:8080/v1'), 'http://alice:***@host:8080/v1');
  assert.equal(redactUrl('see https://u:p@a.example and http://b.example'), 'see https://u:***@a.example and http://b.example');
  assert.equal(redactUrl('http://host:8080/v1'), 'http://host:8080/v1');
  assert.throws(() => checkApiKey('sk-secret\n'), (err: Error) => /line break/.test(err.message) && !err.message.includes('sk-secret'));
  assert.throws(() => checkApiKey('sk-\u2028x'), /characters an HTTP header cannot carry|line break/);
  checkApiKey('sk-ok_123');
});
