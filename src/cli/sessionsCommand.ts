// `localharness sessions`: lists the sessions stored in a database file.
import { UsageError, type SessionsOptions } from './args';
import { defaultDbPath } from './dbPath';

export async function sessionsCommand(options: SessionsOptions, stdout: NodeJS.WriteStream): Promise<number> {
  const path = options.db ?? defaultDbPath(process.env);
  if (!path) throw new UsageError('pass --db FILE (or set LOCALHARNESS_DB)');
  const { SessionStore } = await import('../persistence/sessionStore');
  const store = await SessionStore.open(path);
  try {
    for (const notice of store.notices) process.stderr.write(`localharness: ${notice.message}\n`);
    const sessions = await store.listSessions();
    if (options.json) {
      for (const s of sessions) stdout.write(JSON.stringify(s) + '\n');
    } else if (sessions.length === 0) {
      stdout.write('No sessions yet.\n');
    } else {
      for (const s of sessions) {
        const when = new Date(s.updatedAt).toISOString().replace('T', ' ').slice(0, 16);
        const status = s.status === 'interrupted' ? ' [interrupted]' : '';
        stdout.write(`${s.id}  ${when}  ${s.model}  ${s.messageCount} messages  ${s.title}${status}\n`);
      }
    }
    return 0;
  } finally {
    await store.close();
  }
}
