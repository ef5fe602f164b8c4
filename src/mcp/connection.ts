// One live connection to one MCP server: the requests (tools, resources, prompts, paged lists) with errors that name
// the server and the action. Opening, the process and closing without orphans are its link (serverLink.ts).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { SignInFailed } from './auth/types';
import type { ToolCallOutput } from './content';
import { errorMessage, formatProgress } from './connectionText';
import { describeCallError, describeStartError, isMcpError } from './connectionErrors';
import { loadMcpSdk, type McpSdk } from './sdk';
import { ServerLink } from './serverLink';
import { seconds } from './startDeadline';
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

export class McpConnection {
  private readonly info: { name: string; version: string } | undefined;

  private constructor(
    private readonly sdk: McpSdk,
    private readonly options: OpenOptions,
    private readonly link: ServerLink,
  ) {
    const version = link.client?.getServerVersion();
    if (version) this.info = { name: version.name, version: version.version };
  }

  /**
   * Start the server (or dial it) and finish the MCP handshake, each attempt within `startTimeoutMs` and the
   * caller's signal; a server that wants a sign-in gets one between attempts. Throws McpStartError saying what
   * was tried (with the stderr tail).
   */
  static async open(options: OpenOptions): Promise<McpConnection> {
    const sdk = await loadMcpSdk();
    const link = new ServerLink(sdk, options);
    try {
      await link.connect();
    } catch (err) {
      const message = await describeStartError(err, link.errorContext());
      await link.close();
      throw new McpStartError(message);
    }
    return new McpConnection(sdk, options, link);
  }

  get pid(): number | undefined {
    return this.link.pid;
  }

  get serverInfo(): { name: string; version: string } | undefined {
    return this.info;
  }

  get isOpen(): boolean {
    return this.link.client !== undefined;
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
      const result: Record<string, unknown> & { nextCursor?: string | undefined } = await this.link.authorized(
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
      return await this.link.authorized(() => client.request(request, schema, { signal: controller.signal, timeout: options.timeoutMs }), controller.signal);
    } catch (err) {
      const name = this.options.config.name;
      if (options.signal?.aborted) throw new McpCallError(`Cancelled while ${action} on MCP server "${name}".`, 'cancelled');
      if (err instanceof SignInFailed) throw new McpCallError(`MCP server "${name}" could not be used for ${action}: ${err.message}.`, 'server');
      if (isMcpError(this.sdk, err, 'RequestTimeout')) throw new McpCallError(`MCP server "${name}" did not answer within ${seconds(options.timeoutMs)} while ${action}.`, 'timeout');
      if (isMcpError(this.sdk, err, 'ConnectionClosed') || (err instanceof Error && err.message === 'Not connected')) {
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
      const result = await this.link.authorized(call, controller.signal);
      // Servers of protocol 2024-10-07 answer with a bare `toolResult`.
      return 'toolResult' in result && !('content' in result) ? { structuredContent: result.toolResult } : (result as ToolCallOutput);
    } catch (err) {
      throw await describeCallError(err, options, this.link.errorContext());
    } finally {
      options.signal.removeEventListener('abort', forward);
    }
  }

  /** The last lines the server wrote to stderr, ready to append to an error message. */
  stderrTail(lines?: number): string {
    return this.link.stderrTail(lines);
  }

  /** Close the session and make sure the process is gone (stdin closed, then SIGTERM, then SIGKILL). Idempotent. */
  close(options: { quick?: boolean } = {}): Promise<void> {
    return this.link.close(options);
  }

  private requireClient(): Client {
    const client = this.link.client;
    if (!client) throw new McpCallError(`MCP server "${this.options.config.name}" is not connected`, 'closed');
    return client;
  }
}
