// A step's status from evidence (stepEvidence.ts), the thread a step carries across attempts (stepThread.ts) and
// the segments a long step continues in when its exchange outgrows the executor's window (stepWindow.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage, ToolCall } from '../../../src/core/messages';
import type { PlanStep } from '../../../src/core/orchestrator/planRequest';
import { clipMiddle, digestResults, namedFiles, saysWorkLeft, workLeft } from '../../../src/core/orchestrator/stepEvidence';
import { callKey, newThread, observeSuccess, promptOf, threadFrom, threadMessages, touch } from '../../../src/core/orchestrator/stepThread';
import { TokenMeter } from '../../../src/core/window/meter';
import { fitsWindow, startNewSegment } from '../../../src/core/orchestrator/stepWindow';

const step = (goal: string): PlanStep => ({ id: '1', goal, dependsOn: [] });
const move = (id: string, source: string, destination: string): ToolCall => ({ id, name: 'move_file', arguments: { source, destination } });

test('closing words that say work is left, in the ways weak executors say it; finished reports are not', () => {
  for (const left of [
    "I've renamed 3 files. There are 2 remaining; I will continue with them next.",
    'Still to rename: shot-2.txt, shot-3.txt, shot-4.txt, shot-5.txt.',
    'Renamed 3 of 5 files.',
    'Files not renamed yet: a.txt and b.txt.',
    'Remaining: note-04.txt',
    'I could not finish the last two files.',
  ]) assert.equal(saysWorkLeft(left), true, left);
  for (const done of ['Step 2 of 3 is done: all notes are renamed.', 'Renamed 5 of 5 files.', 'All notes are renamed.', 'Added "Reviewed: yes" at the top of doc-01.txt.', 'Listed 12 notes.', 'No file is left to rename.', 'Renamed 4 files. Remaining: none.', '']) {
    assert.equal(saysWorkLeft(done), false, done);
  }
});

test('files a goal names: paths and names with extensions, not globs, abbreviations or version numbers', () => {
  assert.deepEqual(namedFiles('Add the header to doc-01.txt, doc-02.txt and src/lib/a.ts.'), ['doc-01.txt', 'doc-02.txt', 'src/lib/a.ts']);
  assert.deepEqual(namedFiles('Read each shot-*.txt file and rename it after its title'), []);
  assert.deepEqual(namedFiles('Bump the version to 1.2.3, e.g. in the manifest'), []);
  assert.deepEqual(namedFiles('Rename <kind>-NN.txt files'), ['-nn.txt']);
});

test('a goal naming several files is done only when a call used each; one named file is not checked', () => {
  const thread = newThread('Step 1 of 1: …');
  touch(thread, { id: 'a', name: 'edit_file', arguments: { path: './docs/doc-01.txt', old_text: 'x', new_text: 'y' } });
  assert.equal(workLeft(step('Add the header to docs/doc-01.txt, doc-02.txt and doc-03.txt'), 'Added the header.', thread), 'no call used doc-02.txt, doc-03.txt yet');
  touch(thread, { id: 'b', name: 'edit_file', arguments: JSON.stringify({ path: 'doc-02.txt' }) });
  touch(thread, { id: 'c', name: 'edit_file', arguments: { path: 'DOC-03.TXT' } });
  assert.equal(workLeft(step('Add the header to docs/doc-01.txt, doc-02.txt and doc-03.txt'), 'Added the header.', thread), undefined);
  assert.equal(workLeft(step('Check whether config.json exists'), 'It does not exist.', newThread('')), undefined);
  assert.match(workLeft(step('Rename the files'), 'Renamed 2; 3 remaining.', thread) ?? '', /^the executor says: "Renamed 2; 3 remaining\."$/);
});

test('progress is a success not seen before: the same call again (arguments in any order) is not', () => {
  const thread = newThread('p');
  assert.equal(observeSuccess(thread, move('1', 'a.txt', 'b.txt'), 'Moved a.txt to b.txt.'), true);
  assert.equal(observeSuccess(thread, { id: '2', name: 'move_file', arguments: '{"destination":"b.txt","source":"a.txt"}' }, 'Moved'), false);
  assert.equal(callKey({ id: 'x', name: 'f', arguments: { b: { d: 1, c: 2 }, a: [1] } }), callKey({ id: 'y', name: 'f', arguments: { a: [1], b: { c: 2, d: 1 } } }));
  assert.notEqual(callKey({ id: 'x', name: 'f', arguments: { a: 1 } }), callKey({ id: 'x', name: 'f', arguments: { a: 2 } }));
  assert.equal(thread.results.length, 2, 'every success is a result for the record');
});

