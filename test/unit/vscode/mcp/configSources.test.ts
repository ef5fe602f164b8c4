import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectServers, describeSource } from '../../../../src/editor/mcp/configSources';

const FOLDER = '/work/project';

test('the user setting, the workspace setting and the workspace file each get their own source', () => {
  const result = collectServers({
    setting: {
      globalValue: { mine: { command: 'node', args: ['mine.js'] } },
      workspaceValue: { theirs: { type: 'http', url: 'http://127.0.0.1:3000/mcp' } },
    },
    files: [{ folder: FOLDER, path: `${FOLDER}/.vscode/mcp.json`, text: '{"servers": {"memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}' }],
    firstFolder: FOLDER,
  });
  assert.deepEqual(result.errors, []);
  assert.deepEqual(
    result.servers.map((s) => [s.name, s.source]),
    [
      ['mine', { kind: 'userSetting' }],
      ['theirs', { kind: 'workspaceSetting' }],
      ['memory', { kind: 'workspaceFile', path: `${FOLDER}/.vscode/mcp.json` }],
    ],
  );
});

test('${workspaceFolder} expands to the folder the file is in, ${env:NAME} from the given environment', () => {
  const result = collectServers({
    files: [
      { folder: '/a', path: '/a/.vscode/mcp.json', text: '{"servers": {"one": {"command": "${workspaceFolder}/bin/srv", "env": {"TOKEN": "${env:MY_TOKEN}"}}}}' },
      // Claude-style file with comments, in a second folder.
      { folder: '/b', path: '/b/.mcp.json', text: '// project servers\n{"mcpServers": {"two": {"command": "node", "args": ["${workspaceFolder}/s.js"]}}}' },
    ],
    firstFolder: '/a',
    env: { MY_TOKEN: 'abc' },
  });
  assert.deepEqual(result.errors, []);
  const [one, two] = result.servers;
  assert.equal(one?.transport.type === 'stdio' && one.transport.command, '/a/bin/srv');
  assert.deepEqual(one?.transport.type === 'stdio' && one.transport.env, { TOKEN: 'abc' });
  assert.deepEqual(two?.transport.type === 'stdio' && two.transport.args, ['/b/s.js']);
  assert.equal(two?.transport.type === 'stdio' && two.transport.cwd, '/b');
});

test('a broken file is reported with its path and the other sources still load', () => {
  const result = collectServers({
    setting: { globalValue: { ok: { command: 'node' } } },
    files: [
      { folder: FOLDER, path: `${FOLDER}/.vscode/mcp.json`, text: '{"servers": {' },
      { folder: FOLDER, path: `${FOLDER}/.mcp.json`, text: '{"tools": {}}' },
    ],
  });
  assert.deepEqual(result.servers.map((s) => s.name), ['ok']);
  assert.equal(result.errors.length, 2);
  assert.match(result.errors[0]!, /\/work\/project\/\.vscode\/mcp\.json is not valid JSON/);
  assert.match(result.errors[1]!, /\.mcp\.json has no "servers".*"mcpServers"/);
});

test('one invalid entry is skipped with a reason that names it; its neighbours load', () => {
  const result = collectServers({
    files: [{ folder: FOLDER, path: `${FOLDER}/.vscode/mcp.json`, text: '{"servers": {"bad": {"type": "stdio", "command": ""}, "good": {"command": "node"}}}' }],
  });
  assert.deepEqual(result.servers.map((s) => s.name), ['good']);
  assert.equal(result.errors.length, 1);
  assert.match(result.errors[0]!, /server "bad".*"command" must not be empty/);
});

test('a name defined twice keeps the user\u2019s definition; the workspace one is ignored with a warning', () => {
  const result = collectServers({
    setting: { globalValue: { memory: { command: '/usr/bin/safe-memory' } } },
    files: [{ folder: FOLDER, path: `${FOLDER}/.vscode/mcp.json`, text: '{"servers": {"memory": {"command": "/tmp/evil"}}}' }],
  });
  assert.equal(result.servers.length, 1);
  assert.deepEqual(result.servers[0]?.source, { kind: 'userSetting' });
  assert.equal(result.servers[0]?.transport.type === 'stdio' && result.servers[0].transport.command, '/usr/bin/safe-memory');
  assert.equal(result.warnings.length, 1);
  assert.match(result.warnings[0]!, /"memory" from \/work\/project\/\.vscode\/mcp\.json is ignored: setting localharness\.mcpServers already defines/);
});

test('a setting that is not an object is an error, an empty file a warning, an unset setting nothing', () => {
  const result = collectServers({
    setting: { globalValue: ['not', 'a', 'map'], workspaceValue: undefined },
    files: [{ folder: FOLDER, path: `${FOLDER}/.mcp.json`, text: '  \n' }],
  });
  assert.deepEqual(result.servers, []);
  assert.equal(result.errors.length, 1);
  assert.match(result.errors[0]!, /setting localharness\.mcpServers: "servers" must be an object/);
  assert.deepEqual(result.warnings, [`${FOLDER}/.mcp.json is empty; it defines no MCP servers`]);
  assert.deepEqual(collectServers({ files: [] }), { servers: [], errors: [], warnings: [] });
});

test('a workspace-folder value of the setting counts as workspace-defined', () => {
  const result = collectServers({ setting: { workspaceFolderValue: { x: { command: 'node' } } }, files: [] });
  assert.deepEqual(result.servers[0]?.source, { kind: 'workspaceSetting' });
  assert.match(describeSource({ kind: 'workspaceSetting' }), /workspace/);
  assert.match(describeSource({ kind: 'userSetting' }), /user settings/);
});
