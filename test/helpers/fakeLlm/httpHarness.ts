// The HTTP plumbing shared by the fake servers: a real server on 127.0.0.1 (port 0), request
// recording, and knowing when a client walked away before its reply ended.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PromptCacheModel } from './promptCache';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Parsed JSON body, the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  /** The request headers as received (lower-case names), e.g. to check where an Authorization header went. */
  headers: IncomingHttpHeaders;
}

export interface FakeServerHandle {
  /** Base URL: `http://127.0.0.1:<port>/v1` for the OpenAI fake, `http://127.0.0.1:<port>` for Ollama. */
  readonly url: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Parsed JSON bodies of the chat requests, in arrival order. */
  readonly requests: Array<Record<string, unknown>>;
  /** Every request (chat, model lists, …) in arrival order. */
  readonly log: RecordedRequest[];
  /** How many chat replies the client abandoned (closed the socket before the reply ended). */
  readonly clientAborts: number;
  /** The chat servers' prompt cache: what each request reused and read (see promptCache.ts). */
  readonly promptCache?: PromptCacheModel;
  /** Resolves once `clientAborts >= count`; rejects after `timeoutMs` with a clear message. */
  waitForClientAbort(count?: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface RouteContext {
  req: IncomingMessage;
  path: string;
  method: string;
  body: unknown;
  bodyText: string;
  reply: ReplyWriter;
}

export type Router = (context: RouteContext) => Promise<void>;

export class ReplyWriter {
  private clientGone = false;
  private destroyedByUs = false;
  private readonly goneWaiters: Array<() => void> = [];

  constructor(
    readonly res: ServerResponse,
    onClientAbort: () => void,
    /** Virtual milliseconds per real one (test/helpers/timeLapse.ts): the server's waits follow the client's clock. */
    private readonly timeScale = 1,
  ) {
    res.on('close', () => {
      this.clientGone = true;
      if (!res.writableFinished && !this.destroyedByUs) onClientAbort();
      for (const wake of this.goneWaiters.splice(0)) wake();
    });
  }

  get gone(): boolean {
    return this.clientGone;
  }

  /** Sleeps, waking early when the client goes away. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.clientGone) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms / this.timeScale);
      this.goneWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Resolves when the client closes the connection. */
  untilGone(): Promise<void> {
    if (this.clientGone) return Promise.resolve();
    return new Promise((resolve) => this.goneWaiters.push(resolve));
  }

  json(status: number, value: unknown, headers: Record<string, string> = {}): void {
    if (this.clientGone) return;
    const text = JSON.stringify(value);
    this.res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    this.res.end(text);
  }

  write(text: string): void {
    if (!this.clientGone) this.res.write(text);
  }

  end(): void {
    if (!this.clientGone) this.res.end();
  }

  /** Abrupt TCP close, as when a server process dies. */
  reset(): void {
    this.destroyedByUs = true;
    this.res.socket?.resetAndDestroy();
  }
}

export interface Harness {
  handle: FakeServerHandle;
  /** Record a chat request body (the servers call this for chat endpoints only). */
  recordChat(body: Record<string, unknown>): void;
}

/** `timeScale`: the server's waits (reading, generating, delays) pass this many times faster than real time. */
export async function startHarness(router: Router, urlSuffix: string, timeScale = 1): Promise<Harness> {
  const requests: Array<Record<string, unknown>> = [];
  const log: RecordedRequest[] = [];
  let clientAborts = 0;
  const abortWaiters: Array<() => void> = [];
  const onClientAbort = () => {
    clientAborts++;
    for (const wake of abortWaiters.splice(0)) wake();
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bodyText = Buffer.concat(chunks).toString('utf8');
      const body = parseBody(bodyText);
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      log.push({ method, path: url.pathname, body, headers: req.headers });
      const reply = new ReplyWriter(res, onClientAbort, timeScale);
      router({ req, path: url.pathname, method, body, bodyText, reply }).catch((err: unknown) => {
        if (!res.headersSent) reply.json(500, { error: `fake server bug: ${String(err)}` });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  const handle: FakeServerHandle = {
    url: origin + urlSuffix,
    origin,
    requests,
    log,
    get clientAborts() {
      return clientAborts;
    },
    waitForClientAbort(count = 1, timeoutMs = 2000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (clientAborts >= count) {
            clearTimeout(timer);
            resolve();
            return true;
          }
          return false;
        };
        const timer = setTimeout(
          () => reject(new Error(`fake server: expected ${count} abandoned chat repl(ies) within ${timeoutMs} ms, saw ${clientAborts}`)),
          timeoutMs,
        );
        const wait = () => {
          if (!check()) abortWaiters.push(wait);
        };
        wait();
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return { handle, recordChat: (body) => requests.push(body) };
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
