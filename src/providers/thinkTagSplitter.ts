// Splits `<think>…</think>` reasoning out of streamed content. Tags may arrive split across chunks
// ("<th" + "ink>"), so a possible partial tag at the end of a chunk is held back until the next one.

export type SplitPiece = { kind: 'text' | 'thinking'; text: string };

const OPEN = '<think>';
const CLOSE = '</think>';

export class ThinkTagSplitter {
  private inThink = false;
  private pending = '';
  /** Models usually put blank lines after `</think>`; they are layout, not answer text. */
  private trimLeadingText = false;

  /** Feeds one content chunk; returns what can be emitted safely now. */
  push(chunk: string): SplitPiece[] {
    this.pending += chunk;
    const out: SplitPiece[] = [];
    for (;;) {
      const tag = this.inThink ? CLOSE : OPEN;
      const at = this.pending.indexOf(tag);
      // A stray `</think>` in text mode (the template opened the block for the model) is dropped, never shown.
      const strayClose = this.inThink ? -1 : this.pending.indexOf(CLOSE);
      if (strayClose >= 0 && (at < 0 || strayClose < at)) {
        this.emit(out, this.pending.slice(0, strayClose));
        this.pending = this.pending.slice(strayClose + CLOSE.length);
        this.trimLeadingText = true;
        continue;
      }
      if (at < 0) break;
      this.emit(out, this.pending.slice(0, at));
      this.pending = this.pending.slice(at + tag.length);
      this.inThink = !this.inThink;
      if (!this.inThink) this.trimLeadingText = true;
    }
    const keep = this.inThink ? partialTagLength(this.pending, [CLOSE]) : partialTagLength(this.pending, [OPEN, CLOSE]);
    this.emit(out, this.pending.slice(0, this.pending.length - keep));
    this.pending = this.pending.slice(this.pending.length - keep);
    return out;
  }

  /** End of stream: whatever is held back is plain content (or thinking, inside an unclosed block). */
  flush(): SplitPiece[] {
    const out: SplitPiece[] = [];
    this.emit(out, this.pending);
    this.pending = '';
    return out;
  }

  private emit(out: SplitPiece[], text: string): void {
    const kind = this.inThink ? 'thinking' : 'text';
    if (kind === 'text' && this.trimLeadingText) {
      text = text.replace(/^\s+/, '');
      if (text) this.trimLeadingText = false;
    }
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.kind === kind) last.text += text;
    else out.push({ kind, text });
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of one of `tags`. */
function partialTagLength(text: string, tags: string[]): number {
  let best = 0;
  for (const tag of tags) {
    for (let n = Math.min(tag.length - 1, text.length); n > best; n--) {
      if (text.endsWith(tag.slice(0, n))) {
        best = n;
        break;
      }
    }
  }
  return best;
}
