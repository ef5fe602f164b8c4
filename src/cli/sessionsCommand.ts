// `localharness sessions`: lists the sessions stored in a database file; `sessions messages` lists one session's
// messages with the numbers `sessions rewind --to N` takes (see rewindCommand.ts).
import { UsageError, type SessionsOptions } from './args';
import { defaultDbPath } from './dbPath';

export async function sessionsCommand(options: SessionsOptions, stdout: NodeJS.WriteStream, stderr: NodeJS.WritableStream = process.stderr): Promise<number> {
  const path = options.db ?? defaultDbPath(process.env);
  if (!path) throw new UsageError('pass --db FILE (or set LOCALHARNESS_DB)');
  const { SessionStore } = await import('../persistence/sessionStore');
  const store = await SessionStore.open(path);
  try {
    for (const notice of store.notices) stderr.write(`localharness: ${notice.message}\n`);
    const action = options.action;
    if (action) {
      if (!(await store.getSession(action.session))) {
        throw new UsageError(`no session "${action.session}" in ${path}; list them with: localharness sessions --db ${path}`);
      }
      if (action.kind === 'messages') return await listMessages(store, action.session, options.json, stdout);
      const { rewindCommand } = await import('./rewindCommand');
      return await rewindCommand(store, action, { json: options.json, stdout, stderr });
    }
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

async function listMessages(
  store: import('../persistence/sessionStore').SessionStore,
  sessionId: string,
  json: boolean,
  stdout: NodeJS.WritableStream,
): Promise<number> {
  const messages = await store.checkpointHistory.userMessages(sessionId);
  if (json) {
    for (const m of messages) stdout.write(JSON.stringify(m) + '\n');
    return 0;
  }
  if (messages.length === 0) stdout.write('No messages from the user in this session.\n');
  for (const m of messages) {
    const when = new Date(m.createdAt).toISOString().replace('T', ' ').slice(0, 16);
    const line = m.text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
    const text = line.length > 70 ? `${line.slice(0, 69)}…` : line;
    const files = m.changedFiles > 0 ? `  (${m.changedFiles} file${m.changedFiles === 1 ? '' : 's'} changed)` : '';
    stdout.write(`${String(m.number).padStart(3)}  ${when}  ${text}${files}\n`);
  }
  return 0;
}
