// Room kept free for the model's answer, and where compression starts in a small window.
// A fixed reserve (1,500 tokens) is over a third of a 4,096-token window, while most replies of a local agent are a
// tool call of 20–300 tokens: in such a window the reserve alone made compression come every other round. So, unless
// the user set `minAnswerTokens`, the reserve follows the largest reply of this session (1.5×), never below
// FLOOR_TOKENS nor above MAX_TOKENS or 40% of the window. A reply larger than the room left is cut by the server at the window's end (`length`): the cut-call
// handling drops it and tells the model (src/core/resilience/outputLimit.ts), and from then on the reserve holds
// room for a reply that long, so the next request is compressed first.
import type { ChatMessage } from '../messages';

/** The least room kept for an answer: a tool call with a few lines of code. */
export const FLOOR_TOKENS = 512;
/** The most room kept for an answer when the user did not set it (the fixed reserve before it followed replies). */
export const MAX_TOKENS = 1500;
/** Room kept per token of the largest reply seen. */
const MARGIN = 1.5;
/** At most this share of the window is kept for the answer (2k servers exist). */
const MAX_WINDOW_SHARE = 0.4;

export class AnswerReserve {
  private largest = 0;

  /** `fixedTokens`: the user's `minAnswerTokens`, kept as it is (still at most 40% of the window). */
  constructor(private readonly fixedTokens?: number) {}

  /** A reply's size: the server's completion count (thinking included), or our estimate of what it wrote. */
  observe(replyTokens: number): void {
    if (replyTokens > this.largest) this.largest = replyTokens;
  }

  /**
   * The model's latest reply as it stands in the history (the last assistant message after the last user one),
   * sized by `tokensOf`: it counts where the server reports no completion tokens.
   */
  observeLatestReply(history: readonly ChatMessage[], tokensOf: (message: ChatMessage) => number): void {
    for (let i = history.length - 1; i >= 0 && history.length - i <= 4; i--) {
      const m = history[i]!;
      if (m.role === 'user') return;
      if (m.role === 'assistant') return this.observe(tokensOf(m));
    }
  }

  tokens(window: number): number {
    const share = Math.floor(window * MAX_WINDOW_SHARE);
    if (this.fixedTokens !== undefined) return Math.min(this.fixedTokens, share);
    return Math.min(MAX_TOKENS, share, Math.max(FLOOR_TOKENS, Math.ceil(this.largest * MARGIN)));
  }
}

/**
 * The request size at which compression starts. In a large window: `compressAt` of it (many rounds fit before it,
 * and the LLM pass has room to continue the conversation, reusing what the server holds). In a window of
 * `tightWindow` tokens or less that share wastes what the next rounds need most: there compression starts only when
 * the answer would no longer have its room. The pass then mostly asks in a small request of its own (modelPass.ts):
 * the server reads about a thousand tokens more per compression, against a compression saved every few rounds
 * (the 12-note rename in 4,096 tokens: 2 instead of 3 with 600-byte notes, 5 instead of 8 with 2 KB ones).
 */
export function compressionTrigger(window: number, s: { compressAt: number; tightWindow: number }, answerTokens: number): number {
  const share = Math.floor(window * s.compressAt);
  if (window > s.tightWindow) return share;
  return Math.max(share, window - answerTokens);
}
