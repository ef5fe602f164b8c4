// Edits keep every byte they do not change: Latin-1/Windows-1252, UTF-8 with a BOM, UTF-16 and CRLF files are
// edited in their own encoding and line ending, through the real tools and NodeFileSystem; what cannot be
// written back exactly is refused and the file stays as it was.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { TempWorkspace, ToolHarness } from '../../helpers/tools/toolHarness';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { createEditFileTool } from '../../../src/core/tools/builtin/editFile';

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

const bytesOf = (rel: string) => readFile(ws.abs(rel));
const latin1 = (s: string) => Buffer.from(s, 'latin1');

function utf16(text: string, littleEndian: boolean): Buffer {
  const le = Buffer.from('\ufeff' + text, 'utf16le');
  return littleEndian ? le : Buffer.from(le).swap16();
}

describe('Latin-1 / Windows-1252 files', () => {
  const original = latin1('/* J\xfcrgen M\xfcller, \xa9 2024 */\n#include <stdio.h>\n\nint main(void) {\n  /* TODO */\n  return 0;\n}\n');

  it('read_file shows the decoded text', async () => {
    await ws.write('c/main.c', original);
    const r = await h.call('read_file', { path: 'c/main.c' });
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /J\u00fcrgen M\u00fcller, \u00a9 2024/);
    assert.doesNotMatch(r.content, /\ufffd/);
  });

  it('edit_file replaces TODO and keeps every other byte', async () => {
    await ws.write('c/main.c', original);
    const r = await h.call('edit_file', { path: 'c/main.c', old_text: '/* TODO */', new_text: 'puts("Gr\u00fc\u00dfe");' });
    assert.equal(r.ok, true, r.content);
    const expected = Buffer.from(original.toString('latin1').replace('/* TODO */', 'puts("Gr\xfc\xdfe");'), 'latin1');
    assert.deepEqual(await bytesOf('c/main.c'), expected);
  });

  it('an edit whose lines mention the file author by name finds the non-ASCII text', async () => {
    await ws.write('c/author.c', original);
    const r = await h.call('edit_file', { path: 'c/author.c', old_text: 'J\u00fcrgen M\u00fcller', new_text: 'J\u00fcrgen M\u00fcller-L\u00fcdenscheid' });
    assert.equal(r.ok, true, r.content);
    assert.deepEqual((await bytesOf('c/author.c')).subarray(0, 40), latin1('/* J\xfcrgen M\xfcller-L\xfcdenscheid, \xa9 2024 */\n').subarray(0, 40));
  });

  it('a character Windows-1252 cannot hold is refused with the character and line, and nothing is written', async () => {
    await ws.write('c/arrow.c', original);
    const r = await h.call('edit_file', { path: 'c/arrow.c', old_text: '/* TODO */', new_text: '/* a \u2192 b */' });
    assert.equal(r.ok, false);
    assert.match(r.content, /Windows-1252 \(Latin-1\), which cannot hold "\u2192" \(U\+2192\) on line 5/);
    assert.match(r.content, /c\/arrow\.c was not changed/);
    assert.deepEqual(await bytesOf('c/arrow.c'), original);
  });

  it('Windows-1252 punctuation (euro sign, curly quotes) round-trips', async () => {
    const cp1252 = Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94, 0x0a, 0x61, 0x0a]); // € “q” \n a \n
    await ws.write('c/quotes.txt', cp1252);
    const r = await h.call('edit_file', { path: 'c/quotes.txt', old_text: 'a', new_text: 'b \u20ac' });
    assert.equal(r.ok, true, r.content);
    assert.deepEqual(await bytesOf('c/quotes.txt'), Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94, 0x0a, 0x62, 0x20, 0x80, 0x0a]));
  });

  it('write_file over a Latin-1 file writes Latin-1', async () => {
    await ws.write('c/notes.txt', latin1('Gr\xfc\xdfe\nzwei\n'));
    const r = await h.call('write_file', { path: 'c/notes.txt', content: 'Gr\u00fc\u00dfe\nzwei\ndrei\n' });
    assert.equal(r.ok, true, r.content);
    assert.deepEqual(await bytesOf('c/notes.txt'), latin1('Gr\xfc\xdfe\nzwei\ndrei\n'));
  });
});

describe('line endings', () => {
  it('a multi-line edit in a CRLF file inserts CRLF lines, even when old_text is one line', async () => {
    await ws.write('crlf/a.ts', 'one\r\ntwo\r\nthree\r\n');
    const r = await h.call('edit_file', { path: 'crlf/a.ts', old_text: 'two', new_text: 'two\nand a half\nnearly three' });
    assert.equal(r.ok, true, r.content);
    assert.equal((await bytesOf('crlf/a.ts')).toString('utf8'), 'one\r\ntwo\r\nand a half\r\nnearly three\r\nthree\r\n');
  });

  it('a multi-line old_text written with LF matches a CRLF file', async () => {
    await ws.write('crlf/b.ts', 'a\r\nb\r\nc\r\n');
    const r = await h.call('edit_file', { path: 'crlf/b.ts', old_text: 'a\nb', new_text: 'A\nB' });
    assert.equal(r.ok, true, r.content);
    assert.equal((await bytesOf('crlf/b.ts')).toString('utf8'), 'A\r\nB\r\nc\r\n');
  });

  it('a mixed file gets its dominant ending for new lines and keeps the other lines as they were', async () => {
    await ws.write('crlf/mixed.txt', 'a\r\nb\r\nc\nd\r\n');
    const r = await h.call('edit_file', { path: 'crlf/mixed.txt', old_text: 'd', new_text: 'd\ne' });
    assert.equal(r.ok, true, r.content);
    assert.equal((await bytesOf('crlf/mixed.txt')).toString('utf8'), 'a\r\nb\r\nc\nd\r\ne\r\n');
  });

  it('an LF file stays LF when the model sends CRLF', async () => {
    await ws.write('crlf/lf.txt', 'x\ny\n');
    const r = await h.call('edit_file', { path: 'crlf/lf.txt', old_text: 'y', new_text: 'y\r\nz' });
    assert.equal(r.ok, true, r.content);
    assert.equal((await bytesOf('crlf/lf.txt')).toString('utf8'), 'x\ny\nz\n');
  });

  it('write_file over a CRLF file writes CRLF', async () => {
    await ws.write('crlf/w.txt', 'x\r\ny\r\n');
    const r = await h.call('write_file', { path: 'crlf/w.txt', content: 'x\ny\nz\n' });
    assert.equal(r.ok, true, r.content);
    assert.equal((await bytesOf('crlf/w.txt')).toString('utf8'), 'x\r\ny\r\nz\r\n');
  });
});

