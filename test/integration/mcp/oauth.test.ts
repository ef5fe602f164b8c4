// OAuth for HTTP MCP servers, against a real local authorization server (the SDK's router, auto-approving) and
// an MCP server behind bearer-token checks: the first start signs in through a browser hand-off (the CLI's
// loopback listener, a fetch following redirects as the browser), later starts reuse the stored tokens, tokens
// are refreshed before they expire and after the server revokes them, sign-out forgets them, and a token is
// never sent to another server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import type { McpAuthEnv, SignInPort } from '../../../src/mcp/auth/types';
import { SignInDeclined } from '../../../src/mcp/auth/types';
import type { McpServerConfig } from '../../../src/mcp/types';
import { loopbackSignIn } from '../../../src/cli/loopbackSignIn';
import { TestAuthServer } from '../../helpers/mcpAuth/authServer';
import { MemoryAuthStore } from '../../helpers/mcpAuth/memoryAuthStore';
import { ProtectedMcpServer } from '../../helpers/mcpAuth/protectedServer';
import { runCall, tempDir } from '../../helpers/mcp/mcpHarness';

const dir = tempDir('oauth');
let auth: TestAuthServer;
let mcp: ProtectedMcpServer;
let other: ProtectedMcpServer;

before(async () => {
  auth = await TestAuthServer.start({ accessTokenSeconds: 3600 });
  mcp = await ProtectedMcpServer.start(auth);
  other = await ProtectedMcpServer.start(auth);
});

after(async () => {
  await Promise.all([mcp.close(), other.close(), auth.close()]);
  dir.cleanup();
});

function server(name: string, url: string): McpServerConfig {
  return { name, source: { kind: 'userSetting' }, transport: { type: 'http', url, headers: {} }, tools: {} };
}

/** The CLI's loopback sign-in with a "browser" that follows the authorization address to the end. */
function browserSignIn(opened: string[]): SignInPort {
  const output = new PassThrough();
  output.resume();
  return loopbackSignIn({
    output,
    env: {},
    openBrowser: (url) => {
      opened.push(url);
      void fetch(url, { redirect: 'follow' }).then((r) => r.text());
      return true;
    },
  });
}

async function started(env: McpAuthEnv, configs: McpServerConfig[], registry = new ToolRegistry()): Promise<{ manager: McpManager; registry: ToolRegistry }> {
  const manager = new McpManager({ registry, defaultStartTimeoutMs: 5000, auth: env });
  await manager.setServers(configs);
  await manager.startAll();
  return { manager, registry };
}

test('first start: a 401 leads to one browser sign-in (registration, PKCE, code), then the tools work; the record is bound to the URL', async () => {
  const store = new MemoryAuthStore();
  const opened: string[] = [];
  const before = { ...auth.stats };
  const { manager, registry } = await started({ store, signIn: browserSignIn(opened) }, [server('docs', mcp.url)]);
  try {
    const status = manager.status('docs');
    assert.equal(status.state, 'ready', status.message);
    assert.deepEqual(status.tools.map((t) => t.mcpName).sort(), ['add', 'whoami']);
    assert.equal(opened.length, 1, 'the browser was opened once');
    const authorize = new URL(opened[0]!);
    assert.equal(authorize.origin, auth.url);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorize.searchParams.get('state'), 'a state to match the answer against');
    assert.equal(authorize.searchParams.get('resource'), mcp.url, 'the token is asked for this server (RFC 8707)');
    assert.match(authorize.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(auth.stats.registrations - before.registrations, 1, 'registered itself (no client id configured)');
    assert.equal(auth.stats.codeExchanges - before.codeExchanges, 1);

    assert.equal((await runCall(registry, dir.path, 'docs__add', { a: 2, b: 3 })).execution.content, 'sum: 5');
    const record = store.records.get(mcp.url)!;
    assert.equal(record.serverUrl, mcp.url);
    assert.ok(record.tokens?.access_token && record.tokens.refresh_token);
    assert.ok(mcp.seen.tokens.has(record.tokens.access_token));
    const log = manager.getLog('docs').join('\n');
    assert.match(log, /signed in/);
    assert.ok(!log.includes(record.tokens.access_token) && !log.includes(record.tokens.refresh_token!), 'no token in the log');
    assert.ok(!JSON.stringify(manager.statuses()).includes(record.tokens.access_token), 'no token in the status');

    // The same tokens serve a new manager (a new window, a new CLI run): no second sign-in.
    const again = await started({ store, signIn: browserSignIn(opened) }, [server('docs', mcp.url)]);
    try {
      assert.equal(again.manager.status('docs').state, 'ready');
      assert.equal(opened.length, 1, 'no second sign-in');
      assert.equal((await runCall(again.registry, dir.path, 'docs__add', { a: 1, b: 1 })).execution.content, 'sum: 2');
    } finally {
      await again.manager.dispose();
    }

    // Another server (another origin) gets its own sign-in; the first server's token never reaches it.
    const second = await started({ store, signIn: browserSignIn(opened) }, [server('other', other.url)]);
    try {
      assert.equal(second.manager.status('other').state, 'ready', second.manager.status('other').message);
      assert.equal(opened.length, 2);
      assert.ok(!other.seen.tokens.has(record.tokens.access_token), 'the other server never saw the first one\u2019s token');
    } finally {
      await second.manager.dispose();
    }
  } finally {
    await manager.dispose();
  }
});

