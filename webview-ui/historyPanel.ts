// The History view: stored sessions (title, date, model, interrupted ones marked) with open, rename, delete
// and export buttons. Buttons carry data-session-action / data-session-id; the app handles clicks by delegation.
import type { SessionEntry } from '../src/shared/protocol';
import { h } from './dom';

export interface HistoryView {
  sessions: readonly SessionEntry[];
  currentId: string | null;
  note?: string;
}

const ACTIONS: ReadonlyArray<{ action: string; label: string; text: string }> = [
  { action: 'rename', label: 'Rename', text: 'Rename' },
  { action: 'exportMarkdown', label: 'Export as Markdown', text: 'Markdown' },
  { action: 'exportJson', label: 'Export as JSON', text: 'JSON' },
  { action: 'delete', label: 'Delete', text: 'Delete' },
];

export function renderHistory(panel: HTMLElement, view: HistoryView, doc: Document, now = Date.now()): void {
  const parts: HTMLElement[] = [h(doc, 'h2', 'history-title', 'History')];
  if (view.note) parts.push(h(doc, 'p', 'history-note', view.note));
  const list = h(doc, 'ul', 'session-list');
  for (const s of view.sessions) {
    const row = h(doc, 'li', `session-row${s.id === view.currentId ? ' current' : ''}${s.interrupted ? ' interrupted' : ''}`);
    row.dataset['sessionId'] = s.id;
    const open = h(doc, 'button', 'link-button session-open', s.title || 'Untitled session');
    open.type = 'button';
    open.title = `Open "${s.title}"`;
    open.dataset['sessionAction'] = 'open';
    open.dataset['sessionId'] = s.id;
    const meta = h(doc, 'div', 'session-meta');
    meta.append(h(doc, 'span', 'session-date', formatDate(s.updatedAt, now)));
    if (s.model) meta.append(h(doc, 'span', 'session-model', s.model));
    meta.append(h(doc, 'span', 'session-count', `${s.messageCount} message${s.messageCount === 1 ? '' : 's'}`));
    if (s.interrupted) meta.append(h(doc, 'span', 'session-badge interrupted-badge', 'Interrupted'));
    if (s.id === view.currentId) meta.append(h(doc, 'span', 'session-badge current-badge', 'Current'));
    const actions = h(doc, 'div', 'session-actions');
    for (const a of ACTIONS) {
      const b = h(doc, 'button', 'secondary small', a.text);
      b.type = 'button';
      b.setAttribute('aria-label', `${a.label}: ${s.title}`);
      b.title = a.label;
      b.dataset['sessionAction'] = a.action;
      b.dataset['sessionId'] = s.id;
      actions.append(b);
    }
    row.append(open, meta, actions);
    list.append(row);
  }
  parts.push(list);
  panel.replaceChildren(...parts);
}

/** "14:05" today, "Mar 3, 14:05" this year, "2024-03-03" before. */
export function formatDate(ms: number, now: number): string {
  const d = new Date(ms);
  const today = new Date(now);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (d.toDateString() === today.toDateString()) return `Today ${time}`;
  if (d.getFullYear() === today.getFullYear()) return `${d.toLocaleString('en-US', { month: 'short' })} ${d.getDate()}, ${time}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
