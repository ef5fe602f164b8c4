// Which paths of a real workspace folder the sandbox keeps read-only, and which missing ones it holds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, symlink, rm, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { protectedPaths, literalOf } from '../../../src/core/sandbox/protectedPaths';
import { SensitivePaths } from '../../../src/core/workspace/sensitivePaths';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

let ws: string;
const fs = new NodeFileSystem();

before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'lh-protected-')));
  await mkdir(path.join(ws, '.git/hooks'), { recursive: true });
  await mkdir(path.join(ws, '.github/ISSUE_TEMPLATE'), { recursive: true });
  await mkdir(path.join(ws, '.circleci'));
  await writeFile(path.join(ws, 'package.json'), '{}');
  await writeFile(path.join(ws, 'team.code-workspace'), '{}');
  await writeFile(path.join(ws, '.env.local'), 'A=1');
  await symlink(path.join(ws, 'nowhere'), path.join(ws, 'CLAUDE.md'));
});
after(async () => {
  await rm(ws, { recursive: true, force: true });
});

const byPath = (list: Awaited<ReturnType<typeof protectedPaths>>) => new Map(list.map((p) => [path.relative(ws, p.path), p]));

test('existing sensitive paths stay read-only; missing ones that act when merely created are held (a folder or a file)', async () => {
  const found = byPath(await protectedPaths({ folders: [ws], fs, sensitive: new SensitivePaths() }));
  assert.deepEqual(found.get('.git'), { path: path.join(ws, '.git'), exists: true, kind: 'directory' });
  assert.deepEqual(found.get('.vscode'), { path: path.join(ws, '.vscode'), exists: false, kind: 'directory' });
  assert.deepEqual(found.get('AGENTS.md'), { path: path.join(ws, 'AGENTS.md'), exists: false, kind: 'file' });
  assert.deepEqual(found.get('.npmrc'), { path: path.join(ws, '.npmrc'), exists: false, kind: 'file' });
  // Missing CI files and the like act only once someone pushes: not held (the approval gate still asks for visible writes).
  for (const notHeld of ['.github/workflows', '.gitlab-ci.yml', '.devcontainer', '.bashrc']) assert.ok(!found.has(notHeld), notHeld);
  // …and what a command makes of them is removed after it (createdProtected.test.ts). MCP servers start on their own: held.
  assert.deepEqual(found.get('.mcp.json'), { path: path.join(ws, '.mcp.json'), exists: false, kind: 'file' });
  assert.deepEqual(found.get('team.code-workspace'), { path: path.join(ws, 'team.code-workspace'), exists: true, kind: 'file' });
  assert.deepEqual(found.get('.circleci'), { path: path.join(ws, '.circleci'), exists: true, kind: 'directory' });
  // .git covers .git/hooks and .git/config; .github itself and package.json (only its scripts are sensitive) stay writable.
  for (const open of ['.git/hooks', '.git/config', '.github', 'package.json', '.env.local', 'CLAUDE.md']) assert.ok(!found.has(open), open);
});

test('nested repositories: their .git stays read-only a few levels down, not inside node_modules or deeper', async () => {
  await mkdir(path.join(ws, 'packages/lib/.git/hooks'), { recursive: true });
  await mkdir(path.join(ws, 'vendor-src/sub'), { recursive: true });
  await writeFile(path.join(ws, 'vendor-src/sub/.git'), 'gitdir: ../../.git/modules/sub\n');
  await mkdir(path.join(ws, 'node_modules/dep/.git'), { recursive: true });
  await mkdir(path.join(ws, 'a/b/c/d/.git'), { recursive: true });
  const found = byPath(await protectedPaths({ folders: [ws], fs, sensitive: new SensitivePaths() }));
  assert.deepEqual(found.get('packages/lib/.git'), { path: path.join(ws, 'packages/lib/.git'), exists: true, kind: 'directory' });
  assert.deepEqual(found.get('vendor-src/sub/.git'), { path: path.join(ws, 'vendor-src/sub/.git'), exists: true, kind: 'file' });
  assert.ok(!found.has('node_modules/dep/.git'));
  assert.ok(!found.has('a/b/c/d/.git'));
  await rm(path.join(ws, 'packages'), { recursive: true });
  await rm(path.join(ws, 'vendor-src'), { recursive: true });
  await rm(path.join(ws, 'node_modules'), { recursive: true });
  await rm(path.join(ws, 'a'), { recursive: true });
});

test('files the host protects (its MCP configuration): read-only in a writable folder, held while missing, ignored outside', async () => {
  const inside = path.join(ws, 'config/mcp.json');
  await mkdir(path.join(ws, 'config'));
  await writeFile(inside, '{}');
  const missing = path.join(ws, 'config/other.json');
  const noFolder = path.join(ws, 'nowhere/mcp.json');
  const outside = path.join(path.dirname(ws), 'elsewhere.json');
  const found = byPath(await protectedPaths({ folders: [ws], fs, sensitive: new SensitivePaths(), files: [inside, missing, noFolder, outside] }));
  assert.deepEqual(found.get('config/mcp.json'), { path: inside, exists: true, kind: 'file' });
  assert.deepEqual(found.get('config/other.json'), { path: missing, exists: false, kind: 'file' });
  assert.ok(!found.has('nowhere/mcp.json'), 'a stand-in would make its folder, which would stay');
  assert.ok(![...found.values()].some((p) => p.path === outside));
  await rm(path.join(ws, 'config'), { recursive: true });
});

test("the user's extra patterns: literal paths and names at the top of the folder", async () => {
  const found = byPath(await protectedPaths({ folders: [ws], fs, sensitive: new SensitivePaths(['deploy/**', '**/.env*']), extraPatterns: ['deploy/**', '**/.env*'] }));
  assert.deepEqual(found.get('deploy'), { path: path.join(ws, 'deploy'), exists: false, kind: 'directory' });
  assert.equal(found.get('.env.local')?.exists, true);
});

test('a sensitive write the dialog allowed opens the protected path that holds it, only that one', async () => {
  const found = byPath(await protectedPaths({ folders: [ws], fs, sensitive: new SensitivePaths(), granted: [path.join(ws, '.vscode/tasks.json')] }));
  assert.ok(!found.has('.vscode'));
  assert.ok(found.has('.git'));
});

test('literal paths of patterns', () => {
  assert.deepEqual(literalOf('/.vscode/**'), { segments: ['.vscode'], folder: true });
  assert.deepEqual(literalOf('.github/workflows/**'), { segments: ['.github', 'workflows'], folder: true });
  assert.deepEqual(literalOf('AGENTS.md'), { segments: ['AGENTS.md'], folder: false });
  assert.equal(literalOf('*.code-workspace'), undefined);
  assert.equal(literalOf('../x'), undefined);
});
