// Bounded line buffers: server stderr and logs must never grow without limit.

export interface RingBufferLimits {
  maxLines: number;
  maxBytes: number;
  /** Longer lines are cut (a minified stack trace can be one huge line). */
  maxLineLength: number;
}

export const DEFAULT_RING_LIMITS: RingBufferLimits = { maxLines: 200, maxBytes: 64 * 1024, maxLineLength: 2000 };

export class LineRingBuffer {
  private readonly lines: string[] = [];
  private bytes = 0;
  private dropped = 0;

  constructor(private readonly limits: RingBufferLimits = DEFAULT_RING_LIMITS) {}

  push(line: string): void {
    const text = line.length > this.limits.maxLineLength ? `${line.slice(0, this.limits.maxLineLength)}… [line cut]` : line;
    this.lines.push(text);
    this.bytes += text.length;
    while (this.lines.length > this.limits.maxLines || (this.bytes > this.limits.maxBytes && this.lines.length > 1)) {
      this.bytes -= this.lines.shift()!.length;
      this.dropped++;
    }
  }

  /** All kept lines, oldest first. */
  all(): string[] {
    return [...this.lines];
  }

  tail(count: number): string[] {
    return count <= 0 ? [] : this.lines.slice(-count);
  }

  /** How many lines were pushed out so far. */
  get droppedLines(): number {
    return this.dropped;
  }

  get size(): number {
    return this.lines.length;
  }
}

/** Splits a byte stream into lines; keeps an unterminated remainder (bounded) until the next chunk. */
export class LineSplitter {
  private partial = '';

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxPartial = 16 * 1024,
  ) {}

  write(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.onLine(line);
    if (this.partial.length > this.maxPartial) {
      this.onLine(this.partial);
      this.partial = '';
    }
  }

  flush(): void {
    if (this.partial) this.onLine(this.partial);
    this.partial = '';
  }
}
