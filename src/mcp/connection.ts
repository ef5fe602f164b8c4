// One live connection to one MCP server: spawn or dial, handshake, list and call tools, close without orphans.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { SignInFailed, SignInRequired, type AuthChallenge } from './auth/types';
import { clientCapabilities, installFeatureHandlers } from './clientFeatureHandlers';
import type { ToolCallOutput } from './content';
import { delay, errorMessage, formatProgress } from './connectionText';
import { connectHttp } from './httpConnect';
import { SamplingGate } from './samplingGate';
import { LineRingBuffer } from './ringBuffer';
import { createStdioTransport } from './stdioTransport';
import { describeCallError, describeStartError, isMcpError, type ErrorContext } from './connectionErrors';
import { isProcessAlive, killHard, terminateSoon, trackChild, untrackChild, waitForExit } from './processes';
import { loadMcpSdk, type McpSdk } from './sdk';
import { HANDSHAKE_STEP, seconds, StartDeadline, StartTimedOut } from './startDeadline';
import type { StdioTransportConfig } from './types';
import { installNotificationHandlers } from './clientNotifications';
import { McpCallError, McpStartError, type CallOptions, type OpenOptions, type RequestCallOptions } from './connectionTypes';

export { McpCallError, McpStartError, type CallFailure, type CallOptions, type ConnectionHooks, type OpenOptions, type RequestCallOptions } from './connectionTypes';

// Loose on purpose: entries are checked one by one later, so one bad entry can't hide the rest.
const PAGE_SCHEMAS = {
  'tools/list': z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }),
  'resources/list': z.looseObject({ resources: z.array(z.unknown()), nextCursor: z.string().optional() }),
  'resources/templates/list': z.looseObject({ resourceTemplates: z.array(z.unknown()), nextCursor: z.string().optional() }),
  'prompts/list': z.looseObject({ prompts: z.array(z.unknown()), nextCursor: z.string().optional() }),
} as const;
type ListMethod = keyof typeof PAGE_SCHEMAS;
const ReadResultSchema = z.looseObject({ contents: z.array(z.unknown()) });
const PromptResultSchema = z.looseObject({ description: z.unknown().optional(), messages: z.array(z.unknown()) });
const EmptySchema = z.looseObject({});
const MAX_PAGES = 100;
const STDERR_TAIL_LINES = 12;
/** Browser sign-ins one start may ask for (a second one covers a step-up right after the first). */
const MAX_SIGN_INS = 2;
const NEVER = new AbortController().signal;

export class McpConnection {
  readonly stderr = new LineRingBuffer();
  private client: Client | undefined;
  private closing = false;
  private ready = false;
  private processId: number | undefined;
  private readonly protocolErrors: string[] = [];
  private markExited: () => void = () => {};
  private exited: Promise<void> = Promise.resolve();
  private info: { name: string; version: string } | undefined;

  private constructor(
    private readonly sdk: McpSdk,
    private readonly options: OpenOptions,
  ) {}

  /**
   * Start the server (or dial it) and finish the MCP handshake, each attempt within `startTimeoutMs` and the
   * caller's signal; a server that wants a sign-in gets one between attempts. Throws McpStartError saying what
   * was tried (with the stderr tail).
   */
  static async open(options: OpenOptions): Promise<McpConnection> {
    const sdk = await loadMcpSdk();
    const connection = new McpConnection(sdk, options);
    try {
      options.signal?.throwIfAborted();
      await connection.connectSigningIn();
    } catch (err) {
      const message = await describeStartError(err, connection.errorContext());
      await connection.close();
      throw new McpStartError(message);
    }
    connection.ready = true;
    const version = connection.client?.getServerVersion();
    if (version) connection.info = { name: version.name, version: version.version };
    return connection;
  }

  get pid(): number | undefined {
    return this.processId;
  }

  get serverInfo(): { name: string; version: string } | undefined {
    return this.info;
  }

  get isOpen(): boolean {
    return this.ready && !this.closing;
  }

