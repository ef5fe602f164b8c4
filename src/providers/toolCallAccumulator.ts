// Rebuilds OpenAI-style streamed tool calls. The first piece of a call carries index, id, type, name and
// maybe the first bit of `arguments`; later pieces carry only index and more `arguments`. Some servers
// send the whole arguments at once, omit the index, or repeat the name in every piece.
import { ProviderError } from '../core/provider';
import type { ToolCall } from '../core/messages';

export interface ToolCallPiece {
  index?: number;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: string | Record<string, unknown> | null } | null;
}

interface PendingCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

export class ToolCallAccumulator {
  private readonly calls = new Map<number, PendingCall>();
  private lastIndex = -1;

  constructor(private readonly newId: () => string) {}

  get size(): number {
    return this.calls.size;
  }

  add(piece: ToolCallPiece): void {
    const index = this.indexOf(piece);
    let call = this.calls.get(index);
    if (!call) {
      call = { index, id: '', name: '', arguments: '' };
      this.calls.set(index, call);
    }
    this.lastIndex = index;
    if (piece.id && !call.id) call.id = piece.id;
    const name = piece.function?.name;
    // A repeated full name is the same call, not a longer name.
    if (name && name !== call.name) call.name += name;
    const args = piece.function?.arguments;
    if (typeof args === 'string') call.arguments += args;
    else if (args && typeof args === 'object') call.arguments += JSON.stringify(args);
  }

  /** The finished calls in index order. Arguments stay the raw string; the tool registry parses them. */
  finish(): ToolCall[] {
    return [...this.calls.values()]
      .sort((a, b) => a.index - b.index)
      .map((call) => {
        if (!call.name) {
          throw new ProviderError(
            'invalid_response',
            `The server streamed a tool call (index ${call.index}) without a function name; arguments were: ${call.arguments.slice(0, 200)}`,
          );
        }
        return { id: call.id || this.newId(), name: call.name, arguments: call.arguments };
      });
  }

  private indexOf(piece: ToolCallPiece): number {
    if (typeof piece.index === 'number') return piece.index;
    // Without an index: a new id starts a new call, anything else continues the last one.
    const last = this.calls.get(this.lastIndex);
    if (!last || (piece.id && last.id && piece.id !== last.id)) return this.lastIndex + 1;
    return this.lastIndex;
  }
}
