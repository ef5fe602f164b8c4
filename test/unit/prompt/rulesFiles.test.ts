import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadWorkspaceRules } from '../../../src/core/prompt/rulesFiles';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

const fs = new NodeFileSystem();
const signal = () => new AbortController().signal;

async function tempDir(): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), 'lh-rules-')));
}

test('AGENTS.md and .localharness/rules/*.md are read in order; other files and symlinks are not', async () => {
  const root = await tempDir();
  const outside = await tempDir();
  try {
    await writeFile(path.join(root, 'AGENTS.md'), 'Use tabs.\n');
    await mkdir(path.join(root, '.localharness/rules'), { recursive: true });
    await writeFile(path.join(root, '.localharness/rules/b-tests.md'), 'Run npm test.');
    await writeFile(path.join(root, '.localharness/rules/a-style.md'), 'Prefer const.');
    await writeFile(path.join(root, '.localharness/rules/notes.txt'), 'not a rule');
    await writeFile(path.join(outside, 'secret.md'), 'SECRET');
    await symlink(path.join(outside, 'secret.md'), path.join(root, '.localharness/rules/c-link.md'));
    const rules = await loadWorkspaceRules(fs, [{ name: 'app', path: root }], signal());
    assert.deepEqual(rules.files, ['AGENTS.md', '.localharness/rules/a-style.md', '.localharness/rules/b-tests.md']);
    assert.equal(rules.text, '## AGENTS.md\nUse tabs.\n\n## .localharness/rules/a-style.md\nPrefer const.\n\n## .localharness/rules/b-tests.md\nRun npm test.');
    assert.equal(rules.truncated, false);
  } finally {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
});

test('rules are capped per file and in total, and the cut is marked', async () => {
  const root = await tempDir();
  try {
    await writeFile(path.join(root, 'AGENTS.md'), 'x'.repeat(500));
    await mkdir(path.join(root, '.localharness/rules'), { recursive: true });
    await writeFile(path.join(root, '.localharness/rules/more.md'), 'y'.repeat(500));
    const rules = await loadWorkspaceRules(fs, [{ name: 'app', path: root }], signal(), { maxChars: 600, maxFileChars: 400 });
    assert.equal(rules.truncated, true);
    assert.match(rules.text, /^## AGENTS\.md\nx{400}\n\[… rest of AGENTS\.md left out to save space\]/);
    assert.match(rules.text, /## \.localharness\/rules\/more\.md\ny{200}\n\[… rest of/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('multi-root workspaces label files by folder; no rules means empty text', async () => {
  const a = await tempDir();
  const b = await tempDir();
  try {
    await writeFile(path.join(b, 'AGENTS.md'), 'B rules');
    const rules = await loadWorkspaceRules(fs, [{ name: 'front', path: a }, { name: 'back', path: b }], signal());
    assert.deepEqual(rules.files, ['back/AGENTS.md']);
    assert.equal(rules.text, '## back/AGENTS.md\nB rules');
    const none = await loadWorkspaceRules(fs, [{ name: 'front', path: a }], signal());
    assert.deepEqual(none, { text: '', files: [], truncated: false });
  } finally {
    await rm(a, { recursive: true, force: true });
    await rm(b, { recursive: true, force: true });
  }
});

test('a cancelled load stops', async () => {
  const root = await tempDir();
  try {
    await writeFile(path.join(root, 'AGENTS.md'), 'x');
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(loadWorkspaceRules(fs, [{ name: 'app', path: root }], controller.signal), /cancelled/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
