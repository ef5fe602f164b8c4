// The message box: Enter sends, Shift+Enter breaks the line, Escape stops a running turn. Sent text is
// kept until the host shows it as a user message; if the host answers with an error instead, it comes back.
// A `/` at the start suggests the MCP prompts; the "@" button attaches an MCP resource (both offered by the host).
import type { ChatViewState, HostToWebview } from '../src/shared/protocol';
import { WebviewToHostSchema, describeIssues } from '../src/shared/protocol';
import type { HostChannel } from './host';
import type { Layout } from './layout';
import type { UiStateStore } from './uiState';
import { AttachmentChips } from './attachmentChips';
import { h } from './dom';
import { SlashSuggestions } from './slashSuggestions';
import { ImageAttachments } from './imageAttachments';
import { MentionSuggestions } from './mentionSuggestions';
import type { ImageUpload } from '../src/shared/imageUpload';

export class Composer {
  private busy = false;
  private pendingText: string | undefined;
  private readonly chips: AttachmentChips;
  private readonly suggestions: SlashSuggestions;
  private readonly attachResource: HTMLButtonElement;
  readonly images: ImageAttachments;
  readonly mentions: MentionSuggestions;
  private pendingImages: ImageUpload[] = [];

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

    this.suggestions = new SlashSuggestions(input.ownerDocument, input);
    // Above the chips, which stay right above the box they belong to.
    this.chips.el.before(this.suggestions.el);
    this.mentions = new MentionSuggestions(input.ownerDocument, input, channel);
    this.chips.el.before(this.mentions.el);
    // Pasted and dropped images: chips with thumbnails, right above the code chips.
    this.images = new ImageAttachments(input.ownerDocument, (text) => this.showError(text), () => this.onChange());
    this.chips.el.before(this.images.el);
    this.images.listen(input.parentElement ?? input);
    this.attachResource = h(input.ownerDocument, 'button', 'icon-button attach-resource', '@');
    this.attachResource.type = 'button';
    this.attachResource.setAttribute('aria-label', 'Attach MCP resource');
    this.attachResource.title = 'Attach a resource of an MCP server (read when you send)';
    this.attachResource.hidden = true;
    this.attachResource.addEventListener('click', () => this.channel.post({ type: 'runCommand', command: 'attachMcpResource' }));
    layout.send.parentElement?.prepend(this.attachResource);
    input.value = ui.get().draft;
    input.addEventListener('input', () => {
      this.ui.patch({ draft: input.value });
      this.clearError();
      this.suggestions.refresh();
      this.mentions.refresh();
      this.onChange();
    });
    input.addEventListener('keydown', (e) => {
      if (this.suggestions.handleKey(e)) return;
      if (this.mentions.handleKey(e)) return;
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

  /** The prompts and resources of the ready MCP servers. */
  setMcpOffers(offers: Extract<HostToWebview, { type: 'mcpOffers' }>): void {
    this.suggestions.setCommands(offers.prompts);
    this.attachResource.hidden = offers.resources === 0;
  }

  prefill(text: string): void {
    // Also the way a cancelled `/prompt` comes back: it is no longer waiting to appear as a user message.
    this.pendingText = undefined;
    this.layout.input.value = text;
    this.ui.patch({ draft: text });
    this.onChange();
    this.focus();
  }

  send(): void {
    const text = this.layout.input.value;
    if (this.busy || text.trim() === '') return;
    const images = this.images.take();
    const message = { type: 'send' as const, text, ...(images.length && { images }) };
    // Same schema the host applies: a message it would drop is refused here, with the text left in place.
    const check = WebviewToHostSchema.safeParse(message);
    if (!check.success) {
      this.images.restore(images);
      this.showError(`This message cannot be sent: ${describeIssues(check.error)}. Shorten it and try again.`);
      return;
    }
    this.channel.post(message);
    this.pendingText = text;
    this.pendingImages = images;
    this.layout.input.value = '';
    this.ui.patch({ draft: '' });
    this.onChange();
  }

  /** After each state change: the sent text either appeared as a user message, or an error came first. */
  observe(previous: ChatViewState | null, next: ChatViewState): void {
    this.chips.render(next.attachments);
    this.watchSentImages(next);
    if (this.pendingText === undefined) return;
    const from = previous && next.items.length >= previous.items.length ? previous.items.length : 0;
    for (let i = from; i < next.items.length; i++) {
      const item = next.items[i]!;
      if (item.kind === 'user') {
        this.pendingText = undefined;
        if (this.pendingImages.length) this.sentImages = { userId: item.id, images: this.pendingImages };
        this.pendingImages = [];
        this.watchSentImages(next);
        return;
      }
      if (item.kind === 'error') {
        if (this.layout.input.value === '') {
          this.layout.input.value = this.pendingText;
          this.ui.patch({ draft: this.pendingText });
        }
        this.images.restore(this.pendingImages);
        this.pendingImages = [];
        this.pendingText = undefined;
        this.onChange();
        return;
      }
    }
  }

  /**
   * Images of a message refused before anything reached the model (a model that cannot see: an error right after
   * the user message, no reply) come back to the box; once the model answers, they belong to the conversation.
   */
  private watchSentImages(state: ChatViewState): void {
    const sent = this.sentImages;
    if (!sent) return;
    const at = state.items.findIndex((x) => x.id === sent.userId);
    const after = at < 0 ? [] : state.items.slice(at + 1);
    if (at < 0 || after.some((x) => x.kind === 'assistant' || x.kind === 'tool')) this.sentImages = undefined;
    else if (after.some((x) => x.kind === 'error')) {
      this.sentImages = undefined;
      this.images.restore(sent.images);
    } else if (!state.busy) this.sentImages = undefined;
  }
  private sentImages: { userId: string; images: ImageUpload[] } | undefined;

  private showError(text: string): void {
    this.layout.inputError.textContent = text;
    this.layout.inputError.hidden = false;
  }

  private clearError(): void {
    if (!this.layout.inputError.hidden) this.layout.inputError.hidden = true;
  }
}
