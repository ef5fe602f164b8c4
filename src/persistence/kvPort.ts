// The session database's key/value table as the string store the core's per-model memories use (calibration, the
// window a server really runs). Values that are not text (kept there by something else) read as absent.
import type { KeyValuePort } from '../core/window/calibration';
import type { SessionStore } from './sessionStore';

export function kvPortOf(store: Pick<SessionStore, 'getKv' | 'setKv'>): KeyValuePort {
  return {
    get: async (key) => {
      const v = await store.getKv(key);
      return typeof v === 'string' ? v : undefined;
    },
    set: (key, value) => store.setKv(key, value),
  };
}
