// Turning raw terminal output into text a model can read, within a fixed memory bound. Pure (unit-tested).

const ESCAPE_SOURCE = String.raw`\u001b\][\s\S]*?(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[()*+][0-9A-Za-z]|\u001b[0-9@-Z\\^_\`a-z{|}~=>]`;
/** Complete escape sequences: OSC (…BEL or …ESC \), CSI, and the short two/three-byte forms. */
const ESCAPES = new RegExp(ESCAPE_SOURCE, 'g');
/** The same, anchored at a given index. */
const ESCAPE_AT = new RegExp(ESCAPE_SOURCE, 'y');
/** Control characters other than tab, newline and carriage return (ESC goes with its sequence). */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f]/g;
/** An escape sequence may be cut between chunks; hold back at most this much while waiting for its end. */
const MAX_PENDING = 4096;

/** Strips escape sequences from a stream of chunks, carrying an unfinished sequence over to the next chunk. */
export class TerminalTextCleaner {
  private pending = '';

  feed(chunk: string): string {
    let text = this.pending + chunk;
    this.pending = '';
    for (let i = text.indexOf('\u001b'); i >= 0; ) {
      ESCAPE_AT.lastIndex = i;
      const match = ESCAPE_AT.exec(text);
      if (match) {
        i = text.indexOf('\u001b', i + match[0].length);
        continue;
      }
      // Not complete (yet): wait for the rest, unless it is too long to be a real sequence.
      if (text.length - i < MAX_PENDING) {
        this.pending = text.slice(i);
        text = text.slice(0, i);
      }
      break;
    }
    return clean(text);
  }

  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return clean(rest);
  }
}

function clean(text: string): string {
  // Whatever ESC is left did not start a known sequence: drop the ESC byte itself.
  return text.replace(ESCAPES, '').replace(CONTROLS, '').replace(/\u001b/g, '');
}

/** Applies carriage returns the way a terminal shows them: progress bars collapse to their last state. */
export function collapseCarriageReturns(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      // Keep the last non-empty redraw of the line.
      for (let i = parts.length - 1; i >= 0; i--) if (parts[i] !== '') return parts[i]!;
      return '';
    })
    .join('\n');
}

/** Keeps the first and last part of a long output in bounded memory; says how much was left out. */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number) {
    const max = Math.max(2, Math.floor(maxChars));
    this.headMax = Math.floor(max / 2);
    this.tailMax = max - this.headMax;
  }

  push(chunk: string): void {
    if (!chunk) return;
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (!rest) return;
    this.tail += rest;
    // Trim lazily (at twice the bound) so a stream of small chunks doesn't copy the tail on every push.
    if (this.tail.length > this.tailMax * 2) this.tail = this.tail.slice(this.tail.length - this.tailMax);
  }

  get length(): number {
    return this.total;
  }

  text(): string {
    const tail = this.tail.length > this.tailMax ? this.tail.slice(this.tail.length - this.tailMax) : this.tail;
    const omitted = this.total - this.head.length - tail.length;
    if (omitted <= 0) return this.head + tail;
    return `${this.head}\n[… ${omitted} characters of output omitted …]\n${tail}`;
  }
}
