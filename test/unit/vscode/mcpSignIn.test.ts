// The editor's OAuth pieces that need no window: tokens in secret storage (each read handed to the log
// scrubber) and the URI handler that routes a browser's answer to the sign-in waiting for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { mcpAuthKey, SecretAuthStore } from '../../../src/editor/mcp/secretAuthStore';
import { SignInCallbacks } from '../../../src/vscode/mcp/signInCallbacks';
import { MemorySecrets } from '../../helpers/memorySecrets';

test('records live in secret storage under the server URL; their tokens are reported to the scrubber', async () => {
  const secrets = new MemorySecrets();
  const scrubbed: string[] = [];
  const store = new SecretAuthStore(secrets, (v) => scrubbed.push(v));
  const url = 'https://mcp.example.com/mcp';
  await store.set(url, { serverUrl: url, tokens: { access_token: 'access-1', refresh_token: 'refresh-1', token_type: 'Bearer' } });
  assert.deepEqual([...secrets.values.keys()], [mcpAuthKey(url)]);
  assert.deepEqual(scrubbed, ['access-1', 'refresh-1']);
  scrubbed.length = 0;
  const fresh = new SecretAuthStore(secrets, (v) => scrubbed.push(v));
  assert.equal((await fresh.get(url))?.tokens?.access_token, 'access-1');
  assert.deepEqual(scrubbed, ['access-1', 'refresh-1'], 'a window that only reads them knows them too');
  assert.equal(await fresh.get('https://other.example.com/mcp'), undefined);
  secrets.values.set(mcpAuthKey('https://broken.example/mcp'), '{');
  assert.equal(await fresh.get('https://broken.example/mcp'), undefined);
  assert.equal(await fresh.delete(url), true);
  assert.equal(await fresh.delete(url), false);
});

test('a sign-in answer reaches the sign-in that waits for its state; others are ignored and logged', async () => {
  const log: string[] = [];
  const callbacks = new SignInCallbacks((l) => log.push(l));
  const uri = (path: string, query: string) => ({ path, query }) as unknown as vscode.Uri;
  const first = callbacks.expect('state-1');
  const second = callbacks.expect('state-2');
  callbacks.handleUri(uri('/mcp-auth', 'code=abc&state=unknown'));
  callbacks.handleUri(uri('/elsewhere', 'code=abc&state=state-1'));
  callbacks.handleUri(uri('/mcp-auth', 'code=two&state=state-2'));
  assert.equal((await second.answer).get('code'), 'two');
  callbacks.handleUri(uri('/mcp-auth', 'code=one&state=state-1'));
  assert.equal((await first.answer).get('code'), 'one');
  callbacks.handleUri(uri('/mcp-auth', 'code=again&state=state-1'));
  assert.deepEqual(log, [
    'ignored a sign-in answer that no sign-in is waiting for (an old or foreign link)',
    'ignored a link to /elsewhere: not a sign-in answer',
    'ignored a sign-in answer that no sign-in is waiting for (an old or foreign link)',
  ]);
});
