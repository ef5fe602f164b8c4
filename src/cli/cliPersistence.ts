// Optional session persistence for the CLI (--db / --session). SQLite is loaded only when asked for; the
// recording itself is src/persistence/sessionRecorder.ts (shared with the editor).
import type { KnowledgeStorePort } from '../core/knowledge/types';
import { PersistenceError } from '../persistence/errors';
import type { SessionRecorder } from '../persistence/sessionRecorder';
import { UsageError } from './args';
import { atLastMoment } from './lastWords';

export interface CliSession extends SessionRecorder {
  /** The index of the workspace at `workspaceRoot` (absolute) stored in the same database (`localharness index`). */
  knowledgeFor(workspaceRoot: string): KnowledgeStorePort;
  close(): Promise<void>;
}

export async function openCliSession(
  dbPath: string,
  sessionId: string | undefined,
  meta: { title: string; model: string; provider: string },
  warn: (message: string) => void,
  checkpointLimitBytes?: number,
): Promise<CliSession> {
  const { SessionStore } = await import('../persistence/sessionStore');
  const { startRecording } = await import('../persistence/sessionRecorder');
  const store = await SessionStore.open(dbPath);
  for (const notice of store.notices) warn(notice.message);
  let recorder: SessionRecorder;
  try {
    recorder = await startRecording(store, { ...(sessionId !== undefined && { sessionId }), meta, warn, ...(checkpointLimitBytes !== undefined && { checkpointLimitBytes }) });
  } catch (err) {
    await store.close();
    if (err instanceof PersistenceError && err.code === 'not-found') {
      throw new UsageError(`no session "${sessionId}" in ${dbPath}; list them with: localharness sessions --db ${dbPath}`);
    }
    throw err;
  }
  if (recorder.interrupted) warn(`session ${recorder.id} was interrupted in the middle of a turn; continuing it.`);
  // Exiting before the turn winds down (a command that ignores Ctrl-C): the running call still gets a result.
  const forget = atLastMoment(() => recorder.answerOpenCalls());
  return {
    ...recorder,
    knowledgeFor: (workspaceRoot) => store.knowledgeFor(workspaceRoot),
    close: async () => {
      forget();
      await recorder.settle();
      await store.close();
    },
  };
}
