// A tool call as a card: name, a one-line argument summary, status (data-status = running/done/error/denied),
// approval state while the native dialog is open, progress, and a result preview that expands.
// The long texts (arguments, result) fill their <pre> only when expanded, so thousands of cards stay light.
import type { ChatItem, ToolItem } from '../../src/shared/protocol';
import { firstLine, h, setAttr, setHidden, setText } from '../dom';
import type { ItemView, ViewContext } from './types';

export class ToolCardView implements ItemView {
  readonly el: HTMLElement;
  private readonly name: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly status: HTMLElement;
  private readonly approval: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly args: HTMLDetailsElement;
  private readonly argsPre: HTMLPreElement;
  private readonly result: HTMLDetailsElement;
  private readonly resultSummary: HTMLElement;
  private readonly resultPre: HTMLPreElement;
  private item: ToolItem;

  constructor(item: ToolItem, ctx: ViewContext) {
    const doc = ctx.doc;
    this.item = item;
    this.el = h(doc, 'div', 'tool-card');
    this.el.dataset['id'] = item.id;
    const header = h(doc, 'div', 'tool-header');
    const icon = h(doc, 'span', 'tool-icon');
    icon.setAttribute('aria-hidden', 'true');
    this.name = h(doc, 'span', 'tool-name');
    this.summary = h(doc, 'span', 'tool-summary');
    this.status = h(doc, 'span', 'tool-status');
    header.append(icon, this.name, this.summary, this.status);

    this.approval = h(doc, 'div', 'tool-approval');
    this.progress = h(doc, 'div', 'tool-progress');

    this.args = h(doc, 'details', 'tool-args');
    this.args.append(h(doc, 'summary', undefined, 'Arguments'));
    this.argsPre = h(doc, 'pre');
    this.args.append(this.argsPre);
    this.args.addEventListener('toggle', () => this.fillArgs());

    this.result = h(doc, 'details', 'tool-result');
    const resultSummary = h(doc, 'summary');
    this.resultSummary = h(doc, 'span', 'tool-result-preview');
    resultSummary.append(this.resultSummary);
    this.result.append(resultSummary);
    this.resultPre = h(doc, 'pre');
    this.result.append(this.resultPre);
    this.result.addEventListener('toggle', () => this.fillResult());

    this.el.append(header, this.approval, this.progress, this.args, this.result);
    this.render(item);
  }

  update(item: ChatItem): void {
    if (item.kind !== 'tool' || item === this.item) return;
    this.item = item;
    this.render(item);
  }

  dispose(): void {}

  private render(item: ToolItem): void {
    const pending = item.approval?.state === 'pending';
    setAttr(this.el, 'data-status', item.status);
    setAttr(this.el, 'data-approval', item.approval ? item.approval.state : null);
    setText(this.name, item.name);
    setText(this.summary, argsSummary(item.args));
    this.summary.title = item.args.length > 2000 ? item.args.slice(0, 2000) + '…' : item.args;
    setText(this.status, statusLabel(item));

    const approvalText = approvalLine(item);
    setHidden(this.approval, approvalText === '');
    setText(this.approval, approvalText);
    setAttr(this.approval, 'role', pending ? 'status' : null);

    setHidden(this.progress, !item.progress || item.status !== 'running');
    setText(this.progress, item.progress ?? '');

    if (this.args.open) this.fillArgs();

    const hasResult = item.result !== undefined;
    setHidden(this.result, !hasResult);
    if (hasResult) {
      setText(this.resultSummary, firstLine(item.result!) || '(empty result)');
      if (this.result.open) this.fillResult();
    }
  }

  private fillArgs(): void {
    if (this.args.open) setText(this.argsPre, this.item.args);
  }

  private fillResult(): void {
    if (this.result.open) setText(this.resultPre, this.item.result ?? '');
  }
}

function statusLabel(item: ToolItem): string {
  if (item.approval?.state === 'pending') return 'Waiting for approval';
  switch (item.status) {
    case 'running':
      return 'Running';
    case 'done':
      return item.durationMs !== undefined ? `Done in ${formatDuration(item.durationMs)}` : 'Done';
    case 'error':
      return 'Failed';
    case 'denied':
      return 'Denied';
  }
}

function approvalLine(item: ToolItem): string {
  const a = item.approval;
  if (!a) return '';
  switch (a.state) {
    case 'pending':
      return `Approve in the dialog: ${a.title || item.name}`;
    case 'denied':
      return a.reason ? `Not allowed: ${a.reason}` : 'Not allowed.';
    case 'approved':
      if (a.scope === 'session') return 'Allowed for this session.';
      if (a.scope === 'workspace') return 'Always allowed in this workspace.';
      return '';
  }
}

/** `{"path": "src/a.ts", "line": 3}` -> `path: src/a.ts, line: 3`, shortened. */
function argsSummary(args: string): string {
  let text = args;
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      text = Object.entries(parsed as Record<string, unknown>)
        .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(', ');
    }
  } catch {
    // Not JSON (a model's broken arguments): summarise the raw text.
  }
  return firstLine(text.replace(/\s+/g, ' '), 100);
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
