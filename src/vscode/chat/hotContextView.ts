// Builds the "what the model knows" panel data from the context tracker, using the same renderer the prompt uses.
import type { LineRange, TrackerSnapshot } from '../../core/context/tracker';
import { renderHotContext } from '../../core/context/hotContext';
import type { HotContextView } from '../../shared/protocol';

export function hotContextView(snapshot: TrackerSnapshot): HotContextView {
  const selection = snapshot.editor.selection;
  return {
    text: renderHotContext(snapshot),
    filesRead: snapshot.filesRead.map((f) => ({ path: f.path, ranges: formatRanges(f.ranges) })),
    filesModified: snapshot.filesModified.map((f) => ({ path: f.path, ranges: formatRanges(f.ranges) })),
    todos: snapshot.todos.map((t) => ({ text: t.text, status: t.status })),
    activeFile: snapshot.editor.activeFile ?? null,
    selection: selection ? `lines ${selection.start}-${selection.end}` : null,
  };
}

function formatRanges(ranges: LineRange[]): string {
  return ranges.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(', ');
}
