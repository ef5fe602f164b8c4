// The suggestion list under a `/` typed at the start of the message box: the MCP prompts the host offers, with
// their descriptions. Arrows move, Enter or Tab picks, Escape closes; a click picks too. Picking puts
// `/server.prompt ` into the box; the host runs it when the message is sent.
import { applySlashCommand, matchSlashCommands, slashQuery } from '../src/shared/slashCommand';
import type { SlashCommand } from '../src/shared/protocol';
import { h } from './dom';
import { hideListbox, showListbox } from './listbox';

const LIST_ID = 'slash-suggestions';

export class SlashSuggestions {
  readonly el: HTMLElement;
  private commands: readonly SlashCommand[] = [];
  private shown: SlashCommand[] = [];
  private active = 0;
  /** The box's text when Escape closed the list: it stays closed until the text changes. */
  private dismissedFor: string | undefined;

  constructor(
    private readonly doc: Document,
    private readonly input: HTMLTextAreaElement,
  ) {
    this.el = h(doc, 'div', 'slash-suggestions');
    this.el.id = LIST_ID;
    this.el.setAttribute('role', 'listbox');
    this.el.setAttribute('aria-label', 'Prompts');
    this.el.hidden = true;
    input.setAttribute('aria-controls', LIST_ID);
    input.setAttribute('aria-autocomplete', 'list');
    // mousedown, not click: the box keeps its focus (and caret) while an option is chosen.
    this.el.addEventListener('mousedown', (e) => {
      const target = e.target as Element | null;
      const option = target && typeof target.closest === 'function' ? target.closest('[data-command]') : null;
      const command = option?.getAttribute('data-command');
      if (!command) return;
      e.preventDefault();
      this.pick(command);
    });
    input.addEventListener('click', () => this.refresh());
    input.addEventListener('keyup', (e) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) this.refresh();
    });
    input.addEventListener('blur', () => this.hide());
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  setCommands(commands: readonly SlashCommand[]): void {
    this.commands = commands;
    this.refresh();
  }

  /** After every change of the box's text or caret. */
  refresh(): void {
    const value = this.input.value;
    if (this.dismissedFor !== undefined && this.dismissedFor !== value) this.dismissedFor = undefined;
    const query = this.dismissedFor === undefined ? slashQuery(value, this.input.selectionStart ?? value.length) : undefined;
    const matches = query === undefined ? [] : matchSlashCommands(query, this.commands);
    if (matches.length === 0) {
      this.hide();
      return;
    }
    const current = this.shown[this.active]?.command;
    this.shown = matches;
    this.active = Math.max(0, matches.findIndex((m) => m.command === current));
    this.render();
  }

  /** The message box's keydown, before its own handling: true when the list used the key. */
  handleKey(e: KeyboardEvent): boolean {
    if (!this.isOpen || e.isComposing) return false;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const step = e.key === 'ArrowDown' ? 1 : -1;
        this.active = (this.active + step + this.shown.length) % this.shown.length;
        this.render();
        e.preventDefault();
        return true;
      }
      case 'Enter':
      case 'Tab': {
        if (e.shiftKey) return false;
        const chosen = this.shown[this.active]!;
        // The whole command typed already: Enter sends it, as if there were no list.
        if (e.key === 'Enter' && /^\/[^\s]*/.exec(this.input.value)?.[0] === `/${chosen.command}`) {
          this.hide();
          return false;
        }
        e.preventDefault();
        this.pick(chosen.command);
        return true;
      }
      case 'Escape':
        this.dismissedFor = this.input.value;
        this.hide();
        e.preventDefault();
        return true;
      default:
        return false;
    }
  }

  private pick(command: string): void {
    const next = applySlashCommand(this.input.value, command);
    this.input.value = next.text;
    this.input.setSelectionRange(next.caret, next.caret);
    this.hide();
    // The composer saves the draft and redraws its controls on `input`, as for typing.
    this.input.dispatchEvent(new this.doc.defaultView!.Event('input', { bubbles: true }));
    this.input.focus();
  }

  private render(): void {
    const options = this.shown.map((command, i) => {
      const option = h(this.doc, 'div', 'slash-option');
      option.id = `${LIST_ID}-${i}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', String(i === this.active));
      option.dataset['command'] = command.command;
      const name = h(this.doc, 'span', 'slash-command', `/${command.command}`);
      const about = [command.title, command.description].filter(Boolean).join(' \u2014 ');
      option.append(name);
      if (about) option.append(h(this.doc, 'span', 'slash-description', about));
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
