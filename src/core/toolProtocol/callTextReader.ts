// Reads streamed reply text with the call-syntax table: prose is released as soon as it cannot be the start of a
// call; text that begins like a known call syntax is held back until a row says what it is (a call, an unreadable
// call, or prose after all), so a call written as text never reaches the user as part of the answer.
import { CALL_SYNTAXES } from './callSyntaxes';
import type { CallSyntax, Region, RowContext } from './writtenCalls';

export type ReadPiece = { kind: 'text'; text: string } | { kind: 'region'; region: Region };

/** Characters a call syntax may begin with (`<tool…`, `<|channel|>`, `[TOOL_CALLS]`, `{"name"…`, a ``` fence). */
const CANDIDATES = new Set(['<', '[', '{', '`']);
/** Above this many held characters, a held start is read again only after the text grew by an eighth (no quadratic rescans). */
const RESCAN_FREELY_BELOW = 256;

export class CallTextReader {
  private buffer = '';
  /** Inside a ``` block that is not a call: JSON there is an example, not a call. */
  private inFence = false;
  /** Buffer length when the held start last needed more text. */
  private heldAt = -1;
  private readonly inFenceRows: readonly CallSyntax[];

  constructor(
    private readonly ctx: RowContext,
    private readonly rows: readonly CallSyntax[] = CALL_SYNTAXES,
  ) {
    this.inFenceRows = rows.filter((r) => r.id !== 'json');
  }

  push(chunk: string): ReadPiece[] {
    this.buffer += chunk;
    if (this.heldAt >= RESCAN_FREELY_BELOW && this.buffer.length < this.heldAt + (this.heldAt >> 3)) return [];
    return this.drain(false);
  }

  /** The stream ended: every held text is decided now. */
  end(): ReadPiece[] {
    return this.drain(true);
  }

  private drain(final: boolean): ReadPiece[] {
    const out: ReadPiece[] = [];
    const emit = (text: string) => {
      if (!text) return;
      const last = out[out.length - 1];
      if (last?.kind === 'text') last.text += text;
      else out.push({ kind: 'text', text });
    };
    this.heldAt = -1;
    let i = 0;
    while (i < this.buffer.length) {
      const c = this.buffer[i]!;
      if (!CANDIDATES.has(c)) {
        i++;
        continue;
      }
      const found = this.readAt(i, final);
      if (found === 'more') {
        emit(this.buffer.slice(0, i));
        this.buffer = this.buffer.slice(i);
        this.heldAt = this.buffer.length;
        return out;
      }
      if (found) {
        emit(this.buffer.slice(0, i));
        out.push({ kind: 'region', region: found });
        this.buffer = this.buffer.slice(Math.max(found.end, i + 1));
        i = 0;
        continue;
      }
      if (c === '`' && this.buffer.startsWith('```', i)) {
        this.inFence = !this.inFence;
        i += 3;
        continue;
      }
      i++;
    }
    // A fence may be cut between chunks ("``" + "`ts"): keep its start so it is seen whole.
    const tail = final ? 0 : (/`{1,2}$/.exec(this.buffer)?.[0].length ?? 0);
    emit(this.buffer.slice(0, this.buffer.length - tail));
    this.buffer = this.buffer.slice(this.buffer.length - tail);
    return out;
  }

  private readAt(at: number, final: boolean): Region | 'more' | undefined {
    // In table order: a row that cannot tell yet holds the text, even when a later row could read it already.
    for (const row of this.inFence ? this.inFenceRows : this.rows) {
      const result = row.read(this.buffer, at, final, this.ctx);
      if (result) return result;
    }
    return undefined;
  }
}
