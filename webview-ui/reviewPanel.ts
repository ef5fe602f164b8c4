// The files the last turn changed: each with its diff (click the name), Keep and Undo, and both for all. The host
// owns the review (it comes in the state); buttons only post intents (data-review-action, handled in app.ts).
import type { ReviewFile, TurnReview } from '../src/shared/protocol';
import { h } from './dom';

const CHANGE_LABELS: Record<ReviewFile['change'], string> = { created: 'new', modified: 'edited', deleted: 'deleted' };
const STATE_LABELS: Record<ReviewFile['state'], string> = { pending: '', kept: 'kept', undone: 'undone' };

export function renderReview(panel: HTMLElement, review: TurnReview | undefined, doc: Document): void {
  if (!review || review.files.length === 0) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  const pending = review.files.filter((f) => f.state === 'pending').length;
  const header = h(doc, 'div', 'turn-review-header');
  const title = h(doc, 'span', 'turn-review-title', `${review.files.length} file${review.files.length === 1 ? '' : 's'} changed${pending < review.files.length ? ` (${pending} to review)` : ''}`);
  header.append(title);
  if (pending > 0) header.append(action(doc, 'keep', 'Keep All', 'Keep all changed files'), action(doc, 'undo', 'Undo All', 'Undo the changes to all files'));
  const list = h(doc, 'ul', 'turn-review-files');
  for (const file of review.files) {
    const row = h(doc, 'li', `turn-review-file review-${file.state}`);
    const open = action(doc, 'open', file.label, `Open the diff of ${file.label}`, file.path);
    open.className = 'link-button review-open';
    row.append(open, h(doc, 'span', 'review-change', CHANGE_LABELS[file.change]));
    if (file.state === 'pending') {
      row.append(action(doc, 'keep', 'Keep', `Keep ${file.label}`, file.path), action(doc, 'undo', 'Undo', `Undo the change to ${file.label}`, file.path));
    } else {
      row.append(h(doc, 'span', 'review-state', STATE_LABELS[file.state]));
    }
    list.append(row);
  }
  panel.replaceChildren(header, list);
  panel.hidden = false;
}

function action(doc: Document, kind: 'keep' | 'undo' | 'open', text: string, label: string, path?: string): HTMLButtonElement {
  const b = h(doc, 'button', 'secondary review-action', text);
  b.type = 'button';
  b.setAttribute('aria-label', label);
  b.dataset['reviewAction'] = kind;
  if (path !== undefined) b.dataset['path'] = path;
  return b;
}
