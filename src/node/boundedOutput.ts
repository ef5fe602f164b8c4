// Captures a process's output in bounded memory: the first part is kept whole, the rest in a tail ring.
// The middle is dropped and counted, so a chatty build can print megabytes without growing this buffer.

export class BoundedOutput {
  private head = '';
  private readonly headCap: number;
  private readonly tailCap: number;
  /** Tail chunks, oldest first; their total length never exceeds tailCap after a push. */
  private tail: string[] = [];
  private tailLength = 0;
  private dropped = 0;

  constructor(maxChars: number) {
    const cap = Math.max(0, Math.floor(maxChars));
    // The end of a log usually holds the error and the summary, so the tail gets more room.
    this.headCap = Math.floor(cap * 0.4);
    this.tailCap = cap - this.headCap;
  }

  push(text: string): void {
    if (!text) return;
    if (this.head.length < this.headCap) {
      const room = this.headCap - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
      if (!text) return;
    }
    if (text.length >= this.tailCap) {
      this.dropped += this.tailLength + text.length - this.tailCap;
      this.tail = this.tailCap > 0 ? [text.slice(text.length - this.tailCap)] : [];
      this.tailLength = this.tailCap;
      return;
    }
    this.tail.push(text);
    this.tailLength += text.length;
    while (this.tailLength > this.tailCap) {
      const first = this.tail[0]!;
      const excess = this.tailLength - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.slice(excess);
        this.tailLength -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Characters that were dropped from the middle. */
  get omitted(): number {
    return this.dropped;
  }

  toString(): string {
    const tail = this.tail.join('');
    if (this.dropped === 0) return this.head + tail;
    return `${this.head}\n[… ${this.dropped} characters of output omitted …]\n${tail}`;
  }
}
