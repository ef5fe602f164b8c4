// "What the model knows": the hot-context block the model reads before each call, and the code the workspace
// index retrieved for the latest request (with why), shown on demand.
import type { HotContextView } from '../src/shared/protocol';
import { h } from './dom';

export function renderHotContext(panel: HTMLElement, view: HotContextView, doc: Document): void {
  const parts: HTMLElement[] = [h(doc, 'h2', 'hot-context-title', 'What the model knows')];
  const retrieved = view.retrieved ?? [];
  const empty =
    !view.filesRead.length && !view.filesModified.length && !view.todos.length && view.activeFile === null && !retrieved.length;
  if (empty) {
    parts.push(h(doc, 'p', 'hot-context-empty', 'Nothing yet: in this chat the model has not read or changed files, and no editor is active.'));
  }
  if (view.filesModified.length) parts.push(fileSection(doc, 'Files it changed', view.filesModified));
  if (view.filesRead.length) parts.push(fileSection(doc, 'Files it read', view.filesRead));
  if (retrieved.length) {
    const section = h(doc, 'div', 'hot-context-section hot-context-retrieved');
    const list = h(doc, 'ul');
    for (const r of retrieved) {
      const li = h(doc, 'li');
      li.title = `score ${r.score.toFixed(2)}`;
      li.append(h(doc, 'span', 'file-path', `${r.file}:${r.lines}`), h(doc, 'span', 'retrieved-why', ` — ${r.why}`));
      list.append(li);
    }
    section.append(h(doc, 'h3', undefined, 'Retrieved from the index'), list);
    parts.push(section);
  }
  if (view.todos.length) {
    const section = h(doc, 'div', 'hot-context-section');
    const list = h(doc, 'ul');
    for (const todo of view.todos) {
      const mark = todo.status === 'done' ? '☑' : todo.status === 'in_progress' ? '◐' : '☐';
      list.append(h(doc, 'li', `todo todo-${todo.status}`, `${mark} ${todo.text}`));
    }
    section.append(h(doc, 'h3', undefined, 'Todos'), list);
    parts.push(section);
  }
  if (view.activeFile !== null) {
    const section = h(doc, 'div', 'hot-context-section');
    section.append(
      h(doc, 'h3', undefined, 'You are looking at'),
      h(doc, 'p', 'hot-context-editor', view.selection ? `${view.activeFile} (${view.selection})` : view.activeFile),
    );
    parts.push(section);
  }
  if (view.text) {
    const raw = h(doc, 'details', 'hot-context-raw');
    raw.append(h(doc, 'summary', undefined, 'Exactly what is sent'), h(doc, 'pre', undefined, view.text));
    parts.push(raw);
  }
  panel.replaceChildren(...parts);
}

function fileSection(doc: Document, title: string, files: HotContextView['filesRead']): HTMLElement {
  const section = h(doc, 'div', 'hot-context-section');
  const list = h(doc, 'ul');
  for (const f of files) {
    const li = h(doc, 'li');
    li.append(h(doc, 'span', 'file-path', f.path));
    if (f.ranges) li.append(h(doc, 'span', 'file-ranges', ` lines ${f.ranges}`));
    list.append(li);
  }
  section.append(h(doc, 'h3', undefined, title), list);
  return section;
}
