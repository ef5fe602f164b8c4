// The message box: Enter sends, Shift+Enter breaks the line, Escape stops a running turn. Sent text is
// kept until the host shows it as a user message; if the host answers with an error instead, it comes back.
import type { ChatViewState } from '../src/shared/protocol';
import { WebviewToHostSchema, describeIssues } from '../src/shared/protocol';
import type { HostChannel } from './host';
import type { Layout } from './layout';
import type { UiStateStore } from './uiState';
import { AttachmentChips } from './attachmentChips';

export class Composer {
  private busy = false;
  private pendingText: string | undefined;
  private readonly chips: AttachmentChips;

  constructor(
    private readonly layout: Layout,
    private readonly channel: HostChannel,
    private readonly ui: UiStateStore,
    private readonly onChange: () => void,
  ) {
    const input = layout.input;
    // The chips sit right above the message box they belong to.
    this.chips = new AttachmentChips(input.ownerDocument, (id) => this.channel.post({ type: 'removeAttachment', id }));
    input.before(this.chips.el);
    input.value = ui.get().draft;
    input.addEventListener('input', () => {
      this.ui.patch({ draft: input.value });
      this.clearError();
      this.onChange();
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.send();
      } else if (e.key === 'Escape' && this.busy) {
        e.preventDefault();
        this.channel.post({ type: 'stop' });
      }
    });
    layout.send.addEventListener('click', () => this.send());
    layout.stop.addEventListener('click', () => this.channel.post({ type: 'stop' }));
  }

  get hasDraft(): boolean {
    return this.layout.input.value.trim() !== '';
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
  }

  focus(): void {
    this.layout.input.focus();
  }

  prefill(text: string): void {
    this.layout.input.value = text;
    this.ui.patch({ draft: text });
    this.onChange();
    this.focus();
  }

  send(): void {
    const text = this.layout.input.value;
    if (this.busy || text.trim() === '') return;
    const message = { type: 'send' as const, text };
    // Same schema the host applies: a message it would drop is refused here, with the text left in place.
    const check = WebviewToHostSchema.safeParse(message);
    if (!check.success) {
      this.showError(`This message cannot be sent: ${describeIssues(check.error)}. Shorten it and try again.`);
      return;
    }
    this.channel.post(message);
    this.pendingText = text;
    this.layout.input.value = '';
    this.ui.patch({ draft: '' });
    this.onChange();
  }

  /** After each state change: the sent text either appeared as a user message, or an error came first. */
  observe(previous: ChatViewState | null, next: ChatViewState): void {
    this.chips.render(next.attachments);
    if (this.pendingText === undefined) return;
    const from = previous && next.items.length >= previous.items.length ? previous.items.length : 0;
    for (let i = from; i < next.items.length; i++) {
      const item = next.items[i]!;
      if (item.kind === 'user') {
        this.pendingText = undefined;
        return;
      }
      if (item.kind === 'error') {
        if (this.layout.input.value === '') {
          this.layout.input.value = this.pendingText;
          this.ui.patch({ draft: this.pendingText });
        }
        this.pendingText = undefined;
        this.onChange();
        return;
      }
    }
  }

  private showError(text: string): void {
    this.layout.inputError.textContent = text;
    this.layout.inputError.hidden = false;
  }

  private clearError(): void {
    if (!this.layout.inputError.hidden) this.layout.inputError.hidden = true;
  }
}
