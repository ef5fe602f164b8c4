// Bridge timers a test fires by hand: nothing runs until flush(), so batching can be checked step by step.
import type { BridgeTimers } from '../../src/editor/chat/webviewBridge';

export class ManualTimers implements BridgeTimers {
  private queue = new Map<number, () => void>();
  private next = 1;
  set(fn: () => void): unknown {
    const id = this.next++;
    this.queue.set(id, fn);
    return id;
  }
  clear(handle: unknown): void {
    this.queue.delete(handle as number);
  }
  get pending(): number {
    return this.queue.size;
  }
  flush(): void {
    const due = [...this.queue.values()];
    this.queue.clear();
    for (const fn of due) fn();
  }
}
