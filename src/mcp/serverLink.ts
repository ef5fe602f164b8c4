// The link under one MCP connection: the SDK client over stdio (the process spawned, its stderr kept) or HTTP,
// the handshake within the start deadline with a browser sign-in between attempts, and closing without orphans.
// McpConnection (connection.ts) runs the requests over it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SignInFailed, SignInRequired, type AuthChallenge } from './auth/types';
import { clientCapabilities, installFeatureHandlers } from './clientFeatureHandlers';
import { installNotificationHandlers } from './clientNotifications';
import type { ErrorContext } from './connectionErrors';
import { delay, errorMessage, protocolErrorLine } from './connectionText';
import type { OpenOptions } from './connectionTypes';
import { connectHttp } from './httpConnect';
import { isProcessAlive, killHard, terminateSoon, trackChild, untrackChild, waitForExit } from './processes';
import { LineRingBuffer } from './ringBuffer';
import { SamplingGate } from './samplingGate';
import type { McpSdk } from './sdk';
import { HANDSHAKE_STEP, StartDeadline, StartTimedOut } from './startDeadline';
import { createStdioTransport } from './stdioTransport';
import type { StdioTransportConfig } from './types';

const STDERR_TAIL_LINES = 12;
/** Browser sign-ins one start may ask for (a second one covers a step-up right after the first). */
const MAX_SIGN_INS = 2;
const NEVER = new AbortController().signal;

export class ServerLink {
  private readonly stderr = new LineRingBuffer();
  private current: Client | undefined;
  private closing = false;
  private ready = false;
  private processId: number | undefined;
  private readonly protocolErrors: string[] = [];
  private exited: Promise<void> = Promise.resolve();
  private markExited = (): void => undefined;

  constructor(
    private readonly sdk: McpSdk,
    private readonly options: OpenOptions,
  ) {}

  get pid(): number | undefined {
    return this.processId;
  }

  /** The client while the link is up (undefined before the handshake and once closing). */
  get client(): Client | undefined {
    return this.ready && !this.closing ? this.current : undefined;
  }

  /** Start (or dial) and handshake; a server that wants a sign-in gets one between attempts. */
  async connect(): Promise<void> {
    const { auth, signal } = this.options;
    signal?.throwIfAborted();
    for (let signIns = 0; ; signIns++) {
      try {
        await this.connectOnce();
        this.ready = true;
        return;
      } catch (err) {
        const challenge = this.challengeOf(err);
        if (!auth || !challenge || signIns >= MAX_SIGN_INS || signal?.aborted) throw err;
        await this.discard();
        // The user's time in the browser is not the server's start time: the next attempt has a fresh deadline.
        await auth.signIn(challenge, signal ?? NEVER);
      }
    }
  }