test('a token about to expire is refreshed before the request; a revoked one leads to a new sign-in; sign-out forgets it', async () => {
  const shortLived = await TestAuthServer.start({ accessTokenSeconds: 2 });
  const protectedServer = await ProtectedMcpServer.start(shortLived);
  const store = new MemoryAuthStore();
  const opened: string[] = [];
  const { manager, registry } = await started({ store, signIn: browserSignIn(opened) }, [server('short', protectedServer.url)]);
  try {
    assert.equal(manager.status('short').state, 'ready', manager.status('short').message);
    assert.equal(opened.length, 1);
    const first = store.records.get(protectedServer.url)!.tokens!.access_token;
    // Half the lifetime later the token counts as expiring: it is refreshed before the call goes out.
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal((await runCall(registry, dir.path, 'short__add', { a: 20, b: 22 })).execution.content, 'sum: 42');
    assert.equal(shortLived.stats.refreshes, 1, 'refreshed once');
    const refreshed = store.records.get(protectedServer.url)!.tokens!.access_token;
    assert.notEqual(refreshed, first);
    assert.equal(protectedServer.seen.rejected, 1, 'only the very first, tokenless request was refused');
    assert.match(manager.getLog('short').join('\n'), /refreshed the access token/);

    // The authorization server forgets every token (access revoked elsewhere): the refresh fails too, so the
    // user signs in again, and the call goes through.
    shortLived.revokeEverything();
    assert.equal((await runCall(registry, dir.path, 'short__whoami', {})).execution.content.startsWith('client '), true);
    assert.equal(opened.length, 2, 'a second sign-in after the revocation');

    assert.equal(await manager.signOut('short'), true);
    assert.equal(store.records.has(protectedServer.url), false, 'nothing stored after sign-out');
    assert.equal(manager.status('short').state, 'stopped');
    assert.equal(manager.status('short').message, 'signed out');
    await manager.start('short');
    assert.equal(manager.status('short').state, 'ready');
    assert.equal(opened.length, 3, 'starting after sign-out signs in again');
  } finally {
    await manager.dispose();
    await protectedServer.close();
    await shortLived.close();
  }
});

test('no one to sign in, or the user declines: the start fails saying why and stores nothing', async () => {
  const store = new MemoryAuthStore();
  const noPort = await started({ store, signInHint: (name) => `run \`localharness mcp login ${name}\`` }, [server('docs', mcp.url)]);
  try {
    const status = noPort.manager.status('docs');
    assert.equal(status.state, 'failed');
    assert.match(status.message!, /MCP server "docs" failed to start: MCP server "docs" needs you to sign in: run `localharness mcp login docs`/);
  } finally {
    await noPort.manager.dispose();
  }
  const declining: SignInPort = async () => {
    throw new SignInDeclined('you chose not to sign in');
  };
  const declined = await started({ store, signIn: declining }, [server('docs', mcp.url)]);
  try {
    assert.equal(declined.manager.status('docs').state, 'failed');
    assert.match(declined.manager.status('docs').message!, /you chose not to sign in/);
    assert.equal(store.records.get(mcp.url)?.tokens, undefined, 'no tokens stored');
  } finally {
    await declined.manager.dispose();
  }
});

test('OAuth stays out of the way: a configured Authorization header, or "oauth": false, means no sign-in', async () => {
  const store = new MemoryAuthStore();
  let asked = 0;
  const port: SignInPort = async () => {
    asked++;
    throw new SignInDeclined('not expected');
  };
  const withHeader: McpServerConfig = { ...server('static', mcp.url), transport: { type: 'http', url: mcp.url, headers: { Authorization: 'Bearer not-a-real-token' } } };
  const off: McpServerConfig = { ...server('off', mcp.url), transport: { type: 'http', url: mcp.url, headers: {}, oauth: false } };
  const { manager } = await started({ store, signIn: port }, [withHeader, off]);
  try {
    for (const name of ['static', 'off']) {
      const status = manager.status(name);
      assert.equal(status.state, 'failed');
      assert.match(status.message!, /401/);
    }
    assert.equal(asked, 0);
  } finally {
    await manager.dispose();
  }
});

test('an authorization server without registration: a configured client signs in; without one the error says what to set', async () => {
  const closed = await TestAuthServer.start({ preRegistered: [{ client_id: 'harness-app', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' }] });
  const protectedServer = await ProtectedMcpServer.start(closed);
  const opened: string[] = [];
  try {
    const unconfigured = await started({ store: new MemoryAuthStore(), signIn: browserSignIn(opened) }, [server('closed', protectedServer.url)]);
    try {
      assert.equal(unconfigured.manager.status('closed').state, 'failed');
      assert.match(unconfigured.manager.status('closed').message!, /does not support dynamic client registration; give the server "oauth": \{"clientId": …\}/);
    } finally {
      await unconfigured.manager.dispose();
    }
    const store = new MemoryAuthStore();
    const configured: McpServerConfig = { ...server('closed', protectedServer.url), transport: { type: 'http', url: protectedServer.url, headers: {}, oauth: { grant: 'authorization_code', clientId: 'harness-app' } } };
    const { manager } = await started({ store, signIn: browserSignIn(opened) }, [configured]);
    try {
      assert.equal(manager.status('closed').state, 'ready', manager.status('closed').message);
      assert.equal(new URL(opened.at(-1)!).searchParams.get('client_id'), 'harness-app');
      assert.equal(closed.stats.registrations, 0);
      assert.equal(store.records.get(protectedServer.url)?.clientInformation, undefined, 'a configured client is not copied into the store');
    } finally {
      await manager.dispose();
    }
  } finally {
    await protectedServer.close();
    await closed.close();
  }
});
