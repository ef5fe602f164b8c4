// A key/value store in memory, as the editor's global state and the session database's table are to the core.
import type { KeyValuePort } from '../../src/core/window/calibration';

export class MemoryKv implements KeyValuePort {
  readonly map = new Map<string, string>();
  get(key: string): string | undefined {
    return this.map.get(key);
  }
  set(key: string, value: string): void {
    this.map.set(key, value);
  }
}