  /** Every page of tools/list, raw: each entry is checked one by one later so one bad tool can't hide the rest. */
  listTools(signal?: AbortSignal): Promise<unknown[]> {
    // A server without the tools capability (resources or prompts only) simply has no tools.
    return this.capabilities().tools === undefined ? Promise.resolve([]) : this.listAll('tools/list', 'tools', signal);
  }

  listResources(signal?: AbortSignal): Promise<unknown[]> {
    return this.hasResources ? this.listAll('resources/list', 'resources', signal) : Promise.resolve([]);
  }

  listResourceTemplates(signal?: AbortSignal): Promise<unknown[]> {
    return this.hasResources ? this.listAll('resources/templates/list', 'resourceTemplates', signal) : Promise.resolve([]);
  }

  listPrompts(signal?: AbortSignal): Promise<unknown[]> {
    return this.hasPrompts ? this.listAll('prompts/list', 'prompts', signal) : Promise.resolve([]);
  }

  get hasResources(): boolean {
    return this.capabilities().resources !== undefined;
  }

  get hasPrompts(): boolean {
    return this.capabilities().prompts !== undefined;
  }

  get canSubscribe(): boolean {
    return this.capabilities().resources?.subscribe === true;
  }

  /** The variable names of a URI template (throws on a malformed one). */
  templateVariables(template: string): string[] {
    return new this.sdk.UriTemplate(template).variableNames;
  }

  /** resources/read, raw `contents`. */
  async readResource(uri: string, options: RequestCallOptions): Promise<unknown[]> {
    const result = await this.send({ method: 'resources/read', params: { uri } }, ReadResultSchema, options, `reading ${uri}`);
    return result.contents;
  }

  /** prompts/get, raw. */
  getPrompt(name: string, args: Record<string, string>, options: RequestCallOptions): Promise<{ description?: unknown; messages: unknown[] }> {
    return this.send({ method: 'prompts/get', params: { name, arguments: args } }, PromptResultSchema, options, `getting the prompt "${name}"`);
  }

  async subscribeResource(uri: string, options: RequestCallOptions): Promise<void> {
    await this.send({ method: 'resources/subscribe', params: { uri } }, EmptySchema, options, `subscribing to ${uri}`);
  }

  async unsubscribeResource(uri: string, options: RequestCallOptions): Promise<void> {
    await this.send({ method: 'resources/unsubscribe', params: { uri } }, EmptySchema, options, `unsubscribing from ${uri}`);
  }

  /** notifications/roots/list_changed: the server asks for roots/list again. */
  async sendRootsListChanged(): Promise<void> {
    await this.requireClient().sendRootsListChanged();
  }

  private capabilities() {
    return this.requireClient().getServerCapabilities() ?? {};
  }

