import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_WORKSPACE_GLOB, enabledPatterns, excludedBy, globProblem } from '../../../src/editor/knowledge/workspaceGlob';

test('only patterns switched on count; conditional ones are left out', () => {
  const files = { '**/.git': true, '**/.DS_Store': true, '**/*.js': { when: '$(basename).ts' }, 'tmp/**': false };
  const search = { '**/node_modules': true, '**/.git': true, '  ': true };
  assert.deepEqual(enabledPatterns(files, search, undefined), ['**/.git', '**/.DS_Store', '**/node_modules']);
});

test('a path is excluded when it or a folder above it matches', () => {
  const excluded = excludedBy(['**/node_modules', '**/.git', 'dist/', 'build/**', '*.min.js']);
  assert.equal(excluded('node_modules/x/index.js'), true);
  assert.equal(excluded('packages/a/node_modules/y.ts'), true);
  assert.equal(excluded('.git/config'), true);
  assert.equal(excluded('dist/extension.js'), true, 'a trailing slash still names the folder');
  assert.equal(excluded('build/out/a.ts'), true);
  assert.equal(excluded('app.min.js'), true);
  assert.equal(excluded('src/app.ts'), false);
  assert.equal(excluded('src/node_modules_notes.md'), false);
  assert.equal(excludedBy([])('anything'), false);
});

test('the glob the user types is checked', () => {
  assert.equal(globProblem(DEFAULT_WORKSPACE_GLOB), undefined);
  assert.equal(globProblem('src/**/*.ts'), undefined);
  assert.match(globProblem('  ')!, /Type a glob pattern/);
  assert.match(globProblem('/etc/**')!, /relative to the workspace folder/);
  assert.match(globProblem('C:\\code\\*.ts')!, /relative to the workspace folder/);
});