  /** Runs a request; when the server asks for a sign-in (or more scope), signs in once and runs it again. */
  async authorized<T>(request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await request();
    } catch (err) {
      const { auth } = this.options;
      if (!auth || !(err instanceof SignInRequired) || signal?.aborted) throw err;
      await auth.signIn(err.challenge, signal ?? NEVER);
      return request();
    }
  }

  /** The last lines the server wrote to stderr, ready to append to an error message. */
  stderrTail(lines = STDERR_TAIL_LINES): string {
    const tail = this.stderr.tail(lines);
    return tail.length ? `\nLast stderr lines:\n${tail.map((l) => `  ${l}`).join('\n')}` : '';
  }

  /** What an error message about this server may draw on. */
  errorContext(): ErrorContext {
    return {
      sdk: this.sdk,
      config: this.options.config,
      startTimeoutMs: this.options.startTimeoutMs,
      startCancelled: this.options.signal?.aborted === true,
      protocolErrors: this.protocolErrors,
      stderrTail: () => this.stderrTail(),
      settle: () => this.settle(),
      isChallenge: (err) => this.challengeOf(err) !== undefined,
    };
  }

  /** Close the session and make sure the process is gone (stdin closed, then SIGTERM, then SIGKILL). Idempotent. */
  async close(options: { quick?: boolean } = {}): Promise<void> {
    this.closing = true;
    const client = this.current;
    const closing = client ? Promise.race([client.close().catch(() => undefined), delay(5000)]) : Promise.resolve();
    // The SDK waits 2 s after closing stdin before it sends SIGTERM; someone who pressed Ctrl-C does not wait that long.
    if (options.quick && this.processId !== undefined) await terminateSoon(this.processId);
    await closing;
    const pid = this.processId;
    if (pid !== undefined && isProcessAlive(pid)) {
      // The SDK's own shutdown may still be running (after a failed handshake it is not awaited): give it a moment.
      if (!(await waitForExit(pid, 3000))) {
        killHard(pid);
        await waitForExit(pid, 2000);
      }
    }
    if (pid !== undefined && !isProcessAlive(pid)) untrackChild(pid);
  }

  /** One attempt under one deadline: start or dial, the SSE fallback, the handshake. */
  private async connectOnce(): Promise<void> {
    const deadline = new StartDeadline(this.options.startTimeoutMs, this.options.signal);
    this.options.auth?.beginAttempt();
    try {
      const t = this.options.config.transport;
      const work =
        t.type === 'stdio'
          ? this.connectStdio(t, deadline)
          : connectHttp({
              sdk: this.sdk,
              transport: t,
              fetch: this.options.auth?.fetch() ?? this.options.fetch,
              attach: () => this.attach(),
              discard: () => this.discard(),
              log: this.options.hooks.log,
              deadline,
              isSignIn: (err) => this.challengeOf(err) !== undefined,
            });
      await deadline.race(work);
    } finally {
      deadline.dispose();
    }
  }

  private challengeOf(err: unknown): AuthChallenge | undefined {
    return err instanceof StartTimedOut || err instanceof SignInFailed ? undefined : this.options.auth?.challengeOf(err);
  }

  /** Closes the current client (a failed attempt) without ending the link. */
  private async discard(): Promise<void> {
    const client = this.current;
    this.current = undefined;
    if (client) await Promise.race([client.close().catch(() => undefined), delay(2000)]);
  }

  private async connectStdio(t: StdioTransportConfig, deadline: StartDeadline): Promise<void> {
    deadline.doing('starting the process');
    const transport = createStdioTransport(this.sdk, t, {
      // Learned as soon as the process spawns, before the handshake answer (which may never come).
      onSpawn: (pid) => {
        this.processId = pid;
        trackChild(pid);
        this.options.hooks.log(`process ${pid} spawned`);
        deadline.doing(HANDSHAKE_STEP);
      },
      onStderr: (line) => {
        this.stderr.push(line);
        this.options.hooks.log(`[stderr] ${line}`);
      },
    });
    this.exited = new Promise((resolve) => (this.markExited = resolve));
    await this.attach().connect(transport, { timeout: deadline.timeoutMs, signal: deadline.signal });
    this.options.hooks.log('MCP handshake done');
  }

  private attach(): Client {
    const { hooks, features, samplingGate } = this.options;
    const client = new this.sdk.Client({ name: 'localharness', version: this.options.clientVersion }, { capabilities: clientCapabilities(features) });
    if (features) {
      const gate = samplingGate ?? new SamplingGate(features.samplingPerMinute);
      installFeatureHandlers(client, this.sdk, { server: this.options.config.name, features, samplingGate: gate, log: hooks.log });
    }
    client.onclose = () => {
      this.markExited();
      if (this.current !== client || this.closing) return;
      if (this.ready) {
        this.ready = false;
        hooks.onUnexpectedClose(this.options.config.transport.type === 'stdio' ? 'the server process exited' : 'the server closed the connection');
      }
    };
    client.onerror = (error) => {
      if (error instanceof SignInRequired) return hooks.log(`${error.message} (HTTP ${error.challenge.status})`);
      const message = errorMessage(error);
      // Unparseable stdout lines surface as JSON syntax or schema errors: the classic "server logs to stdout" bug.
      const badLine = this.options.config.transport.type === 'stdio' && (error instanceof SyntaxError || error?.name === 'ZodError');
      if (badLine && this.protocolErrors.length < 5) this.protocolErrors.push(message);
      hooks.log(`[protocol error] ${protocolErrorLine(error)}`);
    };
    installNotificationHandlers(client, this.sdk, hooks);
    this.current = client;
    return client;
  }

  /** Let the last stderr output of a dying process arrive before we quote it. */
  private async settle(): Promise<void> {
    await Promise.race([this.exited, delay(500)]);
    await new Promise((r) => setImmediate(r));
  }
}
