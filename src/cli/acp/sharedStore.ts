// One SessionStore per database for the whole ACP process: an editor keeps several threads (sessions) open at
// once, and the store takes a lock on its file, so every session records through the same open store. The store
// closes when the last session is disposed.
import type { SessionStore } from '../../persistence/sessionStore';
import { PersistenceError } from '../../persistence/errors';
import type { CliSession } from '../cliPersistence';

export class SharedStore {
  private store: Promise<SessionStore> | undefined;
  private users = 0;

  constructor(
    private readonly dbPath: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** A recorder for a new session, or the stored one `sessionId` names (undefined when there is none). */
  async open(sessionId: string | undefined, meta: { title: string; model: string; provider: string }): Promise<CliSession | undefined> {
    const store = await this.acquire();
    const { startRecording } = await import('../../persistence/sessionRecorder');
    try {
      const recorder = await startRecording(store, { ...(sessionId !== undefined && { sessionId }), meta, warn: this.warn });
      if (recorder.interrupted) this.warn(`session ${recorder.id} was interrupted in the middle of a turn; continuing it.`);
      return {
        ...recorder,
        knowledgeFor: (workspaceRoot) => store.knowledgeFor(workspaceRoot),
        close: async () => {
          await recorder.settle();
          await this.release();
        },
      };
    } catch (err) {
      await this.release();
      if (err instanceof PersistenceError && err.code === 'not-found') return undefined;
      throw err;
    }
  }

  private async acquire(): Promise<SessionStore> {
    this.users++;
    if (!this.store) {
      this.store = import('../../persistence/sessionStore').then(async ({ SessionStore }) => {
        const store = await SessionStore.open(this.dbPath);
        for (const notice of store.notices) this.warn(notice.message);
        return store;
      });
      this.store.catch(() => (this.store = undefined));
    }
    try {
      return await this.store;
    } catch (err) {
      this.users--;
      throw err;
    }
  }

  private async release(): Promise<void> {
    if (--this.users > 0 || !this.store) return;
    const store = this.store;
    this.store = undefined;
    await (await store).close();
  }
}
