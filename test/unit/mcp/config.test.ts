import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMcpConfigFile, McpConfigError, parseMcpConfigText, parseMcpServers } from '../../../src/mcp/config';
import { approvalOverridesOf, commandLineOf, consentFingerprint, requiresConsent } from '../../../src/mcp/serverCommand';
import { consentDialogText } from '../../../src/editor/mcp/consent';
import type { McpServerSource } from '../../../src/mcp/types';

const wsFile: McpServerSource = { kind: 'workspaceFile', path: '/ws/.vscode/mcp.json' };
const vars = { workspaceFolder: '/ws', env: { TOKEN: 'abc', HOME_DIR: '/home/u' } };

test('reads the VS Code format with stdio and http servers and expands variables', () => {
  const text = `{
    // comments and trailing commas are allowed, as in VS Code
    "inputs": [],
    "servers": {
      "fs": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.js", "--token=\${env:TOKEN}", 3], "env": { "A": "\${env:TOKEN}", "N": 5, "GONE": null }, "cwd": "sub" },
      "web": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${env:TOKEN}" } },
    },
  }`;
  const result = parseMcpConfigText(text, wsFile, vars);
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.warnings, []);
  const [fs, web] = result.servers;
  assert.deepEqual(fs!.transport, { type: 'stdio', command: 'node', args: ['/ws/server.js', '--token=abc', '3'], env: { A: 'abc', N: '5' }, cwd: '/ws/sub' });
  assert.deepEqual(fs!.source, wsFile);
  assert.deepEqual(web!.transport, { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer abc' } });
});

test('reads the Claude format and infers the transport from command or url', () => {
  const text = JSON.stringify({ mcpServers: { a: { command: 'uvx', args: ['srv'] }, b: { url: 'http://localhost:9/mcp' }, c: { type: 'sse', url: 'http://localhost:9/sse' } } });
  const result = parseMcpConfigText(text, { kind: 'cliFile', path: '/x/mcp.json' }, vars);
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.servers.map((s) => s.transport.type), ['stdio', 'http', 'sse']);
  assert.equal(result.servers[0]!.transport.type === 'stdio' && result.servers[0]!.transport.cwd, '/ws', 'stdio servers run in the workspace folder by default');
});

test('a bad server entry is reported and the others still load', () => {
  const text = JSON.stringify({
    servers: {
      ok: { command: 'node' },
      empty: { command: '' },
      neither: { args: ['x'] },
      weird: { type: 'pipe', command: 'x' },
      badUrl: { type: 'http', url: 'not a url' },
      ftp: { url: 'ftp://example.com' },
      input: { command: 'node', args: ['${input:apiKey}'] },
      badRisk: { command: 'node', risk: 'dangerous' },
    },
  });
  const result = parseMcpConfigText(text, wsFile, vars);
  assert.deepEqual(result.servers.map((s) => s.name), ['ok']);
  const errors = result.errors.join('\n');
  assert.match(errors, /server "empty" is invalid: "command" must not be empty/);
  assert.match(errors, /server "neither" needs either "command" \(a stdio server\) or "url" \(an HTTP server\)/);
  assert.match(errors, /server "weird" has "type": "pipe"; use "stdio", "http" or "sse"/);
  assert.match(errors, /server "badUrl" has an invalid "url"/);
  assert.match(errors, /server "ftp" has a "url" that is not http\(s\)/);
  assert.match(errors, /server "input" uses \$\{input:apiKey\}, which is not supported/);
  assert.match(errors, /server "badRisk" is invalid: "risk"/);
});

test('an unset environment variable expands to "" with a warning; ${workspaceFolder} without a workspace is an error', () => {
  const result = parseMcpServers({ a: { command: 'node', env: { K: '${env:MISSING}' } }, b: { command: '${workspaceFolder}/run' } }, { kind: 'userSetting' }, { env: {} });
  assert.deepEqual(result.servers.map((s) => s.name), ['a']);
  assert.equal(result.servers[0]!.transport.type === 'stdio' && result.servers[0]!.transport.env.K, '');
  assert.match(result.warnings[0]!, /MISSING is not set/);
  assert.match(result.errors[0]!, /server "b" uses \$\{workspaceFolder\}, but no workspace folder is open/);
});

test('risk, per-tool overrides and timeouts are kept', () => {
  const result = parseMcpServers(
    { s: { command: 'node', risk: 'read', tools: { wipe: { risk: 'execute' }, noisy: { disabled: true } }, toolTimeoutMs: 5000, startTimeoutMs: 1000 } },
    { kind: 'userSetting' },
  );
  const s = result.servers[0]!;
  assert.equal(s.risk, 'read');
  assert.deepEqual(s.tools, { wipe: { risk: 'execute' }, noisy: { disabled: true } });
  assert.equal(s.toolTimeoutMs, 5000);
  assert.equal(s.startTimeoutMs, 1000);
});

