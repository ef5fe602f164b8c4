// Builds the "what the model knows" panel data from the context tracker, using the same renderer the prompt uses,
// and from the latest retrieval (what the workspace index gave the request, and why).
import type { RetrievalEvent } from '../../core/agent/events';
import type { LineRange, TrackerSnapshot } from '../../core/workingContext/tracker';
import { renderHotContext } from '../../core/workingContext/hotContext';
import type { HotContextView } from '../../shared/protocol';

/** The schema's limit for a reason. */
const WHY_CHARS = 2000;

export function hotContextView(snapshot: TrackerSnapshot, retrieval?: RetrievalEvent): HotContextView {
  const selection = snapshot.editor.selection;
  const view: HotContextView = {
    text: renderHotContext(snapshot),
    filesRead: snapshot.filesRead.map((f) => ({ path: f.path, ranges: formatRanges(f.ranges) })),
    filesModified: snapshot.filesModified.map((f) => ({ path: f.path, ranges: formatRanges(f.ranges) })),
    todos: snapshot.todos.map((t) => ({ text: t.text, status: t.status })),
    activeFile: snapshot.editor.activeFile ?? null,
    selection: selection ? `lines ${selection.start}-${selection.end}` : null,
  };
  if (retrieval?.items.length) {
    view.retrieved = retrieval.items.map((i) => ({
      file: i.file,
      lines: i.startLine === i.endLine ? `${i.startLine}` : `${i.startLine}-${i.endLine}`,
      // The schema refuses NaN/Infinity; a retriever's odd score must not blank the whole panel.
      score: Number.isFinite(i.score) ? i.score : 0,
      why: i.why.length > WHY_CHARS ? `${i.why.slice(0, WHY_CHARS - 1)}…` : i.why,
    }));
  }
  return view;
}

function formatRanges(ranges: LineRange[]): string {
  return ranges.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(', ');
}
