// One live connection to one MCP server: spawn or dial, handshake, list and call tools, close without orphans.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { clientCapabilities, installFeatureHandlers } from './clientFeatureHandlers';
import type { McpClientFeatures } from './clientFeatures';
import type { ToolCallOutput } from './content';
import { SamplingGate } from './samplingGate';
import { LineRingBuffer, LineSplitter } from './ringBuffer';
import { isProcessAlive, killHard, trackChild, untrackChild, waitForExit } from './processes';
import { loadMcpSdk, type McpSdk } from './sdk';
import type { HttpTransportConfig, McpServerConfig, StdioTransportConfig } from './types';

export interface ConnectionHooks {
  log(line: string): void;
  /** The server sent notifications/tools/list_changed. */
  onToolsChanged(): void;
  /** The connection ended without us closing it (process crashed or exited, HTTP session ended). */
  onUnexpectedClose(reason: string): void;
  /** notifications/resources/list_changed */
  onResourcesChanged?(): void;
  /** notifications/prompts/list_changed */
  onPromptsChanged?(): void;
  /** notifications/resources/updated for a subscribed resource. */
  onResourceUpdated?(uri: string): void;
}

export interface OpenOptions {
  config: McpServerConfig;
  startTimeoutMs: number;
  hooks: ConnectionHooks;
  clientVersion: string;
  fetch?: FetchLike;
  signal?: AbortSignal;
  /** What the host lends servers (roots, elicitation, sampling); sampling also needs the gate. */
  features?: McpClientFeatures;
  samplingGate?: SamplingGate;
}

export interface RequestCallOptions {
  signal?: AbortSignal;
  timeoutMs: number;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (message: string) => void;
}

export class McpStartError extends Error {}

export type CallFailure = 'cancelled' | 'timeout' | 'closed' | 'server';

