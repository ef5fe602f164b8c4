// How much the request grows per model call while it only appends (a tool call and its result, a user message):
// a compression must leave room for several such rounds, or the cached prefix breaks again right after it.
// A request that did not grow (a retry of the same one) is no round; a compression starts the next measurement
// from the size it left.

export class RoundGrowth {
  private tokens = 0;
  private rounds = 0;
  private last: number | undefined;

  /** The size of the request about to be sent, before any compression of it. */
  observe(total: number): void {
    if (this.last !== undefined && total > this.last) {
      this.tokens += total - this.last;
      this.rounds++;
    }
    this.last = total;
  }

  /** The size the request was sent at (after a compression, the next round grows from there). */
  sent(total: number): void {
    this.last = total;
  }

  /** Mean growth per round so far (calibrated tokens); 0 before the first round. */
  perRound(): number {
    return this.rounds > 0 ? this.tokens / this.rounds : 0;
  }
}
