// Images in the message box: pasted, dropped or sent by the host (the explorer's "Attach Image to Chat"). Each is
// drawn onto a canvas no larger than the setting's size (a GIF's first frame; metadata such as a photo's location
// does not survive) and shown as a chip with a thumbnail until the message is sent.
import { MAX_IMAGES_PER_MESSAGE, MAX_THUMBNAIL, THUMBNAIL_SIZE, type ImageUpload } from '../src/shared/imageUpload';
import { h } from './dom';

const TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

export class ImageAttachments {
  readonly el: HTMLElement;
  private images: ImageUpload[] = [];
  private maxDimension = 1024;
  private pasted = 0;

  constructor(
    private readonly doc: Document,
    private readonly onError: (text: string) => void,
    private readonly onChange: () => void,
  ) {
    this.el = h(doc, 'div', 'image-chips');
    this.el.setAttribute('role', 'list');
    this.el.setAttribute('aria-label', 'Attached images');
    this.el.hidden = true;
  }

  /** Paste and drop on `target` (the message box and the area around it). */
  listen(target: HTMLElement): void {
    target.addEventListener('paste', (e) => {
      const files = [...(e.clipboardData?.items ?? [])].filter((i) => i.kind === 'file' && TYPES.has(i.type)).map((i) => i.getAsFile());
      if (files.length === 0) return; // text pastes as text
      e.preventDefault();
      for (const file of files) if (file) void this.addBlob(file, file.name && file.name !== 'image.png' ? file.name : `pasted image ${++this.pasted}.png`);
    });
    target.addEventListener('dragover', (e) => {
      if ([...(e.dataTransfer?.items ?? [])].some((i) => i.kind === 'file')) e.preventDefault();
    });
    target.addEventListener('drop', (e) => {
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      e.preventDefault();
      for (const file of files) {
        if (TYPES.has(file.type)) void this.addBlob(file, file.name);
        else this.onError(`${file.name} is not a PNG, JPEG, WebP or GIF image.`);
      }
    });
  }

  setMaxDimension(max: number): void {
    this.maxDimension = max;
  }

  get count(): number {
    return this.images.length;
  }

  /** An image the host sent as a data URL. */
  async addDataUrl(upload: ImageUpload): Promise<void> {
    const [head, data] = upload.dataUrl.split(',', 2);
    const bytes = Uint8Array.from(atob(data ?? ''), (c) => c.charCodeAt(0));
    await this.addBlob(new Blob([bytes], { type: /^data:([^;]+)/.exec(head ?? '')?.[1] ?? 'image/png' }), upload.name);
  }

  /** The images to send with the message; the box is empty afterwards. */
  take(): ImageUpload[] {
    const taken = this.images;
    this.images = [];
    this.render();
    return taken;
  }

  /** Images of a message that could not be sent come back. */
  restore(images: readonly ImageUpload[]): void {
    this.images = [...images, ...this.images].slice(0, MAX_IMAGES_PER_MESSAGE);
    this.render();
  }

  private async addBlob(blob: Blob, name: string): Promise<void> {
    if (this.images.length >= MAX_IMAGES_PER_MESSAGE) {
      this.onError(`At most ${MAX_IMAGES_PER_MESSAGE} images go with one message.`);
      return;
    }
    try {
      const bitmap = await createImageBitmap(blob);
      const jpeg = blob.type === 'image/jpeg' || blob.type === 'image/webp';
      try {
        // The chat keeps a small thumbnail of the sent message's image (the host has no image decoder).
        const thumb = this.draw(bitmap, THUMBNAIL_SIZE, jpeg);
        const thumbnail = thumb.length <= MAX_THUMBNAIL ? thumb : this.draw(bitmap, THUMBNAIL_SIZE, true);
        this.images.push({ name, dataUrl: this.draw(bitmap, this.maxDimension, jpeg), ...(thumbnail.length <= MAX_THUMBNAIL && { thumbnail }) });
      } finally {
        bitmap.close();
      }
      this.render();
    } catch (err) {
      this.onError(`${name} could not be read as an image (${err instanceof Error ? err.message : String(err)}).`);
    }
  }

  /** Draws the picture (a GIF's first frame) at most `max` px on its longer side; PNG keeps transparency. */
  private draw(bitmap: ImageBitmap, max: number, jpeg: boolean): string {
    const scale = Math.min(1, max / Math.max(bitmap.width, bitmap.height));
    const canvas = this.doc.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no canvas');
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return jpeg ? canvas.toDataURL('image/jpeg', 0.88) : canvas.toDataURL('image/png');
  }

  private render(): void {
    this.el.replaceChildren(...this.images.map((image, i) => this.chip(image, i)));
    this.el.hidden = this.images.length === 0;
    this.onChange();
  }

  private chip(image: ImageUpload, index: number): HTMLElement {
    const chip = h(this.doc, 'span', 'attachment-chip image-chip');
    chip.setAttribute('role', 'listitem');
    chip.title = image.name;
    const thumb = h(this.doc, 'img', 'image-thumb');
    thumb.src = image.dataUrl;
    thumb.alt = '';
    const label = h(this.doc, 'span', 'attachment-label', image.name);
    const remove = h(this.doc, 'button', 'attachment-remove', '×');
    remove.type = 'button';
    remove.setAttribute('aria-label', `Remove ${image.name}`);
    remove.title = `Remove ${image.name}`;
    remove.addEventListener('click', () => {
      this.images.splice(index, 1);
      this.render();
    });
    chip.append(thumb, label, remove);
    return chip;
  }
}
