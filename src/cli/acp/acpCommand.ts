// `localharness acp`: an Agent Client Protocol agent over stdio (Zed, JetBrains, Neovim…), built on the official
// SDK. stdout carries only the protocol; everything for humans goes to stderr. Each `session/new` or
// `session/load` builds one AcpSession from the same composition root as `run`.
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { RunOptions } from '../args';
import type { CliConfig } from '../cliConfig';
import { defaultDbPath } from '../dbPath';
import type { AcpSession, AcpClientPort } from './acpSession';
import type { SharedStore } from './sharedStore';
import { AGENT_RAN } from '../codeCache';

export interface AcpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

declare const VERSION: string;

/** Runs until the client closes the connection (or the process is told to stop). */
export async function acpCommand(options: RunOptions, io: AcpIo, signal: AbortSignal): Promise<number> {
  // Read with the first session (with its settings schemas), so the initialize reply does not wait for it;
  // a bad file fails that session/new with the file's error.
  let config: CliConfig | undefined;
  const warn = (m: string) => void io.stderr.write(`localharness: ${m}\n`);
  const dbPath = options.db ?? defaultDbPath(io.env);
  const canLoad = !!dbPath;
  let store: SharedStore | undefined;
  const approvalTimeoutMs = positive(io.env.LOCALHARNESS_APPROVAL_TIMEOUT_MS);
  const sessions = new Map<string, AcpSession>();
  let capabilities: acp.ClientCapabilities | undefined;
  let connection: acp.AgentConnection | undefined;

  const client: AcpClientPort = {
    get capabilities() {
      return capabilities;
    },
    update: (sessionId, update) => connection!.client.notify(acp.methods.client.session.update, { sessionId, update }),
    requestPermission: (params, cancel) => connection!.client.request(acp.methods.client.session.requestPermission, params, { cancellationSignal: cancel, stopWaitingOnCancel: true }),
    readTextFile: (params) => connection!.client.request(acp.methods.client.fs.readTextFile, params),
    writeTextFile: async (params) => void (await connection!.client.request(acp.methods.client.fs.writeTextFile, params)),
  };

  const open = async (params: acp.NewSessionRequest | acp.LoadSessionRequest, requestSignal: AbortSignal, loadId?: string) => {
    // The session's modules load with the first session, so the initialize reply does not wait for them.
    const { AcpSession } = await import('./acpSession');
    config ??= (await import('../cliConfig')).loadCliConfig(options.config);
    if (dbPath && !store) store = new (await import('./sharedStore')).SharedStore(dbPath, warn);
    const session = await AcpSession.open({
      ...(store && { store }),
      options,
      config,
      client,
      cwd: params.cwd,
      mcpServers: params.mcpServers ?? [],
      ...(loadId !== undefined && { loadId }),
      ...(approvalTimeoutMs !== undefined && { approvalTimeoutMs }),
      signal: AbortSignal.any([signal, requestSignal]),
      warn,
    });
    await sessions.get(session.id)?.dispose();
    sessions.set(session.id, session);
    return session;
  };
  const advertise = (session: AcpSession) => {
    // After the response, as the protocol expects; a client that ignores it loses nothing.
    setImmediate(() => void session.advertiseCommands().catch(() => undefined));
  };
  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };

  const app = acp
    .agent({ name: 'localharness' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: canLoad,
          // Text, resource links, embedded text resources (attached files and selections) and images (for a model
          // that sees; a prompt with images for one that does not is refused, naming --vision).
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        agentInfo: { name: 'localharness', title: 'Local Harness', version: typeof VERSION === 'string' ? VERSION : 'dev' },
        authMethods: [],
      };
    })
    .onRequest(acp.methods.agent.session.new, ({ params, signal: s }) =>
      withReason(async () => {
        const session = await open(params, s);
        advertise(session);
        const configOptions = session.configOptions();
        return { sessionId: session.id, modes: session.modes(), ...(configOptions.length && { configOptions }) };
      }),
    )
    .onRequest(acp.methods.agent.session.load, ({ params, signal: s }) =>
      withReason(async () => {
        if (!canLoad) throw RequestError.invalidRequest(undefined, 'loading sessions needs --db FILE (or LOCALHARNESS_DB)');
        const session = await open(params, s, params.sessionId);
        await session.replay();
        advertise(session);
        const configOptions = session.configOptions();
        return { modes: session.modes(), ...(configOptions.length && { configOptions }) };
      }),
    )
    .onRequest(acp.methods.agent.session.prompt, ({ params, signal: s }) =>
      withReason(async () => {
        const stopReason = await sessionOf(params.sessionId).prompt(params.prompt, s);
        // The code cache written at exit then holds the whole round path (see codeCache.ts).
        (globalThis as Record<symbol, unknown>)[AGENT_RAN] = true;
        return { stopReason };
      }),
    )
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) =>
      withReason(async () => ({ configOptions: sessionOf(params.sessionId).setConfigOption(params.configId, params.value) })),
    )
    .onRequest(acp.methods.agent.session.setMode, ({ params }) =>
      withReason(async () => {
        // The client chose it, so no current_mode_update: that notice is for a mode the agent changes itself.
        sessionOf(params.sessionId).setMode(params.modeId);
        return {};
      }),
    )
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const stream = acp.ndJsonStream(
    Writable.toWeb(io.stdout as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(io.stdin as Readable) as unknown as ReadableStream<Uint8Array>,
  );
  connection = app.connect(stream);
  const stop = () => connection?.close();
  signal.addEventListener('abort', stop, { once: true });
  try {
    await connection.closed;
  } finally {
    signal.removeEventListener('abort', stop);
    await Promise.allSettled([...sessions.values()].map((s) => s.dispose()));
  }
  return 0;
}

/** Any other failure (a bad config file, a database that cannot be opened) says why instead of "Internal error". */
async function withReason<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RequestError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw RequestError.internalError({ reason: message }, message);
  }
}

function positive(text: string | undefined): number | undefined {
  const n = text === undefined ? NaN : Number(text);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
