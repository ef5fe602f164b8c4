// "What the model knows": built from a real ContextTracker with the same renderer the prompt uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContextTracker } from '../../../../src/core/context/tracker';
import { renderHotContext } from '../../../../src/core/context/hotContext';
import { hotContextView } from '../../../../src/vscode/chat/hotContextView';
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
