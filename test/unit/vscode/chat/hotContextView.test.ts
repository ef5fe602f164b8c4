// "What the model knows": built from a real ContextTracker with the same renderer the prompt uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContextTracker } from '../../../../src/core/workingContext/tracker';
import { renderHotContext } from '../../../../src/core/workingContext/hotContext';
import { hotContextView } from '../../../../src/editor/chat/hotContextView';
import { HotContextViewSchema } from '../../../../src/shared/protocol';

test('an empty tracker gives an empty view', () => {
  const view = hotContextView(new ContextTracker().snapshot());
  assert.deepEqual(view, { text: '', filesRead: [], filesModified: [], todos: [], activeFile: null, selection: null });
});

test('files, ranges, todos and the editor appear, and the text is exactly what the model reads', () => {
  const tracker = new ContextTracker();
  tracker.fileRead('src/a.ts', { start: 1, end: 20 });
  tracker.fileRead('src/a.ts', { start: 40, end: 40 });
  tracker.fileModified('src/b.ts', { start: 3, end: 5 });
  tracker.setTodos([
    { text: 'write tests', status: 'in_progress' },
    { text: 'ship', status: 'pending' },
  ]);
  tracker.setEditorActivity({ activeFile: 'src/c.ts', selection: { start: 4, end: 9 } });
  const view = hotContextView(tracker.snapshot());
  assert.deepEqual(view.filesRead, [{ path: 'src/a.ts', ranges: '1-20, 40' }]);
  assert.deepEqual(view.filesModified, [{ path: 'src/b.ts', ranges: '3-5' }]);
  assert.deepEqual(view.todos, [
    { text: 'write tests', status: 'in_progress' },
    { text: 'ship', status: 'pending' },
  ]);
  assert.equal(view.activeFile, 'src/c.ts');
  assert.equal(view.selection, 'lines 4-9');
  assert.equal(view.text, renderHotContext(tracker.snapshot()));
  assert.match(view.text, /^# Working context/);
  assert.equal(HotContextViewSchema.safeParse(view).success, true);
});

test('the latest retrieval joins the view: file, lines, score and why of each chunk, best first', () => {
  const tracker = new ContextTracker();
  const retrieval = {
    type: 'retrieval' as const,
    query: 'where is the config parsed?',
    method: 'vectors' as const,
    items: [
      { rank: 1, file: 'src/config.ts', startLine: 10, endLine: 42, score: 0.82, why: 'similar to the request (0.82)', name: 'parseConfig', neighbours: 2 },
      { rank: 2, file: 'src/loader.ts', startLine: 7, endLine: 7, score: 0.4, why: 'calls parseConfig', neighbours: 0 },
      { rank: 3, file: 'src/odd.ts', startLine: 1, endLine: 3, score: Number.NaN, why: 'w'.repeat(3000), neighbours: 0 },
    ],
    tokens: 310,
  };
  const view = hotContextView(tracker.snapshot(), retrieval);
  assert.deepEqual(view.retrieved?.slice(0, 2), [
    { file: 'src/config.ts', lines: '10-42', score: 0.82, why: 'similar to the request (0.82)' },
    { file: 'src/loader.ts', lines: '7', score: 0.4, why: 'calls parseConfig' },
  ]);
  // An odd score or an overlong reason must not make the whole view invalid.
  assert.equal(view.retrieved?.[2]?.score, 0);
  assert.equal(view.retrieved?.[2]?.why.length, 2000);
  assert.equal(HotContextViewSchema.safeParse(view).success, true);
  // A retrieval with nothing in it (only a notice) adds nothing.
  assert.equal('retrieved' in hotContextView(tracker.snapshot(), { ...retrieval, items: [], notice: 'keywords only' }), false);
});
