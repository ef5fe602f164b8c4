// Splits streamed text into plain text and tagged blocks (`<tool>…</tool>`, `<think>…</think>`), with tags
// that may be cut anywhere between chunks. Plain text is released as soon as it cannot be the start of a tag.

export type TagSegment =
  | { kind: 'text'; text: string }
  /** A finished block: what was between the tags. */
  | { kind: 'block'; tag: string; content: string }
  /** Part of a block still open, for streaming blocks such as thinking. Only when `streamBlocks` is set. */
  | { kind: 'block_part'; tag: string; text: string };

export interface TagStreamOptions {
  /** Tag names, e.g. ['tool', 'tool_call']. A block closes only with its own closing tag. */
  tags: readonly string[];
  /**
   * Blocks hold JSON: a closing tag inside a JSON string ("</tool>" in file content) does not close the block.
   */
  jsonAware?: boolean;
  /** Emit block content as it arrives (block_part) instead of once at the end (block). */
  streamBlocks?: boolean;
}

export interface TagStreamEnd {
  segments: TagSegment[];
  /** Content of a block whose closing tag never came (the model stopped mid-block). */
  unterminated?: { tag: string; content: string };
}

export class TagStreamSplitter {
  private buffer = '';
  private openTag: string | undefined;
  /** JSON string state inside a block, carried across chunks. */
  private inString = false;
  private escaped = false;
  /** How much of `buffer` (inside a block) has been scanned for the closing tag already. */
  private scanned = 0;
  private readonly openers: string[];

  constructor(private readonly options: TagStreamOptions) {
    this.openers = options.tags.map((t) => `<${t}>`);
  }

  push(chunk: string): TagSegment[] {
    this.buffer += chunk;
    const out: TagSegment[] = [];
    for (;;) {
      if (this.openTag === undefined) {
        if (!this.consumeText(out)) break;
      } else if (!this.consumeBlock(out)) break;
    }
    return out;
  }

  end(): TagStreamEnd {
    const segments: TagSegment[] = [];
    if (this.openTag === undefined) {
      if (this.buffer) segments.push({ kind: 'text', text: this.buffer });
      this.buffer = '';
      return { segments };
    }
    const tag = this.openTag;
    const content = this.buffer;
    const closer = `</${tag}>`;
    const plainClose = this.options.jsonAware ? content.indexOf(closer) : -1;
    if (plainClose >= 0) {
      // Broken JSON quoting hid the closing tag: close at the first plain one and parse the rest again.
      this.reset();
      segments.push({ kind: 'block', tag, content: content.slice(0, plainClose) });
      segments.push(...this.push(content.slice(plainClose + closer.length)));
      const rest = this.end();
      return { segments: [...segments, ...rest.segments], ...(rest.unterminated && { unterminated: rest.unterminated }) };
    }
    this.reset();
    if (this.options.streamBlocks) {
      if (content) segments.push({ kind: 'block_part', tag, text: content });
      return { segments, unterminated: { tag, content: '' } };
    }
    return { segments, unterminated: { tag, content } };
  }

  private reset(): void {
    this.buffer = '';
    this.openTag = undefined;
    this.inString = false;
    this.escaped = false;
    this.scanned = 0;
  }

  /** Outside a block: release text up to the next opener. Returns true when a block was opened. */
  private consumeText(out: TagSegment[]): boolean {
    let best = -1;
    let opener = '';
    for (const o of this.openers) {
      const i = this.buffer.indexOf(o);
      if (i >= 0 && (best < 0 || i < best)) {
        best = i;
        opener = o;
      }
    }
    if (best >= 0) {
      if (best > 0) out.push({ kind: 'text', text: this.buffer.slice(0, best) });
      this.buffer = this.buffer.slice(best + opener.length);
      this.openTag = opener.slice(1, -1);
      this.scanned = 0;
      return true;
    }
    // Hold back a tail that could still become an opener ("<to" + "ol>").
    const hold = this.partialOpenerLength();
    const release = this.buffer.length - hold;
    if (release > 0) out.push({ kind: 'text', text: this.buffer.slice(0, release) });
    this.buffer = this.buffer.slice(release);
    return false;
  }

  private partialOpenerLength(): number {
    const start = this.buffer.lastIndexOf('<');
    if (start < 0) return 0;
    const tail = this.buffer.slice(start);
    return this.openers.some((o) => o.length > tail.length && o.startsWith(tail)) ? tail.length : 0;
  }

  /** Inside a block: look for the closing tag. Returns true when the block closed. */
  private consumeBlock(out: TagSegment[]): boolean {
    const tag = this.openTag!;
    const closer = `</${tag}>`;
    const close = this.options.jsonAware ? this.findCloserOutsideStrings(closer) : this.buffer.indexOf(closer);
    if (close >= 0) {
      const content = this.buffer.slice(0, close);
      if (this.options.streamBlocks) {
        if (content) out.push({ kind: 'block_part', tag, text: content });
      } else out.push({ kind: 'block', tag, content });
      this.buffer = this.buffer.slice(close + closer.length);
      this.openTag = undefined;
      this.inString = false;
      this.escaped = false;
      this.scanned = 0;
      return true;
    }
    if (this.options.streamBlocks) {
      // Release all but a tail that could be the start of the closing tag.
      const start = this.buffer.lastIndexOf('<');
      const hold = start >= 0 && closer.startsWith(this.buffer.slice(start)) ? this.buffer.length - start : 0;
      const release = this.buffer.length - hold;
      if (release > 0) out.push({ kind: 'block_part', tag, text: this.buffer.slice(0, release) });
      this.buffer = this.buffer.slice(release);
      this.scanned = Math.max(0, this.scanned - release);
    }
    return false;
  }

  /** Scan from where the last chunk stopped, tracking JSON strings, so each character is visited once. */
  private findCloserOutsideStrings(closer: string): number {
    const b = this.buffer;
    for (let i = this.scanned; i < b.length; i++) {
      const c = b[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (c === '"') {
        this.inString = true;
        continue;
      }
      if (c === '<') {
        if (i + closer.length > b.length) {
          // Maybe a closing tag cut in half: rescan from here next time.
          if (closer.startsWith(b.slice(i))) {
            this.scanned = i;
            return -1;
          }
          continue;
        }
        if (b.startsWith(closer, i)) return i;
      }
    }
    this.scanned = b.length;
    return -1;
  }
}
