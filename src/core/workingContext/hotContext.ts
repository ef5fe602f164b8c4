// Renders the tracker's snapshot as a compact block the model reads before each call.
import type { EditorActivity, LineRange, Todo, TrackerSnapshot } from './tracker';

const MAX_FILES = 12;

export function renderHotContext(snap: TrackerSnapshot): string {
  const lines: string[] = [];
  if (snap.filesModified.length) {
    lines.push('Files you modified: ' + list(snap.filesModified.map((f) => f.path + ranges(f.ranges))));
  }
  const readOnly = snap.filesRead.filter((f) => !snap.filesModified.some((m) => m.path === f.path));
  if (readOnly.length) lines.push('Files you read: ' + list(readOnly.map((f) => f.path + ranges(f.ranges))));
  const todos = renderTodos(snap.todos);
  if (todos) lines.push(todos);
  const editor = renderEditorLine(snap.editor);
  if (editor) lines.push(editor);
  return lines.length ? '# Working context\n' + lines.join('\n') : '';
}

/** "Todos:" and one line per item ('' when there are none). */
export function renderTodos(todos: readonly Todo[]): string {
  if (!todos.length) return '';
  return ['Todos:', ...todos.map((t) => `- [${todoMark(t)}] ${t.text}`)].join('\n');
}

/** A todo's checkbox: "x" done, "~" in progress, " " open (the same marks in every prompt that lists todos). */
export function todoMark(t: Pick<Todo, 'status'>): string {
  return t.status === 'done' ? 'x' : t.status === 'in_progress' ? '~' : ' ';
}

/** "The user is looking at src/a.ts (selected lines 3-9)." — '' when no file is open. */
export function renderEditorLine(editor: EditorActivity): string {
  if (!editor.activeFile) return '';
  const sel = editor.selection;
  return `The user is looking at ${editor.activeFile}${sel ? ` (selected lines ${sel.start}-${sel.end})` : ''}.`;
}

function list(items: string[]): string {
  const shown = items.slice(0, MAX_FILES).join(', ');
  return items.length > MAX_FILES ? `${shown} (+${items.length - MAX_FILES} more)` : shown;
}

export function ranges(rs: readonly LineRange[]): string {
  if (!rs.length) return '';
  return ' (lines ' + rs.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(', ') + ')';
}