  private async listAll<M extends ListMethod>(method: M, key: keyof z.infer<(typeof PAGE_SCHEMAS)[M]> & string, signal?: AbortSignal): Promise<unknown[]> {
    const client = this.requireClient();
    const entries: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result: Record<string, unknown> & { nextCursor?: string | undefined } = await this.authorized(
        () =>
          client.request({ method, params }, PAGE_SCHEMAS[method] as z.ZodType<Record<string, unknown> & { nextCursor?: string }>, {
            timeout: this.options.startTimeoutMs,
            ...(signal && { signal }),
          }),
        signal,
      );
      entries.push(...(result[key] as unknown[]));
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === '') return entries;
      if (seen.has(cursor)) throw new Error(`${method} returned the cursor "${cursor}" twice; stopping to avoid an endless loop`);
      seen.add(cursor);
    }
    throw new Error(`${method} had more than ${MAX_PAGES} pages`);
  }

  /** One request with a per-call controller (see callTool) and errors that name the server and the action. */
  private async send<T>(request: { method: string; params: Record<string, unknown> }, schema: z.ZodType<T>, options: RequestCallOptions, action: string): Promise<T> {
    const client = this.requireClient();
    const controller = new AbortController();
    const forward = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) forward();
    else options.signal?.addEventListener('abort', forward, { once: true });
    try {
      return await this.authorized(() => client.request(request, schema, { signal: controller.signal, timeout: options.timeoutMs }), controller.signal);
    } catch (err) {
      const name = this.options.config.name;
      if (options.signal?.aborted) throw new McpCallError(`Cancelled while ${action} on MCP server "${name}".`, 'cancelled');
      if (err instanceof SignInFailed) throw new McpCallError(`MCP server "${name}" could not be used for ${action}: ${err.message}.`, 'server');
      if (this.isMcpError(err, 'RequestTimeout')) throw new McpCallError(`MCP server "${name}" did not answer within ${seconds(options.timeoutMs)} while ${action}.`, 'timeout');
      if (this.isMcpError(err, 'ConnectionClosed') || (err instanceof Error && err.message === 'Not connected')) {
        throw new McpCallError(`MCP server "${name}" stopped while ${action}.`, 'closed');
      }
      throw new McpCallError(`MCP server "${name}" failed ${action}: ${errorMessage(err)}`, 'server');
    } finally {
      options.signal?.removeEventListener('abort', forward);
    }
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolCallOutput> {
    const client = this.requireClient();
    // A per-call controller: the SDK never removes its abort listener, so the turn's signal must not collect them.
    const controller = new AbortController();
    let lastProgress = -Infinity;
    const forward = () => controller.abort(options.signal.reason);
    if (options.signal.aborted) forward();
    else options.signal.addEventListener('abort', forward, { once: true });
    try {
      const call = () =>
        client.callTool({ name, arguments: args }, undefined, {
          signal: controller.signal,
          timeout: options.timeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: (p) => {
            // Progress only grows (the spec says so); a report replayed over a reconnected HTTP stream is not news.
            if (p.progress <= lastProgress) return;
            lastProgress = p.progress;
            options.onProgress?.(formatProgress(p));
          },
        });
      // A server may want more scope for this tool (step-up): sign in with it, then call again.
      const result = await this.authorized(call, controller.signal);
      // Servers of protocol 2024-10-07 answer with a bare `toolResult`.
      return 'toolResult' in result && !('content' in result) ? { structuredContent: result.toolResult } : (result as ToolCallOutput);
    } catch (err) {
      throw await describeCallError(err, options, this.errorContext());
    } finally {
      options.signal.removeEventListener('abort', forward);
    }
  }

  /** Runs a request; when the server asks for a sign-in (or more scope), signs in once and runs it again. */
  private async authorized<T>(request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
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

  /** Close the session and make sure the process is gone (stdin closed, then SIGTERM, then SIGKILL). Idempotent. */
  async close(options: { quick?: boolean } = {}): Promise<void> {
    this.closing = true;
    const client = this.client;
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

  private async connectSigningIn(): Promise<void> {
    const { auth, signal } = this.options;
    for (let signIns = 0; ; signIns++) {
      try {
        return await this.connectOnce();
      } catch (err) {
        const challenge = this.challengeOf(err);
        if (!auth || !challenge || signIns >= MAX_SIGN_INS || signal?.aborted) throw err;
        await this.discard();
        // The user's time in the browser is not the server's start time: the next attempt has a fresh deadline.
        await auth.signIn(challenge, signal ?? NEVER);
      }
    }
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

  /** Closes the current client (a failed attempt) without ending the connection. */
  private async discard(): Promise<void> {
    const client = this.client;
    this.client = undefined;
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
      if (this.client !== client || this.closing) return;
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
      hooks.log(`[protocol error] ${message}`);
    };
    installNotificationHandlers(client, this.sdk, hooks);
    this.client = client;
    return client;
  }

  private requireClient(): Client {
    if (!this.client || !this.isOpen) throw new McpCallError(`MCP server "${this.options.config.name}" is not connected`, 'closed');
    return this.client;
  }

  private errorContext(): ErrorContext {
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

  private isMcpError(err: unknown, code: 'RequestTimeout' | 'ConnectionClosed'): boolean {
    return isMcpError(this.sdk, err, code);
  }

  /** Let the last stderr output of a dying process arrive before we quote it. */
  private async settle(): Promise<void> {
    await Promise.race([this.exited, delay(500)]);
    await new Promise((r) => setImmediate(r));
  }
}
