// An MCP server that needs OAuth: Streamable HTTP at /mcp behind the SDK's bearer-token middleware, with its
// protected-resource metadata naming the test authorization server. Every request without a valid token gets
// 401 and a WWW-Authenticate challenge, as a real remote MCP server answers. Its tools: `add` and `whoami` (the
// client id and scopes of the caller's token, never the token).
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { TestAuthServer } from './authServer';

export interface ProtectedServerOptions {
  /** Scopes every request needs (sent in the challenge, listed in the metadata). */
  requiredScopes?: string[];
}

export class ProtectedMcpServer {
  /** Requests that reached the MCP handler (a valid token), and bearer tokens seen there. */
  readonly seen = { authorized: 0, rejected: 0, tokens: new Set<string>() };
  private http: HttpServer | undefined;
  url = '';

  private constructor(
    private readonly auth: TestAuthServer,
    private readonly options: ProtectedServerOptions,
  ) {}

  static async start(auth: TestAuthServer, options: ProtectedServerOptions = {}): Promise<ProtectedMcpServer> {
    const server = new ProtectedMcpServer(auth, options);
    await server.listen();
    return server;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    this.http?.closeAllConnections();
  }

  private async listen(): Promise<void> {
    const app = express();
    app.use(express.json());
    const http = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => http.once('listening', () => resolve()));
    this.http = http;
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    this.url = `${origin}/mcp`;
    const scopes = this.options.requiredScopes ?? [];
    app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
      res.json({ resource: this.url, authorization_servers: [this.auth.url], ...(scopes.length && { scopes_supported: scopes }) });
    });
    const bearer = requireBearerAuth({ verifier: { verifyAccessToken: (token) => this.auth.verify(token) }, requiredScopes: scopes, resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource/mcp` });
    app.use('/mcp', (req, res, next) => {
      res.on('finish', () => {
        if (res.statusCode === 401 || res.statusCode === 403) this.seen.rejected++;
      });
      void bearer(req, res, next);
    });
    app.post('/mcp', async (req, res) => {
      const info = (req as { auth?: AuthInfo }).auth!;
      this.seen.authorized++;
      this.seen.tokens.add(info.token);
      const server = this.mcpServer(info);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    });
    app.get('/mcp', (_req, res) => void res.status(405).end());
  }

  private mcpServer(info: AuthInfo): Server {
    const server = new Server({ name: 'protected-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'add', description: 'Add two numbers.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, annotations: { readOnlyHint: true } },
        { name: 'whoami', description: 'Who the caller signed in as.', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      if (req.params.name === 'whoami') return { content: [{ type: 'text', text: `client ${info.clientId}, scopes: ${info.scopes.join(' ') || '(none)'}` }] };
      const { a, b } = req.params.arguments as { a: number; b: number };
      return { content: [{ type: 'text', text: `sum: ${a + b}` }] };
    });
    return server;
  }
}
