// The file tools against a real temp workspace: list, read, write, edit, move, todos and the loop-breaking tools.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
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

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('list_directory', () => {
  it('lists directories first, then files with sizes, sorted', async () => {
    await ws.write('ls/b.txt', 'hello');
    await ws.write('ls/a.txt', '');
    await ws.write('ls/zdir/x.txt', 'x');
    await ws.write('ls/adir/y.txt', 'y');
    const r = await h.call('list_directory', { path: 'ls' });
    assert.equal(r.ok, true);
    assert.equal(r.content, 'ls: 2 directories, 2 files\n[dir]  adir/\n[dir]  zdir/\n[file] a.txt (0 B)\n[file] b.txt (5 B)');
  });

  it('caps the listing and says how many were left out', async () => {
    for (let i = 0; i < 12; i++) await ws.write(`many/f${String(i).padStart(2, '0')}.txt`, 'x');
    const capped = new ToolHarness(ws, { listDirectory: { maxEntries: 5 } });
    const r = await capped.call('list_directory', { path: 'many' });
    assert.equal(r.ok, true);
    assert.match(r.content, /f04\.txt/);
    assert.doesNotMatch(r.content, /f05\.txt/);
    assert.match(r.content, /7 more entries not shown/);
  });

  it('says when the path is a file or missing', async () => {
    await ws.write('ls-file.txt', 'x');
    const file = await h.call('list_directory', { path: 'ls-file.txt' });
    assert.equal(file.ok, false);
    assert.match(file.content, /is a file, not a directory\. Use read_file/);
    const missing = await h.call('list_directory', { path: 'nope' });
    assert.equal(missing.ok, false);
    assert.match(missing.content, /does not exist/);
  });

  it('lists the workspace root for "."', async () => {
    const r = await h.call('list_directory', { path: '.' });
    assert.equal(r.ok, true);
    assert.match(r.content, /^Workspace root: /);
    assert.match(r.content, /\[dir\]  ls\//);
  });
});

describe('read_file', () => {
  it('reads a whole small file with a header and records the read', async () => {
    await ws.write('r/small.txt', 'alpha\nbeta\n');
    const r = await h.call('read_file', { path: 'r/small.txt' });
    assert.equal(r.ok, true);
    assert.equal(r.content, 'r/small.txt (2 lines):\nalpha\nbeta');
    assert.deepEqual(h.tracker.snapshot().filesRead[0], { path: 'r/small.txt', ranges: [{ start: 1, end: 2 }], at: 1 });
  });

  it('returns an inclusive 1-based range and accepts numbers sent as strings', async () => {
    await ws.write('r/ten.txt', numbered(10));
    const r = await h.call('read_file', { path: 'r/ten.txt', start_line: '3', end_line: 5 });
    assert.equal(r.ok, true);
    assert.equal(r.content, 'r/ten.txt lines 3-5 of 10:\nline 3\nline 4\nline 5');
    assert.deepEqual(h.tracker.snapshot().filesRead[0]!.ranges, [{ start: 3, end: 5 }]);
  });

  it('clamps end_line to the file and rejects impossible ranges with the fix', async () => {
    await ws.write('r/ten.txt', numbered(10));
    const clamped = await h.call('read_file', { path: 'r/ten.txt', start_line: 9, end_line: 50 });
    assert.equal(clamped.content, 'r/ten.txt lines 9-10 of 10:\nline 9\nline 10');
    const past = await h.call('read_file', { path: 'r/ten.txt', start_line: 11 });
    assert.equal(past.ok, false);
    assert.match(past.content, /past the end of r\/ten\.txt, which has 10 lines/);
    const backwards = await h.call('read_file', { path: 'r/ten.txt', start_line: 5, end_line: 2 });
    assert.equal(backwards.ok, false);
    assert.match(backwards.content, /end_line \(2\) is before start_line \(5\)/);
  });

  it('returns the first lines of a big file and says how to read more', async () => {
    await ws.write('r/big.txt', numbered(1000));
    const small = new ToolHarness(ws, { readFile: { maxLines: 100 } });
    const r = await small.call('read_file', { path: 'r/big.txt' });
    assert.equal(r.ok, true);
    assert.match(r.content, /^r\/big\.txt lines 1-100 of 1000:\nline 1\n/);
    assert.match(r.content, /line 100\n\[Showing lines 1-100 of 1000\. Call read_file with start_line=101 to read more\.\]$/);
    assert.doesNotMatch(r.content, /line 101\b/);
  });

  it('keeps whole lines within the character budget', async () => {
    await ws.write('r/wide.txt', Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(100, '.')).join('\n'));
    const narrow = new ToolHarness(ws, { readFile: { maxChars: 350 } });
    const r = await narrow.call('read_file', { path: 'r/wide.txt' });
    assert.match(r.content, /^r\/wide\.txt lines 1-3 of 20:/);
    assert.match(r.content, /start_line=4/);
  });

  it('refuses binary files clearly, and reports missing files and directories', async () => {
    await ws.write('r/image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0x02]));
    const bin = await h.call('read_file', { path: 'r/image.png' });
    assert.equal(bin.ok, false);
    assert.match(bin.content, /binary file/);
    const missing = await h.call('read_file', { path: 'r/none.txt' });
    assert.equal(missing.ok, false);
    assert.match(missing.content, /does not exist\. Check the path with list_directory/);
    const dir = await h.call('read_file', { path: 'r' });
    assert.equal(dir.ok, false);
    assert.match(dir.content, /is a directory/);
  });

  it('reads an empty file', async () => {
    await ws.write('r/empty.txt', '');
    const r = await h.call('read_file', { path: 'r/empty.txt' });
    assert.equal(r.ok, true);
    assert.equal(r.content, 'r/empty.txt is empty (0 lines).');
  });
});

describe('write_file', () => {
  it('creates a new file with parent directories and tracks the lines', async () => {
    const desc = await h.describe('write_file', { path: 'w/new/deep/file.ts', content: 'a\nb\nc\n' });
    assert.equal(desc.title, 'Create w/new/deep/file.ts');
    assert.match(desc.detail, /New file w\/new\/deep\/file\.ts: 3 lines, 6 B/);
    assert.deepEqual(desc.fileChange, { path: ws.abs('w/new/deep/file.ts'), before: undefined, after: 'a\nb\nc\n' });
    const r = await h.call('write_file', { path: 'w/new/deep/file.ts', content: 'a\nb\nc\n' });
    assert.equal(r.ok, true);
    assert.equal(r.content, 'Created w/new/deep/file.ts (3 lines).');
    assert.equal(await ws.read('w/new/deep/file.ts'), 'a\nb\nc\n');
    assert.deepEqual(h.tracker.snapshot().filesModified[0]!.ranges, [{ start: 1, end: 3 }]);
  });

  it('describes an overwrite with a diff summary and reports the changed range', async () => {
    await ws.write('w/over.txt', 'one\ntwo\nthree\nfour\n');
    const desc = await h.describe('write_file', { path: 'w/over.txt', content: 'one\nTWO\nthree\nfour\nfive\n' });
    assert.equal(desc.title, 'Overwrite w/over.txt');
    assert.match(desc.detail, /w\/over\.txt: 4 → 5 lines, 24 B \(\+2 −1\)/);
    assert.match(desc.detail, /^-two$/m);
    assert.match(desc.detail, /^\+TWO$/m);
    assert.equal(desc.fileChange?.before, 'one\ntwo\nthree\nfour\n');
    const r = await h.call('write_file', { path: 'w/over.txt', content: 'one\nTWO\nthree\nfour\nfive\n' });
    assert.equal(r.ok, true);
    assert.match(r.content, /lines 2-5 changed/);
    assert.deepEqual(h.tracker.snapshot().filesModified[0]!.ranges, [{ start: 2, end: 5 }]);
  });

  it('keeps CRLF line endings of an existing file', async () => {
    await ws.write('w/win.txt', 'a\r\nb\r\n');
    await h.call('write_file', { path: 'w/win.txt', content: 'a\nB\n' });
    assert.equal(await ws.read('w/win.txt'), 'a\r\nB\r\n');
  });

  it('refuses to write over a directory and does not rewrite identical content', async () => {
    await ws.write('w/dir/inner.txt', 'x');
    const dir = await h.call('write_file', { path: 'w/dir', content: 'x' });
    assert.equal(dir.ok, false);
    assert.match(dir.content, /is a directory/);
    const same = await h.call('write_file', { path: 'w/dir/inner.txt', content: 'x' });
    assert.equal(same.ok, true);
    assert.match(same.content, /already has exactly this content/);
  });

  it('writes through a symlink that stays inside the workspace, keeping the link', async () => {
    await ws.write('w/target.txt', 'old\n');
    await symlink(ws.abs('w/target.txt'), ws.abs('w/alias.txt'));
    const r = await h.call('write_file', { path: 'w/alias.txt', content: 'new\n' });
    assert.equal(r.ok, true);
    assert.equal(await ws.read('w/target.txt'), 'new\n');
    assert.equal((await h.fs.lstat(ws.abs('w/alias.txt')))?.kind, 'symlink');
  });
});

describe('edit_file', () => {
  it('replaces one exact match, describes the diff and tracks the new lines', async () => {
    await ws.write('e/code.ts', 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n');
    const args = { path: 'e/code.ts', old_text: '  return 2;\n', new_text: '  const x = 2;\n  return x;\n' };
    const desc = await h.describe('edit_file', args);
    assert.equal(desc.title, 'Edit e/code.ts');
    assert.match(desc.detail, /\+2 −1/);
    assert.match(desc.detail, /^-  return 2;$/m);
    assert.match(desc.detail, /^\+  const x = 2;$/m);
    assert.equal(desc.fileChange?.path, ws.abs('e/code.ts'));
    const r = await h.call('edit_file', args);
    assert.equal(r.ok, true);
    assert.equal(r.content, 'Edited e/code.ts: replaced 1 line; the new text is at lines 6-7.');
    assert.equal(await ws.read('e/code.ts'), 'function a() {\n  return 1;\n}\n\nfunction b() {\n  const x = 2;\n  return x;\n}\n');
    assert.deepEqual(h.tracker.snapshot().filesModified[0]!.ranges, [{ start: 6, end: 7 }]);
  });

  it('zero matches: tells the model to read the file again and shows the closest lines', async () => {
    await ws.write('e/near.ts', 'const alpha = 1;\nconst beta = 2;\nconst gamma = 3;\n');
    const before = await ws.read('e/near.ts');
    const r = await h.call('edit_file', { path: 'e/near.ts', old_text: 'const beta = 22;', new_text: 'const beta = 3;' });
    assert.equal(r.ok, false);
    assert.match(r.content, /old_text was not found in e\/near\.ts\. Call read_file on e\/near\.ts again/);
    assert.match(r.content, /closest lines in the file are:\n1\| const alpha = 1;\n2\| const beta = 2;/);
    assert.equal(await ws.read('e/near.ts'), before);
    // The approval step already fails, so no user is asked about a doomed edit.
    assert.equal(r.events.some((e) => e.type === 'approval_request'), false);
  });

  it('several matches: says how many, where, and to add context', async () => {
    await ws.write('e/dup.ts', 'x = 1;\ny = 2;\nx = 1;\n');
    const r = await h.call('edit_file', { path: 'e/dup.ts', old_text: 'x = 1;', new_text: 'x = 9;' });
    assert.equal(r.ok, false);
    assert.match(r.content, /occurs 2 times in e\/dup\.ts \(at lines 1, 3\)\. Include more surrounding lines/);
    assert.equal(await ws.read('e/dup.ts'), 'x = 1;\ny = 2;\nx = 1;\n');
  });

  it('matches LF old_text in a CRLF file and keeps CRLF', async () => {
    await ws.write('e/win.ts', 'a\r\nb\r\nc\r\n');
    const r = await h.call('edit_file', { path: 'e/win.ts', old_text: 'a\nb\n', new_text: 'a\nB\n' });
    assert.equal(r.ok, true, r.content);
    assert.equal(await ws.read('e/win.ts'), 'a\r\nB\r\nc\r\n');
  });

  it('treats $ in new_text literally, and can delete text', async () => {
    await ws.write('e/dollar.ts', 'price = X;\nremove me\nend\n');
    await h.call('edit_file', { path: 'e/dollar.ts', old_text: 'X', new_text: "$& $1 $$ $'" });
    await h.call('edit_file', { path: 'e/dollar.ts', old_text: 'remove me\n', new_text: '' });
    assert.equal(await ws.read('e/dollar.ts'), "price = $& $1 $$ $';\nend\n");
  });

  it('rejects empty or unchanged old_text and missing files with instructions', async () => {
    await ws.write('e/x.ts', 'x\n');
    const empty = await h.call('edit_file', { path: 'e/x.ts', old_text: '', new_text: 'y' });
    assert.match(empty.content, /old_text is empty/);
    const same = await h.call('edit_file', { path: 'e/x.ts', old_text: 'x', new_text: 'x' });
    assert.match(same.content, /identical/);
    const missing = await h.call('edit_file', { path: 'e/none.ts', old_text: 'a', new_text: 'b' });
    assert.equal(missing.ok, false);
    assert.match(missing.content, /does not exist/);
  });
});

describe('move_file', () => {
  it('moves a file into a new directory and updates the tracker', async () => {
    await ws.write('m/src.txt', 'content\n');
    await h.call('read_file', { path: 'm/src.txt' });
    const desc = await h.describe('move_file', { source: 'm/src.txt', destination: 'm/new/dst.txt' });
    assert.equal(desc.title, 'Move m/src.txt → m/new/dst.txt');
    const r = await h.call('move_file', { source: 'm/src.txt', destination: 'm/new/dst.txt' });
    assert.equal(r.ok, true);
    assert.equal(await ws.exists('m/src.txt'), false);
    assert.equal(await ws.read('m/new/dst.txt'), 'content\n');
    const snap = h.tracker.snapshot();
    assert.equal(snap.filesRead[0]!.path, 'm/new/dst.txt');
    assert.equal(snap.filesModified[0]!.path, 'm/new/dst.txt');
  });

  it('refuses to overwrite, to move a missing source, or to move a folder into itself', async () => {
    await ws.write('m/a.txt', 'A');
    await ws.write('m/b.txt', 'B');
    const over = await h.call('move_file', { source: 'm/a.txt', destination: 'm/b.txt' });
    assert.equal(over.ok, false);
    assert.match(over.content, /already exists; move_file never overwrites/);
    assert.equal(await ws.read('m/b.txt'), 'B');
    assert.equal(await ws.read('m/a.txt'), 'A');
    const missing = await h.call('move_file', { source: 'm/zzz.txt', destination: 'm/c.txt' });
    assert.match(missing.content, /Source "m\/zzz\.txt" does not exist/);
    const into = await h.call('move_file', { source: 'm', destination: 'm/sub/m' });
    assert.match(into.content, /into itself/);
    const root = await h.call('move_file', { source: '.', destination: 'elsewhere' });
    assert.match(root.content, /workspace folder and cannot be moved/);
  });
});

describe('todos and loop-breaking tools', () => {
  it('todo_write replaces the list in the tracker; todo_read shows it', async () => {
    const empty = await h.call('todo_read', {});
    assert.equal(empty.content, 'The todo list is empty.');
    const r = await h.call('todo_write', {
      todos: [
        { text: 'Read the code', status: 'done' },
        { text: 'Fix the bug', status: 'in_progress' },
        { text: 'Run tests', status: 'pending' },
      ],
    });
    assert.equal(r.ok, true);
    assert.deepEqual(h.tracker.todos().map((t) => t.status), ['done', 'in_progress', 'pending']);
    const read = await h.call('todo_read', '');
    assert.equal(read.content, 'Todos (1/3 done):\n1. [x] Read the code\n2. [~] Fix the bug\n3. [ ] Run tests');
    const bad = await h.call('todo_write', { todos: [{ text: 'x', status: 'finished' }] });
    assert.equal(bad.ok, false);
    assert.match(bad.content, /todos\.0\.status/);
  });

  it('task_completion and ask_question are loop-breaking and return their text', async () => {
    const done = h.registry.get('task_completion')!;
    const ask = h.registry.get('ask_question')!;
    assert.equal(done.loopBreaking, true);
    assert.equal(ask.loopBreaking, true);
    const r = await h.call('task_completion', { result: 'Fixed the bug.' });
    assert.deepEqual([r.ok, r.content], [true, 'Fixed the bug.']);
    const q = await h.call('ask_question', { question: 'Which database?' });
    assert.deepEqual([q.ok, q.content], [true, 'Which database?']);
    const blank = await h.call('ask_question', { question: '  ' });
    assert.equal(blank.ok, false);
  });
});
