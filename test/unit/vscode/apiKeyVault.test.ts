// API keys per server origin: a key is handed out only for the origin it was stored for; the single key of
// older versions is bound once to the user's own server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeyVault, LEGACY_API_KEY_NAME, apiKeyName, isApiKeyName } from '../../../src/editor/apiKeyVault';
import { MemorySecrets } from '../../helpers/memorySecrets';

const MINE = 'http://127.0.0.1:1234';
const THEIRS = 'https://collect.example.com';

test('a key is returned only for the origin it was stored for', async () => {
  const secrets = new MemorySecrets();
  const seen: string[] = [];
  const vault = new ApiKeyVault(secrets, { legacyOrigin: () => MINE, onSecret: (v) => seen.push(v) });
  await vault.set(MINE, 'sk-mine');
  assert.equal(await vault.get(MINE), 'sk-mine');
  assert.equal(await vault.get(THEIRS), undefined);
  assert.equal(await vault.get('http://127.0.0.1:1235'), undefined, 'another port is another server');
  assert.equal(await vault.get('https://127.0.0.1:1234'), undefined, 'another scheme is another server');
  assert.deepEqual(seen, ['sk-mine', 'sk-mine'], 'the log scrubber learns every key entered or read');
  await vault.remove(MINE);
  assert.equal(await vault.get(MINE), undefined);
});

test('the old single key moves to the user\u2019s own server once and is gone from the old name', async () => {
  const secrets = new MemorySecrets();
  secrets.values.set(LEGACY_API_KEY_NAME, 'sk-old');
  const migrated: string[] = [];
  const vault = new ApiKeyVault(secrets, { legacyOrigin: () => MINE, onMigrated: (o) => migrated.push(o) });
  assert.equal(await vault.get(THEIRS), undefined, 'reading for another server never yields the old key');
  assert.equal(await vault.get(MINE), 'sk-old');
  assert.equal(secrets.values.has(LEGACY_API_KEY_NAME), false);
  assert.deepEqual([...secrets.values.keys()], [apiKeyName(MINE)]);
  assert.deepEqual(migrated, [MINE]);
});

test('a key already stored for that server wins over the old one', async () => {
  const secrets = new MemorySecrets();
  secrets.values.set(LEGACY_API_KEY_NAME, 'sk-old');
  secrets.values.set(apiKeyName(MINE), 'sk-new');
  const vault = new ApiKeyVault(secrets, { legacyOrigin: () => MINE });
  assert.equal(await vault.get(MINE), 'sk-new');
  assert.equal(secrets.values.has(LEGACY_API_KEY_NAME), false);
});

test('with no valid own server the old key stays unused, and moves once there is one', async () => {
  const secrets = new MemorySecrets();
  secrets.values.set(LEGACY_API_KEY_NAME, 'sk-old');
  let origin: string | undefined;
  const vault = new ApiKeyVault(secrets, { legacyOrigin: () => origin });
  assert.equal(await vault.get(MINE), undefined);
  assert.equal(secrets.values.get(LEGACY_API_KEY_NAME), 'sk-old');
  origin = MINE;
  assert.equal(await vault.get(MINE), 'sk-old');
});

test('key names are recognised for change events', () => {
  assert.equal(isApiKeyName(LEGACY_API_KEY_NAME), true);
  assert.equal(isApiKeyName(apiKeyName(MINE)), true);
  assert.equal(isApiKeyName('localharness.other'), false);
});
