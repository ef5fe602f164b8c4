import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { rootsOf } from '../../../../src/editor/mcp/mcpRoots';

const app = { uri: pathToFileURL('/home/ada/app').href, name: 'app' };
const lib = { uri: pathToFileURL('/home/ada/my lib').href, name: 'my lib' };

test('a trusted workspace announces each local folder as a file:// root, in order, with its name', () => {
  assert.deepEqual(rootsOf([app, lib], true), [
    { uri: 'file:///home/ada/app', name: 'app' },
    { uri: 'file:///home/ada/my%20lib', name: 'my lib' },
  ]);
});

test('an untrusted workspace announces no roots', () => {
  assert.deepEqual(rootsOf([app, lib], false), []);
});

test('no folder open: no roots; folders that are not on this machine are left out', () => {
  assert.deepEqual(rootsOf([], true), []);
  assert.deepEqual(rootsOf([{ uri: 'vscode-vfs://github/ada/app', name: 'remote' }, app], true), [{ uri: 'file:///home/ada/app', name: 'app' }]);
});
