// Renders the tracker's snapshot as a compact block the model reads before each call.
import type { LineRange, TrackerSnapshot } from './tracker';

const MAX_FILES = 12;

export function renderHotContext(snap: TrackerSnapshot): string {
  const lines: string[] = [];
  if (snap.filesModified.length) {
    lines.push('Files you modified: ' + list(snap.filesModified.map((f) => f.path + ranges(f.ranges))));
  }
  const readOnly = snap.filesRead.filter((f) => !snap.filesModified.some((m) => m.path === f.path));
  if (readOnly.length) lines.push('Files you read: ' + list(readOnly.map((f) => f.path + ranges(f.ranges))));
  if (snap.todos.length) {
    lines.push('Todos:');
    for (const t of snap.todos) lines.push(`- [${t.status === 'done' ? 'x' : t.status === 'in_progress' ? '~' : ' '}] ${t.text}`);
  }
  if (snap.editor.activeFile) {
    const sel = snap.editor.selection;
    lines.push(`The user is looking at ${snap.editor.activeFile}${sel ? ` (selected lines ${sel.start}-${sel.end})` : ''}.`);
  }
  return lines.length ? '# Working context\n' + lines.join('\n') : '';
}

function list(items: string[]): string {
  const shown = items.slice(0, MAX_FILES).join(', ');
  return items.length > MAX_FILES ? `${shown} (+${items.length - MAX_FILES} more)` : shown;
}

function ranges(rs: LineRange[]): string {
  if (!rs.length) return '';
  return ' (lines ' + rs.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(', ') + ')';
}
