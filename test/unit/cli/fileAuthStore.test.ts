// The CLI's token file: created 0600 in a 0700 folder, one record per server URL, tightened again when someone
// loosened it (and said so), and a damaged file does not stop a sign-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultAuthFile, FileAuthStore } from '../../../src/cli/fileAuthStore';

const record = (url: string) => ({ serverUrl: url, tokens: { access_token: 'at', token_type: 'Bearer' } });

test('records are kept per server URL in a file only the user can read', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lh-auth-')), 'localharness', 'mcp-auth.json');
  const store = new FileAuthStore(file);
  assert.equal(await store.get('https://a.example/mcp'), undefined);
  await store.set('https://a.example/mcp', record('https://a.example/mcp'));
  await store.set('https://b.example/mcp', record('https://b.example/mcp'));
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
  assert.deepEqual(await new FileAuthStore(file).get('https://b.example/mcp'), record('https://b.example/mcp'));
  assert.equal(await store.delete('https://a.example/mcp'), true);
  assert.equal(await store.delete('https://a.example/mcp'), false);
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, 'utf8')).servers), ['https://b.example/mcp']);
});

test('a file others could read is made private again, with a warning; a damaged one is replaced', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-auth-'));
  const file = path.join(dir, 'mcp-auth.json');
  const warnings: string[] = [];
  const store = new FileAuthStore(file, (m) => warnings.push(m));
  await store.set('https://a.example/mcp', record('https://a.example/mcp'));
  chmodSync(file, 0o644);
  assert.ok(await store.get('https://a.example/mcp'));
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.match(warnings[0]!, /was readable by others \(mode 644\); it is 600 again/);
  writeFileSync(file, '{ not json', { mode: 0o600 });
  assert.equal(await store.get('https://a.example/mcp'), undefined);
  assert.match(warnings.at(-1)!, /is not a valid MCP sign-in file; it is replaced at the next sign-in/);
  await store.set('https://a.example/mcp', record('https://a.example/mcp'));
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).version, 1);
});

test('the default file follows XDG_CONFIG_HOME', () => {
  assert.equal(defaultAuthFile({ XDG_CONFIG_HOME: '/x/cfg' }), '/x/cfg/localharness/mcp-auth.json');
});

test('a folder others can write is not used for sign-ins', { skip: process.platform === 'win32' }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-auth-'));
  chmodSync(dir, 0o777);
  const store = new FileAuthStore(path.join(dir, 'mcp-auth.json'));
  await assert.rejects(store.set('https://a.example/mcp', record('https://a.example/mcp')), /is not a folder only you can write/);
  assert.equal(await store.get('https://a.example/mcp'), undefined);
});
