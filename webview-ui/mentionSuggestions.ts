// The list under an `@word` in the message box: files and folders (what .gitignore leaves in), problems, the last
// terminal command and workspace symbols, as the host offers them for what is typed. Arrows move, Enter or Tab
// picks, Escape closes, a click picks. Picking replaces `@word` with `@name` and asks the host for the chip.
import { mentionAtCursor, replaceMention, type MentionCandidate } from '../src/shared/mentions';
import type { HostChannel } from './host';
import { h } from './dom';
import { hideListbox, showListbox } from './listbox';

const LIST_ID = 'mention-suggestions';
const ICONS: Record<MentionCandidate['kind'], string> = { file: '\u{1F4C4}', folder: '\u{1F4C1}', problems: '\u26A0', terminal: '>_', symbol: '\u0192' };

export class MentionSuggestions {
  readonly el: HTMLElement;
  private shown: MentionCandidate[] = [];
  private active = 0;
  private asked: string | undefined;
  private dismissedFor: string | undefined;

  constructor(
    private readonly doc: Document,
    private readonly input: HTMLTextAreaElement,
    private readonly channel: HostChannel,
  ) {
    this.el = h(doc, 'div', 'slash-suggestions mention-suggestions');
    this.el.id = LIST_ID;
    this.el.setAttribute('role', 'listbox');
    this.el.setAttribute('aria-label', 'Mentions');
    this.el.hidden = true;
    this.el.addEventListener('mousedown', (e) => {
      const target = e.target as Element | null;
      const option = target && typeof target.closest === 'function' ? target.closest('[data-index]') : null;
      const index = option?.getAttribute('data-index');
      if (index === null || index === undefined) return;
      e.preventDefault();
      this.pick(this.shown[Number(index)]!);
    });
    input.addEventListener('blur', () => this.hide());
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  /** After every change of the box's text: asks the host for what matches the `@word` at the caret. */
  refresh(): void {
    const value = this.input.value;
    if (this.dismissedFor !== undefined && this.dismissedFor !== value) this.dismissedFor = undefined;
    const at = this.dismissedFor === undefined ? mentionAtCursor(value, this.input.selectionStart ?? value.length) : undefined;
    if (!at) {
      this.asked = undefined;
      this.hide();
      return;
    }
    if (at.query === this.asked) return;
    this.asked = at.query;
    this.channel.post({ type: 'mentionQuery', query: at.query });
  }

  /** The host's answer; an answer for a query no longer typed is dropped. */
  setCandidates(query: string, items: readonly MentionCandidate[]): void {
    if (query !== this.asked) return;
    this.shown = [...items];
    this.active = 0;
    if (this.shown.length === 0) this.hide();
    else this.render();
  }

  handleKey(e: KeyboardEvent): boolean {
    if (!this.isOpen || e.isComposing) return false;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        this.active = (this.active + (e.key === 'ArrowDown' ? 1 : -1) + this.shown.length) % this.shown.length;
        this.render();
        e.preventDefault();
        return true;
      case 'Enter':
      case 'Tab':
        if (e.shiftKey) return false;
        e.preventDefault();
        this.pick(this.shown[this.active]!);
        return true;
      case 'Escape':
        this.dismissedFor = this.input.value;
        this.hide();
        e.preventDefault();
        return true;
      default:
        return false;
    }
  }

  private pick(candidate: MentionCandidate): void {
    const value = this.input.value;
    const cursor = this.input.selectionStart ?? value.length;
    const at = mentionAtCursor(value, cursor);
    if (at) {
      const next = replaceMention(value, at.start, cursor, candidate.label);
      this.input.value = next.text;
      this.input.setSelectionRange(next.cursor, next.cursor);
    }
    this.channel.post({ type: 'mention', candidate });
    this.asked = undefined;
    this.hide();
    this.input.dispatchEvent(new this.doc.defaultView!.Event('input', { bubbles: true }));
    this.input.focus();
  }

  private render(): void {
    const options = this.shown.map((c, i) => {
      const option = h(this.doc, 'div', 'slash-option mention-option');
      option.id = `${LIST_ID}-${i}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', String(i === this.active));
      option.dataset['index'] = String(i);
      option.dataset['kind'] = c.kind;
      option.append(h(this.doc, 'span', 'mention-icon', ICONS[c.kind]), h(this.doc, 'span', 'slash-command', c.label));
      if (c.detail) option.append(h(this.doc, 'span', 'slash-description', c.detail));
      return option;
    });
    showListbox(this.el, this.input, LIST_ID, options, this.active);
  }

  private hide(): void {
    if (!hideListbox(this.el, this.input)) return;
    this.shown = [];
    this.active = 0;
  }
}
