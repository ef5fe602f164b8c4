// Digests of REAL tool results (the built-in tools run on a temp workspace): what a compressed or evicted
// result keeps. Every listed name and every search hit survive; bulk goes; the digest says how to get it back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { digestLine, digestToolResult, parseTodoList, resultSucceeded } from '../../../src/core/compression/toolResultDigest';
import { COMPRESSED_MARKER, clip } from '../../../src/core/compression/marker';
import { describeMeta, toolResultMeta } from '../../../src/core/compression/metadata';
import { RecordedSession, namesSeen, noteName, noteText } from './recordedSession';

const SOURCE = [
  '// Reads the settings file and builds the request the server expects.',
  "import { readFile } from 'node:fs/promises';",
  '',
  'export interface RequestOptions {',
  '  retries: number;',
  '}',
  '',
  'export async function buildRequest(path: string, options: RequestOptions): Promise<string> {',
  "  const text = await readFile(path, 'utf8');",
  '  return text.trim() + String(options.retries);',
  '}',
  '',
  'export class RequestCache {',
  '  private readonly entries = new Map<string, string>();',
  '}',
  '',
  'export const DEFAULT_RETRIES = 3;',
  ...Array.from({ length: 40 }, (_, i) => `// padding line ${i} so the file is about two kilobytes long, like a real module`),
].join('\n');

let s: RecordedSession;
before(async () => {
  const files: Record<string, string> = { 'src/request.ts': SOURCE + '\n' };
  for (let n = 1; n <= 12; n++) files[noteName(n)] = noteText(n);
  s = await RecordedSession.create(files);
});
after(() => s.dispose());

/** The digest's lines without the marker. */
function linesOf(digest: string): string[] {
  assert.ok(digest.startsWith(`${COMPRESSED_MARKER} `), digest.slice(0, 80));
  return digest.slice(COMPRESSED_MARKER.length + 1).split('\n');
}

