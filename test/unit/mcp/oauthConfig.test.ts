// The `oauth` entry of an HTTP server: what it may say, secrets from the environment, and what is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMcpConfigText } from '../../../src/mcp/config';
import { commandLineOf, consentFingerprint } from '../../../src/mcp/serverCommand';
import { addScope, coversScope, unionScope } from '../../../src/mcp/auth/scopes';
import type { McpServerSource } from '../../../src/mcp/types';

const source: McpServerSource = { kind: 'cliFile', path: '/cfg/mcp.json' };
const parse = (oauth: unknown, env: Record<string, string> = {}, workspaceFolder = '/ws') =>
  parseMcpConfigText(JSON.stringify({ servers: { docs: { type: 'http', url: 'https://mcp.example.com/mcp', oauth } } }), source, { workspaceFolder, env });

test('oauth: absent means the default (sign in on a 401); false turns it off; an object is normalised', () => {
  const none = parseMcpConfigText(JSON.stringify({ servers: { docs: { url: 'https://mcp.example.com/mcp' } } }), source);
  assert.equal((none.servers[0]!.transport as { oauth?: unknown }).oauth, undefined);
  assert.equal((parse(false).servers[0]!.transport as { oauth?: unknown }).oauth, false);
  const full = parse({ clientId: 'abc', clientSecret: '${env:SECRET}', scopes: 'read  write', issuer: 'https://auth.example.com' }, { SECRET: 's3cret' });
  assert.deepEqual(full.errors, []);
  assert.deepEqual((full.servers[0]!.transport as { oauth?: unknown }).oauth, {
    grant: 'authorization_code',
    clientId: 'abc',
    clientSecret: 's3cret',
    scopes: ['read', 'write'],
    issuer: 'https://auth.example.com',
  });
});

test('oauth: client credentials need a client id and a secret or key; the key file is read relative to the workspace', () => {
  assert.match(parse({ grant: 'client_credentials' }).errors[0]!, /server "docs" has "oauth.grant": "client_credentials" but no "oauth.clientId"/);
  assert.match(parse({ grant: 'client_credentials', clientId: 'm2m' }).errors[0]!, /neither "oauth.clientSecret" nor "oauth.privateKey"/);
  const dir = mkdtempSync(join(tmpdir(), 'lh-oauth-'));
  writeFileSync(join(dir, 'key.pem'), '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n');
  const keyed = parse({ grant: 'client_credentials', clientId: 'm2m', privateKeyFile: 'key.pem', signingAlgorithm: 'RS256' }, {}, dir);
  assert.deepEqual(keyed.errors, []);
  const oauth = (keyed.servers[0]!.transport as { oauth?: { privateKey?: string; signingAlgorithm?: string } }).oauth!;
  assert.match(oauth.privateKey!, /BEGIN PRIVATE KEY/);
  assert.equal(oauth.signingAlgorithm, 'RS256');
  assert.match(parse({ grant: 'client_credentials', clientId: 'm2m', privateKeyFile: 'missing.pem' }, {}, dir).errors[0]!, /cannot read "oauth.privateKeyFile" .*missing\.pem/);
  assert.match(parse({ grant: 'client_credentials', clientId: 'm2m', privateKey: 'x', privateKeyFile: 'key.pem' }, {}, dir).errors[0]!, /both "oauth.privateKey" and "oauth.privateKeyFile"/);
});

test('oauth: the enterprise grant needs its identity provider; unknown keys and non-https metadata URLs are refused', () => {
  assert.match(parse({ grant: 'enterprise', clientId: 'c' }).errors[0]!, /no "oauth.enterprise"/);
  const ok = parse({ clientId: 'c', clientSecret: 's', enterprise: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp', idToken: '${env:ID}' } }, { ID: 'eyJ' });
  assert.deepEqual(ok.errors, []);
  assert.equal((ok.servers[0]!.transport as { oauth?: { grant: string } }).oauth!.grant, 'enterprise');
  assert.match(parse({ enterprise: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp', idToken: '${env:ID}' }, clientId: 'c' }).errors[0]!, /empty "oauth.enterprise.idToken"/);
  assert.match(parse({ clientid: 'typo' }).errors[0]!, /invalid/);
  assert.match(parse({ clientMetadataUrl: 'http://example.com/meta.json' }).errors[0]!, /https URL/);
});

test('the consent line names the OAuth client, never a secret; the fingerprint changes with the settings, not with the secret', () => {
  const a = parse({ clientId: 'abc', clientSecret: 'one', scopes: ['read'] }).servers[0]!;
  const b = parse({ clientId: 'abc', clientSecret: 'two', scopes: ['read'] }).servers[0]!;
  const c = parse({ clientId: 'xyz', clientSecret: 'one', scopes: ['read'] }).servers[0]!;
  assert.equal(commandLineOf(a), 'HTTP https://mcp.example.com/mcp (OAuth sign-in, client abc, scopes read)');
  assert.ok(!commandLineOf(a).includes('one'));
  assert.equal(consentFingerprint(a), consentFingerprint(b));
  assert.notEqual(consentFingerprint(a), consentFingerprint(c));
});

test('scopes: union keeps order and drops repeats; coverage', () => {
  assert.equal(unionScope('a b', 'b c'), 'a b c');
  assert.equal(unionScope(undefined, undefined), undefined);
  assert.equal(addScope('mcp:basic', 'offline_access'), 'mcp:basic offline_access');
  assert.equal(coversScope('a b', 'b'), true);
  assert.equal(coversScope('a', 'a b'), false);
  assert.equal(coversScope('a', undefined), true);
});