describe('Unicode files', () => {
  it('UTF-8 with a BOM keeps its BOM', async () => {
    await ws.write('u/bom.cs', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('class A {}\n// \u00e9t\u00e9\n')]));
    const read = await h.call('read_file', { path: 'u/bom.cs' });
    assert.match(read.content, /u\/bom\.cs \(2 lines\):\nclass A \{\}/, 'no BOM shown to the model');
    const r = await h.call('edit_file', { path: 'u/bom.cs', old_text: 'class A {}', new_text: 'class B {}' });
    assert.equal(r.ok, true, r.content);
    assert.deepEqual(await bytesOf('u/bom.cs'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('class B {}\n// \u00e9t\u00e9\n')]));
  });

  for (const littleEndian of [true, false]) {
    const name = littleEndian ? 'LE' : 'BE';
    it(`UTF-16 ${name} with a BOM is read as text and edited in UTF-16 ${name}`, async () => {
      const rel = `u/utf16${name}.txt`;
      await ws.write(rel, utf16('Hello w\u00f6rld \ud83d\ude80\r\nsecond line\r\n', littleEndian));
      const read = await h.call('read_file', { path: rel });
      assert.equal(read.ok, true, read.content);
      assert.match(read.content, /Hello w\u00f6rld \ud83d\ude80\nsecond line/);
      const r = await h.call('edit_file', { path: rel, old_text: 'second line', new_text: 'second line\nthird \u00fc' });
      assert.equal(r.ok, true, r.content);
      assert.deepEqual(await bytesOf(rel), utf16('Hello w\u00f6rld \ud83d\ude80\r\nsecond line\r\nthird \u00fc\r\n', littleEndian));
    });
  }

  it('a UTF-16 file with a lone surrogate is not rewritten (it would not come back byte for byte)', async () => {
    const broken = Buffer.concat([utf16('ok\n', true), Buffer.from([0x00, 0xd8]), Buffer.from('x\n', 'utf16le')]);
    await ws.write('u/broken16.txt', broken);
    const r = await h.call('edit_file', { path: 'u/broken16.txt', old_text: 'ok', new_text: 'fine' });
    assert.equal(r.ok, false);
    assert.match(r.content, /UTF-16 LE but holds bytes that do not decode exactly/);
    assert.deepEqual(await bytesOf('u/broken16.txt'), broken);
  });

  it('a binary file (NUL bytes) is still refused', async () => {
    await ws.write('u/blob.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    const r = await h.call('read_file', { path: 'u/blob.bin' });
    assert.equal(r.ok, false);
    assert.match(r.content, /binary file/);
  });
});

describe('a file the host shows differently from its bytes (an editor buffer with unsaved changes)', () => {
  /** NodeFileSystem, plus one "open document" whose unsaved text readFile returns and writeFile replaces. */
  class EditorLikeFs extends NodeFileSystem {
    buffer: { path: string; text: string } | undefined;
    textWrites: Array<{ path: string; text: string }> = [];
    override async readFile(file: string): Promise<string> {
      return this.buffer?.path === file ? this.buffer.text : super.readFile(file);
    }
    override async writeFile(file: string, content: string): Promise<void> {
      if (this.buffer?.path === file) {
        this.textWrites.push({ path: file, text: content });
        this.buffer.text = content;
        return;
      }
      return super.writeFile(file, content);
    }
  }

  it('edits the buffer text through writeFile (the editor keeps its encoding) and leaves the bytes alone', async () => {
    const onDisk = latin1('J\xfcrgen\nTODO\n');
    const file = await ws.write('host/main.c', onDisk);
    const fs = new EditorLikeFs();
    fs.buffer = { path: file, text: 'J\u00fcrgen\nTODO\nunsaved line \u2192\n' };
    const ctx = { roots: new WorkspaceRoots([{ name: 'ws', path: ws.root }], fs), fs, runner: h.runner, tracker: new ContextTracker(), signal: new AbortController().signal };
    const r = await createEditFileTool().invoke({ path: 'host/main.c', old_text: 'TODO', new_text: 'done' }, ctx);
    assert.equal(r.ok, true, r.content);
    assert.deepEqual(fs.textWrites, [{ path: file, text: 'J\u00fcrgen\ndone\nunsaved line \u2192\n' }], 'the unsaved text was edited, not lost');
    assert.deepEqual(await bytesOf('host/main.c'), onDisk, 'no bytes written behind the editor');
  });
});