export class McpCallError extends Error {
  constructor(
    message: string,
    readonly kind: CallFailure,
  ) {
    super(message);
  }
}

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

  /** Start the server (or dial it) and finish the MCP handshake; throws McpStartError with the stderr tail. */
  static async open(options: OpenOptions): Promise<McpConnection> {
    const sdk = await loadMcpSdk();
    const connection = new McpConnection(sdk, options);
    try {
      options.signal?.throwIfAborted();
      const t = options.config.transport;
      if (t.type === 'stdio') await connection.connectStdio(t);
      else await connection.connectHttp(t);
    } catch (err) {
      const message = await connection.describeStartError(err);
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
      const result: Record<string, unknown> & { nextCursor?: string | undefined } = await client.request(
        { method, params: cursor === undefined ? {} : { cursor } },
        PAGE_SCHEMAS[method] as z.ZodType<Record<string, unknown> & { nextCursor?: string }>,
        { timeout: this.options.startTimeoutMs, ...(signal && { signal }) },
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
      return await client.request(request, schema, { signal: controller.signal, timeout: options.timeoutMs });
    } catch (err) {
      const name = this.options.config.name;
      if (options.signal?.aborted) throw new McpCallError(`Cancelled while ${action} on MCP server "${name}".`, 'cancelled');
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
      const result = await client.callTool({ name, arguments: args }, undefined, {
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
      // Servers of protocol 2024-10-07 answer with a bare `toolResult`.
      return 'toolResult' in result && !('content' in result) ? { structuredContent: result.toolResult } : (result as ToolCallOutput);
    } catch (err) {
      throw await this.describeCallError(err, options);
    } finally {
      options.signal.removeEventListener('abort', forward);
    }
  }

  /** The last lines the server wrote to stderr, ready to append to an error message. */
  stderrTail(lines = STDERR_TAIL_LINES): string {
    const tail = this.stderr.tail(lines);
    return tail.length ? `\nLast stderr lines:\n${tail.map((l) => `  ${l}`).join('\n')}` : '';
  }

  /** Close the session and make sure the process is gone (stdin closed, then SIGTERM, then SIGKILL). Idempotent. */
  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    if (client) await Promise.race([client.close().catch(() => undefined), delay(5000)]);
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

  private async connectStdio(t: StdioTransportConfig): Promise<void> {
    const onSpawn = (pid: number | null) => {
      if (pid === null) return;
      this.processId = pid;
      trackChild(pid);
      this.options.hooks.log(`process ${pid} spawned`);
    };
    // Learn the pid as soon as the process spawns, before the handshake answer (which may never come).
    class PidReportingTransport extends this.sdk.StdioClientTransport {
      override async start(): Promise<void> {
        await super.start();
        onSpawn(this.pid);
      }
    }
    const transport = new PidReportingTransport({
      command: t.command,
      args: t.args,
      env: t.env,
      ...(t.cwd !== undefined && { cwd: t.cwd }),
      stderr: 'pipe',
    });
    const stream = transport.stderr;
    if (stream) {
      const splitter = new LineSplitter((line) => {
        this.stderr.push(line);
        this.options.hooks.log(`[stderr] ${line}`);
      });
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer | string) => splitter.write(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
      stream.on('end', () => splitter.flush());
    }
    this.exited = new Promise((resolve) => (this.markExited = resolve));
    await this.attach().connect(transport, this.connectOptions());
    this.options.hooks.log('MCP handshake done');
  }

  private async connectHttp(t: HttpTransportConfig): Promise<void> {
    const url = new URL(t.url);
    const transportOptions = {
      requestInit: { headers: t.headers },
      ...(this.options.fetch && { fetch: this.options.fetch }),
    };
    if (t.type === 'sse') {
      await this.attach().connect(new this.sdk.SSEClientTransport(url, transportOptions), this.connectOptions());
      return;
    }
    let streamableError: unknown;
    try {
      const transport = new this.sdk.StreamableHTTPClientTransport(url, transportOptions);
      await this.attach().connect(transport, this.connectOptions());
      this.options.hooks.log('connected over Streamable HTTP');
      return;
    } catch (err) {
      if (this.options.signal?.aborted) throw err;
      streamableError = err;
    }
    // Older servers only speak the HTTP+SSE transport of protocol 2024-11-05.
    this.options.hooks.log(`Streamable HTTP failed (${errorMessage(streamableError)}); trying the SSE transport`);
    await this.client?.close().catch(() => undefined);
    try {
      const transport = new this.sdk.SSEClientTransport(url, transportOptions);
      await this.attach().connect(transport, this.connectOptions());
      this.options.hooks.log('connected over SSE');
    } catch (err) {
      throw new Error(`Streamable HTTP failed: ${errorMessage(streamableError)}; SSE fallback failed: ${errorMessage(err)}`);
    }
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
      const message = errorMessage(error);
      // Unparseable stdout lines surface as JSON syntax or schema errors: the classic "server logs to stdout" bug.
      const badLine = this.options.config.transport.type === 'stdio' && (error instanceof SyntaxError || error?.name === 'ZodError');
      if (badLine && this.protocolErrors.length < 5) this.protocolErrors.push(message);
      hooks.log(`[protocol error] ${message}`);
    };
    client.setNotificationHandler(this.sdk.ToolListChangedNotificationSchema, () => {
      hooks.log('server says its tool list changed');
      hooks.onToolsChanged();
    });
    client.setNotificationHandler(this.sdk.ResourceListChangedNotificationSchema, () => {
      hooks.log('server says its resource list changed');
      hooks.onResourcesChanged?.();
    });
    client.setNotificationHandler(this.sdk.PromptListChangedNotificationSchema, () => {
      hooks.log('server says its prompt list changed');
      hooks.onPromptsChanged?.();
    });
    client.setNotificationHandler(this.sdk.ResourceUpdatedNotificationSchema, (n) => {
      hooks.log(`resource updated: ${n.params.uri}`);
      hooks.onResourceUpdated?.(n.params.uri);
    });
    client.setNotificationHandler(this.sdk.LoggingMessageNotificationSchema, (n) => {
      const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      hooks.log(`[server ${n.params.level}] ${data}`);
    });
    this.client = client;
    return client;
  }

  private connectOptions(): { timeout: number; signal?: AbortSignal } {
    return { timeout: this.options.startTimeoutMs, ...(this.options.signal && { signal: this.options.signal }) };
  }

  private requireClient(): Client {
    if (!this.client || !this.isOpen) throw new McpCallError(`MCP server "${this.options.config.name}" is not connected`, 'closed');
    return this.client;
  }

  private async describeStartError(err: unknown): Promise<string> {
    const { config } = this.options;
    const t = config.transport;
    let reason: string;
    if (this.options.signal?.aborted) reason = 'the start was cancelled';
    else if ((err as NodeJS.ErrnoException)?.code === 'ENOENT' && t.type === 'stdio') {
      reason = `the command "${t.command}" was not found (is it installed and on PATH?${t.cwd ? `, working directory ${t.cwd}` : ''})`;
    } else if (this.isMcpError(err, 'RequestTimeout')) {
      reason = `no answer to the MCP handshake within ${seconds(this.options.startTimeoutMs)}`;
    } else if (this.isMcpError(err, 'ConnectionClosed')) {
      await this.settle();
      reason = 'the process exited during the MCP handshake';
    } else reason = errorMessage(err);
    const protocol = this.protocolErrors.length
      ? `. It wrote output that is not MCP JSON-RPC to stdout (${this.protocolErrors[0]}); an MCP server must write only protocol messages to stdout and log to stderr`
      : '';
    return `MCP server "${config.name}" failed to start: ${reason}${protocol}.${this.stderrTail()}`;
  }

  private async describeCallError(err: unknown, options: CallOptions): Promise<McpCallError> {
    const name = this.options.config.name;
    if (options.signal.aborted) return new McpCallError('Cancelled while the MCP tool was running; the server was told to stop.', 'cancelled');
    if (this.isMcpError(err, 'RequestTimeout')) {
      return new McpCallError(
        `MCP server "${name}" did not answer within ${seconds(options.timeoutMs)} (the timeout restarts on every progress report); the call was cancelled.`,
        'timeout',
      );
    }
    if (this.isMcpError(err, 'ConnectionClosed') || (err instanceof Error && err.message === 'Not connected')) {
      await this.settle();
      return new McpCallError(`MCP server "${name}" stopped during the call (it crashed or exited). Other tools still work.${this.stderrTail()}`, 'closed');
    }
    return new McpCallError(`MCP server "${name}" failed the call: ${errorMessage(err)}`, 'server');
  }

  private isMcpError(err: unknown, code: 'RequestTimeout' | 'ConnectionClosed'): boolean {
    return err instanceof this.sdk.McpError && err.code === this.sdk.ErrorCode[code];
  }

  /** Let the last stderr output of a dying process arrive before we quote it. */
  private async settle(): Promise<void> {
    await Promise.race([this.exited, delay(500)]);
    await new Promise((r) => setImmediate(r));
  }
}

function formatProgress(p: { progress: number; total?: number; message?: string }): string {
  const amount = p.total !== undefined ? `${p.progress}/${p.total}` : `${p.progress}`;
  return p.message ? `${p.message} (${amount})` : `progress ${amount}`;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;
}

function errorMessage(err: unknown): string {
  // A server that throws an McpError sends its message with the "MCP error N:" prefix, and the client adds it again.
  return (err instanceof Error ? err.message : String(err)).replace(/^(MCP error -?\d+: )(?:MCP error -?\d+: )+/, '$1');
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
