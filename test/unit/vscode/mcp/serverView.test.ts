import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpServerStatus } from '../../../../src/mcp/types';
import { notStartedStatus, serverRow, toolsSummary } from '../../../../src/editor/mcp/serverView';

function status(over: Partial<McpServerStatus>): McpServerStatus {
  return {
    name: 'memory',
    source: { kind: 'workspaceFile', path: '/w/.vscode/mcp.json' },
    state: 'stopped',
    commandLine: '/usr/bin/node /srv/memory.js',
    tools: [],
    skippedTools: [],
    toolTokens: 0,
    restartAttempts: 0,
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...over,
  };
}

const tools = (n: number, risk: 'read' | 'write' = 'write') =>
  Array.from({ length: n }, (_, i) => ({ registeredName: `memory__t${i}`, mcpName: `t${i}`, risk }));

test('each state reads as the view shows it, with the inline actions that fit', () => {
  const ready = serverRow(status({ state: 'ready', tools: tools(9), toolTokens: 1234 }));
  assert.equal(ready.description, 'ready with 9 tools');
  assert.equal(ready.icon, 'ready');
  assert.equal(ready.contextValue, 'mcpServer.running');
  assert.match(ready.tooltip, /about 1,234 tokens of every request/);
  assert.equal(ready.ariaLabel, 'memory: ready with 9 tools');
  assert.equal(serverRow(status({ state: 'ready', tools: tools(1) })).description, 'ready with 1 tool');

  const consent = serverRow(status({ state: 'starting', message: 'waiting for your consent' }));
  assert.equal(consent.description, 'awaiting your consent');
  assert.equal(serverRow(status({ state: 'starting' })).description, 'starting…');

  const blocked = serverRow(status({ state: 'blocked', message: 'Not started: you did not allow this workspace-defined server to run.' }));
  assert.equal(blocked.description, 'blocked: needs your consent');
  assert.equal(blocked.contextValue, 'mcpServer.idle');
  assert.match(blocked.tooltip, /you did not allow/);
  const untrusted = serverRow(status({ state: 'blocked', message: 'This workspace is not trusted, so servers defined by the workspace do not start.' }));
  assert.equal(untrusted.description, 'blocked: workspace not trusted');

  const failed = serverRow(status({ state: 'failed', message: 'MCP server "memory" crashed: exit 1.\nstderr: boom\nGave up after 3 restart attempts' }));
  assert.equal(failed.description, 'failed: MCP server "memory" crashed: exit 1.');
  assert.equal(failed.icon, 'failed');
  assert.match(failed.tooltip, /stderr: boom/, 'the whole last error is in the tooltip');

  assert.equal(serverRow(status({ state: 'restarting', restartAttempts: 2 })).description, 'restarting (attempt 2)…');
  assert.equal(serverRow(status({ state: 'stopped', message: 'stopped by the user' })).description, 'stopped by the user');
  assert.equal(serverRow(status({ state: 'stopped', message: 'configuration changed' })).description, 'stopped (configuration changed)');
  assert.equal(serverRow(status({ state: 'stopped' })).description, 'stopped');
  assert.match(serverRow(status({})).tooltip, /\/usr\/bin\/node \/srv\/memory\.js\nDefined in \/w\/\.vscode\/mcp\.json\./);
});

test('the tools summary counts ready servers\u2019 tools and tokens, and says what Restricted Mode offers', () => {
  assert.equal(toolsSummary([]), undefined);
  assert.equal(toolsSummary([status({ state: 'failed' })]), undefined);
  const memory = status({ state: 'ready', tools: [...tools(2, 'read'), ...tools(7)], toolTokens: 1234 });
  assert.equal(toolsSummary([memory]), 'MCP tools: 9 from "memory", about 1,234 tokens of every request.');
  const other = status({ name: 'files', state: 'ready', tools: tools(1, 'read'), toolTokens: 100 });
  assert.equal(
    toolsSummary([memory, other, status({ name: 'down', state: 'stopped' })], true),
    'MCP tools: 10 from 2 servers, about 1,334 tokens of every request. Restricted Mode: only the 3 read-only tools are offered.',
  );
});

test('when the tool pre-filter chose tools, the summary says what the last request offered and saved', () => {
  const memory = status({ state: 'ready', tools: tools(9), toolTokens: 1485 });
  assert.equal(
    toolsSummary([memory], false, { offered: Array.from({ length: 15 }, (_, i) => `t${i}`), total: 21, tokensAll: 2600, tokensOffered: 1977 }),
    'MCP tools: 9 from "memory"; 15 of 21 tools offered (−623 tokens).',
  );
});

test('a configured server nothing has started yet shows as stopped, with when it starts', () => {
  const s = notStartedStatus('memory', { kind: 'userSetting' }, 'node m.js');
  assert.equal(serverRow(s).description, 'stopped (starts when you open the chat)');
  assert.equal(serverRow(s).contextValue, 'mcpServer.idle');
});
