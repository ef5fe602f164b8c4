// A minimal typed event: subscribe, get a disposable back; a throwing listener never breaks the others.
import type { Disposable } from './types';

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** Subscribe; call `dispose()` on the result to unsubscribe. */
  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        console.error('[localharness] MCP event listener failed:', err);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