test('a resumed step rebuilds its evidence from history: successes count, errors and calls cut off do not', () => {
  const history: ChatMessage[] = [
    { role: 'assistant', content: 'Step 2/3: rename', toolCalls: [move('1', 'a.txt', 'b.txt'), move('2', 'c.txt', 'd.txt')] },
    { role: 'tool', content: 'Moved a.txt to b.txt.', toolCallId: '1', toolName: 'move_file' },
    { role: 'tool', content: 'Error: Source "c.txt" does not exist.', toolCallId: '2', toolName: 'move_file' },
    { role: 'assistant', content: '', toolCalls: [move('3', 'e.txt', 'f.txt')] },
    { role: 'tool', content: 'Not run: the session was interrupted before this call finished.', toolCallId: '3', toolName: 'move_file' },
  ];
  const thread = threadFrom('Step 2 of 3: rename', history);
  assert.equal(thread.keys.size, 1);
  assert.deepEqual(thread.results, ['move_file: Moved a.txt to b.txt.']);
  assert.ok(thread.touched.has('e.txt') && thread.touched.has('c.txt'));
  assert.equal(thread.exchange.length, history.length);
});

test('a step outgrowing the window continues in a new segment: the newest round whole, one line per earlier call', () => {
  const system: ChatMessage = { role: 'system', content: 'fixed' };
  const thread = newThread('Step 2 of 3: Read each note and rename it');
  for (let n = 1; n <= 6; n++) {
    thread.exchange.push({ role: 'assistant', content: '', toolCalls: [{ id: `r${n}`, name: 'read_file', arguments: { path: `note-0${n}.txt` } }] });
    thread.exchange.push({ role: 'tool', content: `Note ${n}\n${'text '.repeat(400)}`, toolCallId: `r${n}`, toolName: 'read_file' });
    thread.exchange.push({ role: 'assistant', content: '', toolCalls: [move(`m${n}`, `note-0${n}.txt`, `memo-0${n}.txt`)] });
    thread.exchange.push({ role: 'tool', content: `Moved note-0${n}.txt to memo-0${n}.txt.`, toolCallId: `m${n}`, toolName: 'move_file' });
  }
  const meter = new TokenMeter();
  const request = () => [system, ...threadMessages(thread)];
  assert.equal(fitsWindow(request(), [], 0, meter), true, 'an unknown window is never full');
  assert.equal(fitsWindow(request(), [], 4096, meter), false);
  assert.equal(startNewSegment(thread), true);
  assert.equal(fitsWindow(request(), [], 4096, meter), true);
  assert.deepEqual(thread.exchange.map((m) => m.role), ['assistant', 'tool'], 'the newest round is kept whole');
  assert.equal(thread.done.length, 11);
  const prompt = promptOf(thread);
  assert.match(prompt, /^Step 2 of 3: Read each note and rename it\n\nAlready done in this step/);
  assert.match(prompt, /- move_file \{"source":"note-05\.txt","destination":"memo-05\.txt"\} → Moved note-05\.txt to memo-05\.txt\./);
  assert.match(prompt, /- read_file \{"path":"note-01\.txt"\} → Note 1$/m);
  assert.equal(startNewSegment(newThread('p')), false, 'nothing to move');
});

test('a step result keeps every call in a line and the newest state whole; a cut is in the middle', () => {
  const results = Array.from({ length: 30 }, (_, i) => `read_file: Note ${i}\n${'body '.repeat(100)}`);
  results.push('list_directory: Workspace root: 0 directories, 3 files\n[file] a.txt\n[file] b.txt\n[file] c.txt');
  const digest = digestResults(results, 'Renamed all notes.', 2000);
  assert.ok(digest.length <= 2000, String(digest.length));
  assert.match(digest, /^read_file: Note 0$/m);
  assert.match(digest, /Last result in full:\nlist_directory: Workspace root: 0 directories, 3 files\n\[file\] a\.txt\n\[file\] b\.txt\n\[file\] c\.txt\nRenamed all notes\.$/);
  assert.equal(digestResults(['a: 1', 'b: 2'], 'done', 100), 'a: 1\nb: 2\ndone');
  const cut = clipMiddle(`${'a'.repeat(500)}${'z'.repeat(500)}`, 200);
  assert.ok(cut.length <= 200 && cut.startsWith('a') && cut.endsWith('z') && /\[…\d+ chars cut\]/.test(cut));
});
