// search_files over a real temp tree: regex and literal fallback, glob filter, .gitignore (nested, negated), caps.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { TempWorkspace, ToolHarness } from '../../helpers/tools/toolHarness';

let ws: TempWorkspace;
let h: ToolHarness;

before(async () => {
  ws = await TempWorkspace.create();
  await ws.write('.gitignore', 'dist/\n*.log\n!keep.log\n');
  await ws.write('src/app.ts', 'import x from "y";\nexport function needle() {\n  return 42;\n}\n');
  await ws.write('src/util/helpers.ts', 'export const needle = 1;\n');
  await ws.write('src/util/helpers.py', 'needle = 1\n');
  await ws.write('src/gen/.gitignore', 'generated.ts\n');
  await ws.write('src/gen/generated.ts', 'const needle = "generated";\n');
  await ws.write('src/gen/kept.ts', 'const needle = "kept";\n');
  await ws.write('dist/bundle.js', 'var needle=1;\n');
  await ws.write('debug.log', 'needle in a log\n');
  await ws.write('keep.log', 'needle kept log\n');
  await ws.write('node_modules/pkg/index.js', 'module.exports.needle = 1;\n');
  await ws.write('.git/config', '[core] needle\n');
  await ws.write('bin/data.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2, 3])]));
  await ws.write('README.md', 'Find the (needle here.\n');
  // A symlink to a folder outside must not be walked into.
  await ws.write('../outside/secret.ts', 'const needle = "outside";\n');
  await symlink(ws.outside, ws.abs('linked-out'));
  h = new ToolHarness(ws);
});
after(async () => {
  await ws.dispose();
});

describe('search_files', () => {
  it('finds regex matches as path:line: text, skipping ignored, vendored, binary and symlinked files', async () => {
    const r = await h.call('search_files', { pattern: 'needle\\b' });
    assert.equal(r.ok, true);
    const lines = r.content.split('\n').slice(1);
    assert.deepEqual(lines, [
      'README.md:1: Find the (needle here.',
      'keep.log:1: needle kept log',
      'src/app.ts:2: export function needle() {',
      'src/gen/kept.ts:1: const needle = "kept";',
      'src/util/helpers.py:1: needle = 1',
      'src/util/helpers.ts:1: export const needle = 1;',
    ]);
    assert.match(r.content, /^6 matches in 6 files for \/needle\\b\/ in the workspace:/);
  });

  it('filters by glob on the file name or the relative path', async () => {
    const byName = await h.call('search_files', { pattern: 'needle', glob: '*.ts' });
    assert.deepEqual(byName.content.split('\n').slice(1), [
      'src/app.ts:2: export function needle() {',
      'src/gen/kept.ts:1: const needle = "kept";',
      'src/util/helpers.ts:1: export const needle = 1;',
    ]);
    const byPath = await h.call('search_files', { pattern: 'needle', glob: 'src/util/**' });
    assert.deepEqual(byPath.content.split('\n').slice(1), ['src/util/helpers.py:1: needle = 1', 'src/util/helpers.ts:1: export const needle = 1;']);
    const braces = await h.call('search_files', { pattern: 'needle', path: 'src', glob: '*.{py,md}' });
    assert.deepEqual(braces.content.split('\n').slice(1), ['src/util/helpers.py:1: needle = 1']);
  });

  it('searches under a path, or a single file', async () => {
    const sub = await h.call('search_files', { pattern: 'needle', path: 'src/util' });
    assert.match(sub.content, /^2 matches in 2 files for \/needle\/ in src\/util:/);
    const file = await h.call('search_files', { pattern: 'return \\d+', path: 'src/app.ts' });
    assert.deepEqual(file.content.split('\n').slice(1), ['src/app.ts:3: return 42;']);
  });

  it('searches an ignored directory when asked for it by name', async () => {
    const r = await h.call('search_files', { pattern: 'needle', path: 'node_modules/pkg' });
    assert.deepEqual(r.content.split('\n').slice(1), ['node_modules/pkg/index.js:1: module.exports.needle = 1;']);
  });

  it('falls back to a literal search for an invalid regex and says so', async () => {
    const r = await h.call('search_files', { pattern: '(needle' });
    assert.equal(r.ok, true);
    assert.match(r.content, /^Note: "\(needle" is not a valid regular expression .*searched for it as literal text\./);
    assert.match(r.content, /README\.md:1: Find the \(needle here\./);
  });

  it('reports no matches plainly', async () => {
    const r = await h.call('search_files', { pattern: 'zebra' });
    assert.equal(r.ok, true);
    assert.match(r.content, /^No matches for \/zebra\/ in the workspace \(\d+ files searched\)\.$/);
  });

  it('caps results and says how many more there are', async () => {
    for (let i = 0; i < 3; i++) await ws.write(`cap/f${i}.txt`, 'hit\nhit\nhit\nhit\n');
    const capped = new ToolHarness(ws, { searchFiles: { maxResults: 5 } });
    const r = await capped.call('search_files', { pattern: 'hit', path: 'cap' });
    const lines = r.content.split('\n');
    assert.equal(lines[0], '12 matches in 3 files for /hit/ in cap:');
    assert.equal(lines.filter((l) => l.includes(': hit')).length, 5);
    assert.match(r.content, /7 more matches not shown/);
  });

  it('stops a walk that would examine too many entries and says so', async () => {
    const tiny = new ToolHarness(ws, { searchFiles: { maxEntries: 3 } });
    const r = await tiny.call('search_files', { pattern: 'needle' });
    assert.match(r.content, /Stopped after examining 3 entries/);
  });

  it('refuses a path outside the workspace or a missing path', async () => {
    const out = await h.call('search_files', { pattern: 'needle', path: '../outside' });
    assert.equal(out.ok, false);
    assert.match(out.content, /not allowed/);
    const link = await h.call('search_files', { pattern: 'needle', path: 'linked-out' });
    assert.equal(link.ok, false);
    assert.match(link.content, /outside the workspace through a symbolic link/);
    const missing = await h.call('search_files', { pattern: 'needle', path: 'nope' });
    assert.equal(missing.ok, false);
    assert.match(missing.content, /does not exist/);
  });
});
