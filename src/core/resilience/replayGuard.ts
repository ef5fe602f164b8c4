// Keeps a retried reply from showing text twice. The first attempt streams straight through. When a retry
// starts, what it streams is compared with what is already on screen: the matching part is not shown again
// and only new text is emitted. If the retry says something different, `onDiverge` is called (the caller
// emits a notice that the text below replaces the cut-off text) and the retry's text is shown from its start.

export class ReplayGuard {
  /** Text on screen for this round since the last restart notice. */
  private shown = '';
  private current = '';
  private mirroring = true;

  constructor(
    private readonly emit: (text: string) => void,
    private readonly onDiverge: () => void,
  ) {}

  beginAttempt(): void {
    this.current = '';
    this.mirroring = this.shown === '';
  }

  push(text: string): void {
    if (!text) return;
    this.current += text;
    if (this.mirroring) {
      this.emit(text);
      this.shown = this.current;
      return;
    }
    if (this.current.length <= this.shown.length) {
      if (!this.shown.startsWith(this.current)) this.diverge();
      return;
    }
    if (this.current.startsWith(this.shown)) {
      this.emit(this.current.slice(this.shown.length));
      this.shown = this.current;
      this.mirroring = true;
      return;
    }
    this.diverge();
  }

  /** After a successful attempt: a retry that ended shorter than the cut-off text still needs saying. */
  finish(): void {
    if (!this.mirroring && this.current !== this.shown) this.diverge();
  }

  private diverge(): void {
    this.onDiverge();
    this.mirroring = true;
    this.shown = this.current;
    if (this.current) this.emit(this.current);
  }
}
