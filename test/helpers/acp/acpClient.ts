// A real ACP client (the official SDK's client side) driving `node dist/cli.js acp` over the child's stdio: it
// answers permission requests as a test says, serves fs/read_text_file and fs/write_text_file from the real disk
// (recording each), and collects every session/update.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { CLI } from '../cli/runCli';

export type PermissionAnswer = 'once' | 'session' | 'workspace' | 'deny' | 'error' | 'never' | 'cancelled';

export interface AcpClientOptions {
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Declare fs/read_text_file and fs/write_text_file (default true). */
  fs?: boolean;
  permission?: PermissionAnswer | ((request: acp.RequestPermissionRequest) => PermissionAnswer);
}

export interface ClientLog {
  /** Method names the agent called on the client, in order ("session/request_permission", "fs/write_text_file"…). */
  calls: string[];
  permissions: acp.RequestPermissionRequest[];
  writes: acp.WriteTextFileRequest[];
  reads: acp.ReadTextFileRequest[];
  updates: acp.SessionNotification[];
  /** Permission requests the agent withdrew while the dialog was open. */
  withdrawn: number;
}

export interface AcpTestClient {
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  child: ChildProcessWithoutNullStreams;
  log: ClientLog;
  stderr(): string;
  /** Raw JSON lines on the agent's stdout so far. */
  rawLines: string[];
  initialize(): Promise<acp.InitializeResponse>;
  /** Updates of one session of a given kind. */
  updatesOf<K extends acp.SessionUpdate['sessionUpdate']>(sessionId: string, kind: K): Array<Extract<acp.SessionUpdate, { sessionUpdate: K }>>;
  close(): Promise<number | null>;
  /**
   * Resolves once no update arrived for a moment: the SDK client may run a notification's handler after the
   * response that followed it on the wire.
   */
  settled(): Promise<void>;
}

export function startAcpClient(o: AcpClientOptions): AcpTestClient {
  const child = spawn(process.execPath, [CLI, 'acp', ...o.args], { cwd: o.cwd, env: { ...process.env, LOCALHARNESS_RETRY_BACKOFF_MS: '5', ...o.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // Every raw line the agent printed, so a test can see replies the SDK client does not hand on (id null errors).
  const raw: string[] = [];
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    const lines = (partial + d.toString('utf8')).split('\n');
    partial = lines.pop()!;
    raw.push(...lines);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const log: ClientLog = { calls: [], permissions: [], writes: [], reads: [], updates: [], withdrawn: 0 };
  const answer = (request: acp.RequestPermissionRequest): PermissionAnswer => (typeof o.permission === 'function' ? o.permission(request) : (o.permission ?? 'once'));
  const app = acp
    .client({ name: 'acp-test-client' })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
      log.calls.push('session/request_permission');
      log.permissions.push(params);
      const a = answer(params);
      if (a === 'error') throw acp.RequestError.internalError(undefined, 'the dialog crashed');
      if (a === 'cancelled') return { outcome: { outcome: 'cancelled' } };
      if (a === 'never') {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        log.withdrawn++;
        return { outcome: { outcome: 'cancelled' } };
      }
      return { outcome: { outcome: 'selected', optionId: a } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      log.calls.push('fs/read_text_file');
      log.reads.push(params);
      return { content: readFileSync(params.path, 'utf8') };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      log.calls.push('fs/write_text_file');
      log.writes.push(params);
      mkdirSync(path.dirname(params.path), { recursive: true });
      writeFileSync(params.path, params.content);
      return {};
    })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      log.updates.push(params);
    });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>));
  const fs = o.fs ?? true;
  return {
    agent: connection.agent,
    connection,
    child,
    log,
    stderr: () => stderr,
    rawLines: raw,
    initialize: () =>
      connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false },
        clientInfo: { name: 'acp-test-client', version: '1' },
      }),
    updatesOf: (sessionId, kind) =>
      log.updates.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === kind).map((n) => n.update) as never,
    settled: async () => {
      let seen = -1;
      while (seen !== log.updates.length) {
        seen = log.updates.length;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: async () => {
      connection.close();
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The agent's text of one session, joined. */
export function agentText(client: AcpTestClient, sessionId: string): string {
  return client
    .updatesOf(sessionId, 'agent_message_chunk')
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}
