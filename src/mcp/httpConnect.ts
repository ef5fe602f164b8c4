// Dialing an HTTP MCP server: Streamable HTTP first, then the HTTP+SSE transport of protocol 2024-11-05 that
// older servers speak. Both run under the attempt's deadline; a sign-in request is passed up untouched (the
// caller signs in and dials again) instead of being taken for "this transport does not work".
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorMessage } from './connectionText';
import { answerServerRequestsOnce } from './replayGuard';
import type { McpSdk } from './sdk';
import type { StartDeadline } from './startDeadline';
import type { HttpTransportConfig } from './types';

export interface HttpConnectContext {
  sdk: McpSdk;
  transport: HttpTransportConfig;
  fetch: FetchLike | undefined;
  /** A fresh client, now the connection's current one. */
  attach: () => Client;
  /** Closes the current client and its transport. */
  discard: () => Promise<void>;
  log: (line: string) => void;
  deadline: StartDeadline;
  /** Whether a failure means "sign in first". */
  isSignIn: (err: unknown) => boolean;
}

export async function connectHttp(c: HttpConnectContext): Promise<void> {
  const url = new URL(c.transport.url);
  const options = { requestInit: { headers: c.transport.headers }, ...(c.fetch && { fetch: c.fetch }) };
  const connectOptions = { timeout: c.deadline.timeoutMs, signal: c.deadline.signal };
  if (c.transport.type === 'sse') {
    await connectSse(c, url, options, connectOptions);
    c.log('connected over SSE');
    return;
  }
  let streamableError: unknown;
  try {
    c.deadline.doing(`waiting for the MCP handshake over Streamable HTTP (POST ${url.href})`);
    const transport = new c.sdk.StreamableHTTPClientTransport(url, options);
    answerServerRequestsOnce(transport, c.log);
    await c.attach().connect(transport, connectOptions);
    c.log('connected over Streamable HTTP');
    return;
  } catch (err) {
    if (c.deadline.signal.aborted || c.isSignIn(err)) throw err;
    streamableError = err;
  }
  c.deadline.failed(`Streamable HTTP failed: ${transportFailure(streamableError)}`);
  c.log(`Streamable HTTP failed (${transportFailure(streamableError)}); trying the SSE transport`);
  await c.discard();
  try {
    await connectSse(c, url, options, connectOptions);
    c.log('connected over SSE');
  } catch (err) {
    if (c.deadline.signal.aborted || c.isSignIn(err)) throw err;
    throw new Error(`Streamable HTTP failed: ${transportFailure(streamableError)}; SSE fallback failed: ${transportFailure(err)}`);
  }
}

async function connectSse(
  c: HttpConnectContext,
  url: URL,
  options: ConstructorParameters<McpSdk['SSEClientTransport']>[1],
  connectOptions: { timeout: number; signal: AbortSignal },
): Promise<void> {
  const { deadline } = c;
  // The transport's start waits for the server's "endpoint" event, which a stuck server never sends: say so.
  class StepReportingTransport extends c.sdk.SSEClientTransport {
    override async start(): Promise<void> {
      deadline.doing(`waiting for the "endpoint" event of the SSE transport (GET ${url.href})`);
      await super.start();
      deadline.doing('waiting for the MCP handshake over the SSE transport');
    }
  }
  const transport = new StepReportingTransport(url, options);
  answerServerRequestsOnce(transport, c.log);
  await c.attach().connect(transport, connectOptions);
}

/** The SDK's transport error in fewer words: `HTTP 404: no such endpoint` rather than two prefixes. */
function transportFailure(err: unknown): string {
  const text = errorMessage(err)
    .replace(/^(Streamable HTTP error|SSE error): /, '')
    .replace(/^Error POSTing to endpoint: /, '');
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'number' && code > 0 && !text.includes(String(code)) ? `HTTP ${code}: ${text}` : text;
}