test('a file that is not usable at all throws with its path and the location of the problem', () => {
  assert.throws(() => parseMcpConfigText('{\n "servers": {\n  "a": { "command": "x" }\n  "b": {}\n }\n}', wsFile), (err: Error) => {
    assert.ok(err instanceof McpConfigError);
    assert.match(err.message, /\/ws\/\.vscode\/mcp\.json is not valid JSON: .*line 4, column 3/);
    return true;
  });
  assert.throws(() => parseMcpConfigText('[]', wsFile), /must contain a JSON object/);
  assert.throws(() => parseMcpConfigText('{"tools": {}}', wsFile), /has no "servers" \(VS Code format\) or "mcpServers" \(Claude format\) object; found keys: tools/);
});

test('loadMcpConfigFile reads a file as a CLI source and reports a missing file clearly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lh-mcp-config-'));
  try {
    const file = join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { s: { command: 'node', args: ['${workspaceFolder}/x.js'] } } }));
    const result = await loadMcpConfigFile(file, { env: {} });
    assert.deepEqual(result.servers[0]!.source, { kind: 'cliFile', path: file });
    assert.deepEqual(result.servers[0]!.transport.type === 'stdio' && result.servers[0]!.transport.args, [`${dir}/x.js`], 'without a workspace, the file folder stands in');
    const withWs = await loadMcpConfigFile(file, { workspaceFolder: '/proj', env: {} });
    assert.deepEqual(withWs.servers[0]!.transport.type === 'stdio' && withWs.servers[0]!.transport.args, ['/proj/x.js']);
    await assert.rejects(loadMcpConfigFile(join(dir, 'nope.json')), /MCP config file .*nope\.json does not exist/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the same server name in "servers" and "mcpServers" keeps the first and says so', () => {
  const result = parseMcpConfigText(JSON.stringify({ servers: { a: { command: 'one' } }, mcpServers: { a: { command: 'two' } } }), wsFile, vars);
  assert.equal(result.servers.length, 1);
  assert.equal(result.servers[0]!.transport.type === 'stdio' && result.servers[0]!.transport.command, 'one');
  assert.match(result.errors[0]!, /defined twice/);
});

test('consent: only workspace-defined servers need it; the command line shows env, args and cwd; the fingerprint follows the definition', () => {
  assert.equal(requiresConsent({ kind: 'workspaceFile', path: '/a' }), true);
  assert.equal(requiresConsent({ kind: 'workspaceSetting' }), true);
  assert.equal(requiresConsent({ kind: 'userSetting' }), false);
  assert.equal(requiresConsent({ kind: 'cliFile', path: '/a' }), false);
  const [server] = parseMcpServers({ s: { command: 'node', args: ['srv.js', 'two words', "it's"], env: { NODE_OPTIONS: '--require evil.js' }, cwd: '/ws' } }, wsFile).servers;
  assert.equal(commandLineOf(server!), `NODE_OPTIONS='--require evil.js' node srv.js 'two words' 'it'\\''s'  (in /ws)`);
  const [changed] = parseMcpServers({ s: { command: 'node', args: ['srv.js', 'two words', "it's"], env: { NODE_OPTIONS: '' }, cwd: '/ws' } }, wsFile).servers;
  const [same] = parseMcpServers({ s: { cwd: '/ws', env: { NODE_OPTIONS: '--require evil.js' }, args: ['srv.js', 'two words', "it's"], command: 'node' } }, wsFile).servers;
  assert.notEqual(consentFingerprint(server!), consentFingerprint(changed!));
  assert.equal(consentFingerprint(server!), consentFingerprint(same!));
  const [web] = parseMcpServers({ w: { url: 'https://x.test/mcp', headers: { Authorization: 'secret' } } }, wsFile).servers;
  assert.equal(commandLineOf(web!), 'HTTP https://x.test/mcp (headers: Authorization)');
});

test('consent: a changed risk override needs consent again; a definition without one keeps its fingerprint', () => {
  const [plain] = parseMcpServers({ s: { command: 'node', args: ['srv.js'] } }, wsFile).servers;
  const [readOnly] = parseMcpServers({ s: { command: 'node', args: ['srv.js'], risk: 'read' } }, wsFile).servers;
  const [toolRead] = parseMcpServers({ s: { command: 'node', args: ['srv.js'], tools: { wipe: { risk: 'read' } } } }, wsFile).servers;
  const fingerprints = new Set([plain, readOnly, toolRead].map((s) => consentFingerprint(s!)));
  assert.equal(fingerprints.size, 3);
  assert.equal(approvalOverridesOf(plain!), undefined);
  assert.equal(approvalOverridesOf(toolRead!), 'wipe: counts as read');
  assert.match(consentDialogText(readOnly!, commandLineOf(readOnly!)).detail, /every tool counts as read/);
});
