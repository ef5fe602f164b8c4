// The write guard through the real tools: a lazy rewrite or an edit holding "// ... rest of the code ..." leaves
// the file byte for byte as it was and tells the model what to do instead; a gutting rewrite goes through only
// when the model sends it again; ordinary writes and edits are untouched by the guard.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { TempWorkspace, ToolHarness } from '../../helpers/tools/toolHarness';

let ws: TempWorkspace;
let h: ToolHarness;
before(async () => {
  ws = await TempWorkspace.create();
});
after(async () => {
  await ws.dispose();
});
beforeEach(() => {
  h = new ToolHarness(ws);
});

/** A 60-line app.js of 12 small functions. */
function appJs(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 12; i++) lines.push(`function step${i}(x) {`, `  const y = x + ${i};`, `  console.log('step ${i}', y);`, '  return y;', '}');
  return lines.join('\n') + '\n';
}

describe('write guard', () => {
  it('a lazy whole-file rewrite with a placeholder is refused and app.js is unchanged', async () => {
    const original = appJs();
    await ws.write('g/app.js', original);
    const lazy = `'use strict';\n${original.split('\n').slice(0, 15).join('\n')}\n// ... rest of the code unchanged ...\n`;
    const r = await h.call('write_file', { path: 'g/app.js', content: lazy });
    assert.equal(r.ok, false);
    assert.match(r.content, /Not applied: line 17 of content is "\/\/ \.\.\. rest of the code unchanged \.\.\.", a placeholder/);
    assert.match(r.content, /use edit_file/);
    assert.match(r.content, /g\/app\.js was not changed/);
    assert.equal(await ws.read('g/app.js'), original);
    // The same lazy call again is refused again: a placeholder never gets through.
    const again = await h.call('write_file', { path: 'g/app.js', content: lazy });
    assert.equal(again.ok, false);
    assert.equal(await ws.read('g/app.js'), original);
  });

  it('a placeholder inside an edit is refused; the same edit written out in full is applied', async () => {
    const original = appJs();
    await ws.write('g/edit.js', original);
    const lazy = await h.call('edit_file', {
      path: 'g/edit.js',
      old_text: 'function step1(x) {\n  const y = x + 1;',
      new_text: '// Entry point\nfunction step1(x) {\n  // ... existing code ...',
    });
    assert.equal(lazy.ok, false);
    assert.match(lazy.content, /line 3 of new_text is "\/\/ \.\.\. existing code \.\.\.", a placeholder/);
    assert.equal(await readFile(ws.abs('g/edit.js'), 'utf8'), original);
    const full = await h.call('edit_file', {
      path: 'g/edit.js',
      old_text: 'function step1(x) {\n  const y = x + 1;',
      new_text: '// Entry point\nfunction step1(x) {\n  const y = x + 1;',
    });
    assert.equal(full.ok, true, full.content);
    assert.equal(await ws.read('g/edit.js'), `// Entry point\n${original}`);
  });

  it('an edit that keeps a "// ..." comment the file already has is applied', async () => {
    await ws.write('g/keep.js', 'function f() {\n  // ...\n  return 1;\n}\n');
    const r = await h.call('edit_file', { path: 'g/keep.js', old_text: '  // ...\n  return 1;', new_text: '  // ...\n  return 2;' });
    assert.equal(r.ok, true, r.content);
    assert.equal(await ws.read('g/keep.js'), 'function f() {\n  // ...\n  return 2;\n}\n');
  });

  it('a rewrite that drops most of a file is refused once, then applied when the model sends it again', async () => {
    const original = appJs();
    await ws.write('g/shrink.js', original);
    const fragment = 'function step1(x) {\n  return x + 1;\n}\n';
    const first = await h.call('write_file', { path: 'g/shrink.js', content: fragment });
    assert.equal(first.ok, false);
    assert.match(first.content, /g\/shrink\.js has 60 lines of code and this content has 3, so write_file would delete most of the file/);
    assert.match(first.content, /call write_file again with exactly the same content/);
    assert.equal(await ws.read('g/shrink.js'), original);
    const other = await h.call('write_file', { path: 'g/shrink.js', content: fragment + '// v2\n' });
    assert.equal(other.ok, false, 'a different fragment is a new question');
    const second = await h.call('write_file', { path: 'g/shrink.js', content: fragment });
    assert.equal(second.ok, true, second.content);
    assert.equal(await ws.read('g/shrink.js'), fragment);
  });

  it('ordinary rewrites, new files and small files are not held up', async () => {
    const original = appJs();
    await ws.write('g/full.js', original);
    const rewritten = original.replace(/console\.log/g, 'console.info');
    assert.equal((await h.call('write_file', { path: 'g/full.js', content: rewritten })).ok, true);
    assert.equal(await ws.read('g/full.js'), rewritten);
    const spread = 'export const merge = (...parts) => Object.assign({}, ...parts);\n';
    assert.equal((await h.call('write_file', { path: 'g/new.js', content: spread })).ok, true);
    await ws.write('g/small.js', 'a();\nb();\nc();\n');
    assert.equal((await h.call('write_file', { path: 'g/small.js', content: 'a();\n' })).ok, true);
  });
});
