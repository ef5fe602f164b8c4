// Signing in to an OAuth-protected MCP server from the CLI, against a real local authorization server: the
// address is printed and handed to $BROWSER (a stand-in that follows the redirects back to the CLI's
// 127.0.0.1 listener); the tokens land in a file only the user can read; later commands use them without a
// sign-in and never show them; `mcp logout` removes them; without a terminal or $BROWSER nobody is sent to a
// browser and the failure says how to sign in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, toolResults } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { TestAuthServer } from '../../helpers/mcpAuth/authServer';
import { browserCommand } from '../../helpers/mcpAuth/browserCommand';
import { ProtectedMcpServer } from '../../helpers/mcpAuth/protectedServer';
import { tempWorkspace } from '../../helpers/mcp/mcpCliHelpers';

let auth: TestAuthServer;
let docs: ProtectedMcpServer;
const llms: FakeServerHandle[] = [];
const { root, ws } = tempWorkspace('signin');
const config = path.join(root, 'mcp.json');
const configHome = path.join(root, 'config');
const tokenFile = path.join(configHome, 'localharness', 'mcp-auth.json');
const browserLog = path.join(root, 'browser.log');
const BROWSER = browserCommand();
/** No terminal here; $BROWSER is what lets the CLI send someone to sign in. */
const withBrowser = { XDG_CONFIG_HOME: configHome, BROWSER, TEST_BROWSER_LOG: browserLog };
const withoutBrowser = { XDG_CONFIG_HOME: configHome, BROWSER: '' };

before(async () => {
  auth = await TestAuthServer.start();
  docs = await ProtectedMcpServer.start(auth);
  writeFileSync(config, JSON.stringify({ servers: { docs: { type: 'http', url: docs.url } } }));
});

after(async () => {
  await Promise.all([docs.close(), auth.close(), ...llms.map((s) => s.close())]);
});

const opened = () => (existsSync(browserLog) ? readFileSync(browserLog, 'utf8').trim().split('\n').filter(Boolean) : []);

test('mcp list signs in through the browser once, keeps the tokens in a 0600 file, and lists the tools', async () => {
  const run = await runCli(['mcp', 'list', '--mcp-config', config, '--workspace', ws], { cwd: ws, env: withBrowser });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^docs: ready \(protected-test-server 1\.0\.0\)/m);
  assert.match(run.stdout, /add {2}\[read\]/);
  assert.match(run.stderr, new RegExp(`MCP server "docs" needs you to sign in at ${auth.url.replace(/[.]/g, '\\.')}\\.`));
  const printed = /\n {2}(http:\/\/\S+)\n/.exec(run.stderr)?.[1];
  assert.ok(printed, `the address is printed: ${run.stderr}`);
  assert.deepEqual(opened(), [printed], 'the same address went to $BROWSER, once');
  assert.equal(new URL(printed).searchParams.get('code_challenge_method'), 'S256');

  assert.equal(statSync(tokenFile).mode & 0o777, 0o600, 'only the user can read the token file');
  assert.equal(statSync(path.dirname(tokenFile)).mode & 0o777, 0o700);
  const stored = JSON.parse(readFileSync(tokenFile, 'utf8')) as { servers: Record<string, { serverUrl: string; tokens: { access_token: string } }> };
  assert.deepEqual(Object.keys(stored.servers), [docs.url], 'one record, keyed by the server URL');
  const token = stored.servers[docs.url]!.tokens.access_token;
  assert.ok(docs.seen.tokens.has(token));
  assert.ok(!run.stdout.includes(token) && !run.stderr.includes(token), 'the token is never printed');
});

test('run uses the stored tokens without a sign-in; the model never sees them', async () => {
  const authorizations = auth.stats.authorizations;
  const wire = WIRE_FORMATS.find((w) => w.name === 'openai')!;
  const llm = await wire.start(
    [{ toolCalls: [{ name: 'docs__add', arguments: { a: 40, b: 2 } }] }, { toolCalls: [{ name: 'task_completion', arguments: { result: 'The server says 42.' } }] }],
    'signin-run',
  );
  llms.push(llm);
  const run = await runCli(['run', ...wire.flags(llm), '--workspace', ws, '--mcp-config', config, '--json', 'Add 40 and 2 with the docs server.'], { cwd: ws, env: withBrowser });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(toolResults(llm.requests[1]!).at(-1), 'sum: 42');
  assert.equal(auth.stats.authorizations, authorizations, 'no new sign-in');
  assert.equal(opened().length, 1, 'the browser was not opened again');
  const token = (JSON.parse(readFileSync(tokenFile, 'utf8')) as { servers: Record<string, { tokens: { access_token: string; refresh_token: string } }> }).servers[docs.url]!.tokens;
  const everything = JSON.stringify(llm.requests) + run.stdout + run.stderr;
  assert.ok(!everything.includes(token.access_token) && !everything.includes(token.refresh_token), 'no token in the model\u2019s requests or the output');
});

test('mcp logout removes the tokens; then, with no terminal and no $BROWSER, list fails saying how to sign in', async () => {
  const out = await runCli(['mcp', 'logout', '--mcp-config', config, 'docs'], { cwd: ws, env: withBrowser });
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, new RegExp(`Signed out of MCP server "docs" \\(${docs.url.replace(/[.]/g, '\\.')}\\): its tokens and client registration were removed from ${tokenFile.replace(/[.]/g, '\\.')}\\.`));
  assert.deepEqual(JSON.parse(readFileSync(tokenFile, 'utf8')).servers, {});
  const again = await runCli(['mcp', 'logout', '--mcp-config', config, 'docs'], { cwd: ws, env: withBrowser });
  assert.match(again.stdout, /was not signed in; nothing to remove/);

  const started = Date.now();
  const list = await runCli(['mcp', 'list', '--mcp-config', config], { cwd: ws, env: withoutBrowser });
  assert.equal(list.code, 1);
  assert.match(list.stdout, /^docs: failed — MCP server "docs" failed to start: MCP server "docs" needs you to sign in: run `localharness mcp login --mcp-config .*mcp\.json docs` on a terminal\./m);
  assert.ok(Date.now() - started < 10_000, 'nobody waited for a browser');
  assert.equal(opened().length, 1, 'no browser was opened');
});

test('mcp login signs in (with $BROWSER, without a terminal) and says where the tokens are', async () => {
  const login = await runCli(['mcp', 'login', '--mcp-config', config, 'docs'], { cwd: ws, env: withBrowser });
  assert.equal(login.code, 0, login.stderr);
  assert.match(login.stdout, new RegExp(`Signed in to MCP server "docs" \\(${docs.url.replace(/[.]/g, '\\.')}\\); it offers 2 tools\\. The tokens are in ${tokenFile.replace(/[.]/g, '\\.')} \\(only you can read it\\)\\.`));
  assert.equal(opened().length, 2);
  const stdioConfig = path.join(root, 'stdio.json');
  writeFileSync(stdioConfig, JSON.stringify({ servers: { local: { command: 'node', args: ['-e', ''] } } }));
  const refused = await runCli(['mcp', 'login', '--mcp-config', stdioConfig, 'local'], { cwd: ws, env: withBrowser });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /MCP server "local" runs a command, not an HTTP server: there is nothing to sign in to/);
});