describe('list_directory', () => {
  test('every name stays, sizes go, the count is stated and the way back is named', async () => {
    const i = await s.call('list_directory', { path: '.' });
    const original = s.history[i]!.content;
    assert.match(original, /^Workspace root: 1 directory, 12 files\n\[dir\]  src\/\n\[file\] note-01\.txt \(\d/); // the real format
    const digest = digestToolResult(s.history, i);
    const lines = linesOf(digest);
    assert.equal(lines[0], describeMeta(toolResultMeta(s.history, i)));
    assert.equal(lines[1], 'Workspace root: 1 directory, 12 files. All 13 names, sizes left out:');
    assert.deepEqual(lines.slice(2, 15), ['src/', ...Array.from({ length: 12 }, (_, n) => noteName(n + 1))]);
    assert.equal(lines.at(-1), 'Full result: call list_directory with {"path":"."}.');
    assert.doesNotMatch(digest, /\d+(\.\d)? (B|KB)\b/, 'no sizes');
    assert.ok(digest.length < original.length, `${digest.length} < ${original.length}`);
    assert.equal(namesSeen([{ role: 'tool', content: digest }]).size, 12);
  });

  test('hundreds of entries: all names on one comma-separated line, with the count', async () => {
    const many = await RecordedSession.create(Object.fromEntries(Array.from({ length: 300 }, (_, n) => [`data/file-${String(n).padStart(3, '0')}.csv`, 'x,y\n'])));
    try {
      const i = await many.call('list_directory', { path: 'data' });
      const original = many.history[i]!.content;
      const digest = digestToolResult(many.history, i);
      const lines = linesOf(digest);
      assert.equal(lines[1], 'data: 0 directories, 300 files. All 300 names, sizes left out:');
      const names = lines[2]!.split(', ');
      assert.deepEqual(names, Array.from({ length: 300 }, (_, n) => `file-${String(n).padStart(3, '0')}.csv`));
      assert.ok(digest.length < original.length * 0.6, `${digest.length} vs ${original.length}`);
    } finally {
      await many.dispose();
    }
  });

  test('a failed listing keeps its message whole', async () => {
    const i = await s.call('list_directory', { path: 'nope' });
    const digest = digestToolResult(s.history, i);
    assert.equal(linesOf(digest)[1], s.history[i]!.content);
    assert.equal(digestLine(s.history, i), `list_directory nope: ${s.history[i]!.content}`);
  });

  test('the summary line keeps every name', async () => {
    const i = await s.call('list_directory', { path: '.' });
    const line = digestLine(s.history, i);
    assert.match(line, /^list_directory \.: Workspace root: \d+ director(y|ies), \d+ files: /);
    assert.equal(namesSeen([{ role: 'system', content: line }]).size, 12);
  });
});

describe('search_files', () => {
  test('every path:line stays; the matched text goes', async () => {
    const i = await s.call('search_files', { pattern: 'paragraph records|export' });
    const original = s.history[i]!.content;
    const hits = [...original.matchAll(/^(.+?):(\d+): /gm)].map((m) => `${m[1]}:${m[2]}`);
    assert.ok(hits.length >= 16, `real hits: ${hits.length}`);
    const digest = digestToolResult(s.history, i);
    const lines = linesOf(digest);
    assert.match(lines[1]!, /^\d+ matches in 13 files for \/paragraph records\|export\/ in the workspace \(path:line, text left out\):$/);
    // Read back as a model would: "path:1,2,3" lines.
    const kept = lines.slice(2, -1).flatMap((l) => {
      const m = /^(.+):([\d,]+)$/.exec(l)!;
      assert.ok(m, l);
      return m[2]!.split(',').map((n) => `${m[1]}:${n}`);
    });
    assert.deepEqual(kept.sort(), hits.sort());
    assert.doesNotMatch(digest, /This paragraph/);
    assert.ok(digest.length < original.length / 2);
    assert.equal(lines.at(-1), 'Full result: call search_files with {"pattern":"paragraph records|export"}.');
    for (const hit of hits.slice(0, 3)) assert.ok(digestLine(s.history, i).includes(hit.split(':')[0]!));
  });

  test('no matches: the message is kept whole', async () => {
    const i = await s.call('search_files', { pattern: 'nothing-like-this' });
    assert.equal(linesOf(digestToolResult(s.history, i))[1], s.history[i]!.content);
  });
});

describe('read_file', () => {
  test('a 2 KB file becomes a few lines: path, range, first meaningful line, outline', async () => {
    const i = await s.call('read_file', { path: 'src/request.ts' });
    const original = s.history[i]!.content;
    assert.ok(original.length > 2000);
    const digest = digestToolResult(s.history, i);
    const lines = linesOf(digest);
    assert.ok(lines.length <= 5, digest);
    assert.ok(digest.length < original.length / 4, `${digest.length} vs ${original.length}`);
    assert.match(lines[0]!, /^read_file src\/request\.ts lines all 57 \([\d,]+ chars, 58 lines\)$/);
    assert.equal(lines[1], 'Line 1: // Reads the settings file and builds the request the server expects.');
    assert.equal(
      lines[2],
      'Outline: interface RequestOptions (line 4), function buildRequest (line 8), class RequestCache (line 13), const DEFAULT_RETRIES (line 17)',
    );
    assert.equal(lines[3], 'Full result: call read_file with {"path":"src/request.ts"}.');
    assert.equal(digestLine(s.history, i), 'read_file src/request.ts: lines all 57; begins: // Reads the settings file and builds the request the server expects.');
  });

  test('a range keeps the file\'s own line numbers', async () => {
    const i = await s.call('read_file', { path: 'src/request.ts', start_line: 8, end_line: 15 });
    const lines = linesOf(digestToolResult(s.history, i));
    assert.match(lines[0]!, /lines 8-15 of 57/);
    assert.equal(lines[1], 'Outline: function buildRequest (line 8), class RequestCache (line 13)');
    assert.equal(lines.at(-1), 'Full result: call read_file with {"path":"src/request.ts","start_line":8,"end_line":15}.');
  });

  test('prose: the first two meaningful lines', async () => {
    const i = await s.call('read_file', { path: noteName(3) });
    const lines = linesOf(digestToolResult(s.history, i));
    assert.equal(lines[1], 'Line 1: Note 3. Kind: memo');
    assert.match(lines[2]!, /^Line 2: This paragraph records what the team agreed, .{20,}…$/);
    assert.ok(lines[2]!.length <= 'Line 2: '.length + 101);
  });

  test('prose with "Label: value" lines: those lines are its outline', async () => {
    const prose = 'This paragraph records what the team agreed, with dates, amounts and the people involved. '.repeat(12);
    await s.ws.write('notes/agreement.txt', `Agreement 7\n${prose}\nDocument kind: contract.\n${prose}\nStatus: signed\n`);
    const i = await s.call('read_file', { path: 'notes/agreement.txt' });
    const lines = linesOf(digestToolResult(s.history, i));
    assert.deepEqual(lines.slice(1, -1), ['Line 1: Agreement 7', 'Line 3: Document kind: contract.', 'Line 5: Status: signed']);
  });

  test('a failed read keeps its error whole and does not count as a read', async () => {
    const i = await s.call('read_file', { path: 'missing.ts' });
    assert.match(s.history[i]!.content, /^File "missing\.ts" does not exist\./);
    assert.equal(linesOf(digestToolResult(s.history, i))[1], s.history[i]!.content);
    assert.equal(resultSucceeded(s.history, i), false);
  });
});

describe('run_command', () => {
  test('the command, the exit code and the last lines of output (stderr included)', async () => {
    const i = await s.call('run_command', { command: 'for i in $(seq 1 30); do echo "line $i"; done; echo "compile error: x is undefined" >&2; exit 2' });
    const digest = digestToolResult(s.history, i);
    const lines = linesOf(digest);
    assert.match(lines[0]!, /^run_command `for i in .*exit 2` exit code 2 \(/);
    assert.deepEqual(lines.slice(1, -1), ['Last 5 of 31 output lines:', 'line 27', 'line 28', 'line 29', 'line 30', 'compile error: x is undefined', '[Exit code 2.]']);
    assert.equal(lines.at(-1), 'Full output: run it again if you need it.');
    assert.match(digestLine(s.history, i), /: exit code 2; last output: compile error: x is undefined$/);
  });

  test('short output is kept whole, without a hint', async () => {
    const i = await s.call('run_command', { command: 'echo ready' });
    assert.deepEqual(linesOf(digestToolResult(s.history, i)).slice(1), ['Output:', 'ready', '[Exit code 0.]']);
  });
});

describe('changes', () => {
  test('move_file: the one-line result whole, marked as done; its summary line is "a → b: ok"', async () => {
    const i = await s.call('move_file', { source: noteName(12), destination: 'memo-12.txt' });
    assert.equal(s.history[i]!.content, 'Moved note-12.txt to memo-12.txt.');
    assert.deepEqual(linesOf(digestToolResult(s.history, i)).slice(1), ['Moved note-12.txt to memo-12.txt.', 'Already done: do not repeat this move.']);
    assert.equal(digestLine(s.history, i), 'move_file note-12.txt → memo-12.txt: ok');
    assert.equal(resultSucceeded(s.history, i), true);
  });

  test('a failed move keeps the error whole and is not marked done', async () => {
    const i = await s.call('move_file', { source: noteName(11), destination: noteName(10) });
    const error = s.history[i]!.content;
    assert.match(error, /^Error: Destination "note-10\.txt" already exists/);
    const digest = digestToolResult(s.history, i);
    assert.deepEqual(linesOf(digest).slice(1), [error]);
    assert.equal(digestLine(s.history, i), `move_file note-11.txt → note-10.txt: failed: ${error}`);
    assert.equal(resultSucceeded(s.history, i), false);
  });

  test('write_file and edit_file: their one-line result whole', async () => {
    const w = await s.call('write_file', { path: 'src/new.ts', content: 'export const a = 1;\n'.repeat(50) });
    assert.equal(s.history[w]!.content, 'Created src/new.ts (50 lines).');
    assert.deepEqual(linesOf(digestToolResult(s.history, w)).slice(1), ['Created src/new.ts (50 lines).', 'Already done: do not repeat it; read_file src/new.ts shows the file as it is now.']);
    assert.equal(digestLine(s.history, w), 'write_file src/new.ts: Created src/new.ts (50 lines).');
    const e = await s.call('edit_file', { path: 'src/request.ts', old_text: 'export const DEFAULT_RETRIES = 3;', new_text: 'export const DEFAULT_RETRIES = 5;' });
    assert.equal(linesOf(digestToolResult(s.history, e))[1], s.history[e]!.content);
    assert.match(s.history[e]!.content, /^Edited src\/request\.ts: replaced 1 line; the new text is at line 17\.$/);
  });
});

test('todo_write: the list is kept whole and can be read back', async () => {
  const i = await s.call('todo_write', {
    todos: [
      { text: 'List the notes', status: 'done' },
      { text: 'Rename each note after its kind', status: 'in_progress' },
      { text: 'Report what was renamed', status: 'pending' },
    ],
  });
  assert.equal(linesOf(digestToolResult(s.history, i)).slice(1).join('\n'), s.history[i]!.content);
  assert.deepEqual(parseTodoList(s.history[i]!.content), [
    { text: 'List the notes', status: 'done' },
    { text: 'Rename each note after its kind', status: 'in_progress' },
    { text: 'Report what was renamed', status: 'pending' },
  ]);
  assert.equal(digestLine(s.history, i), 'todo_write: 1/3 done');
});

test('an unknown tool: the metadata line and the head, and the way back', () => {
  const body = 'Result row with some data that goes on. '.repeat(30);
  const i = s.record('warehouse__query', { sql: 'select * from rows' }, body);
  const lines = linesOf(digestToolResult(s.history, i, { headChars: 120 }));
  assert.match(lines[0]!, /^warehouse__query \(1,200 chars, 1 lines\)$/);
  assert.equal(lines[1], clip(body, 120));
  assert.equal(lines[2], 'Full result: call warehouse__query with {"sql":"select * from rows"}.');
});

test("the compression model's note is added to the facts, never instead of them", async () => {
  const i = await s.call('list_directory', { path: '.' });
  const digest = digestToolResult(s.history, i, { note: 'Read earlier; already handled.' });
  const lines = linesOf(digest);
  assert.equal(lines.at(-2), 'Note: Read earlier; already handled.');
  assert.equal(namesSeen([{ role: 'tool', content: digest }]).size, 11, 'all notes still in the folder (note-12 was moved above)');
  assert.ok(digest.includes('memo-12.txt'));
});

test('an already compressed result is not digested again', async () => {
  const i = await s.call('list_directory', { path: '.' });
  const once = digestToolResult(s.history, i);
  const stored = s.history.map((m, k) => (k === i ? { ...m, content: once } : m));
  assert.equal(digestToolResult(stored, i), once);
  // The summary re-reads a stored digest's facts: the names survive a reload too.
  assert.equal(namesSeen([{ role: 'system', content: digestLine(stored, i) }]).size, 11);
  assert.doesNotMatch(digestLine(stored, i), /Full result/);
});
