// Work that may be asked for again while it runs (a server announcing list changes in a burst): the requests
// that arrive meanwhile collapse into one more pass.
export class Coalescing {
  private running: Promise<void> | undefined;
  private again = false;

  run(pass: () => Promise<'stop' | void>): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        if ((await pass()) === 'stop') return;
      } while (this.again);
    })().finally(() => (this.running = undefined));
  }
}
