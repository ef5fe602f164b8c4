// A local OAuth authorization server for tests, built on the MCP SDK's server-side router (metadata, dynamic
// client registration, authorize, token with PKCE checks, refresh, revocation) with an in-memory provider that
// approves every authorization at once (the "user" always says yes). Counts what clients do, so tests can say
// "no second sign-in" or "the token was refreshed".
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface TestAuthServerOptions {
  /** Lifetime of access tokens (default one hour). */
  accessTokenSeconds?: number;
  scopesSupported?: string[];
  /**
   * Loopback address to listen on (default 127.0.0.1). A browser-based editor sends addresses on localhost and
   * 127.0.0.1 through its port proxy; another loopback address (127.0.0.2) reaches the browser as it is.
   */
  host?: string;
  /** No dynamic client registration: only `preRegistered` clients exist. */
  preRegistered?: OAuthClientInformationFull[];
}

export interface AuthStats {
  registrations: number;
  authorizations: number;
  codeExchanges: number;
  refreshes: number;
  /** The scope of each authorization request, in order. */
  requestedScopes: Array<string | undefined>;
  /** The redirect_uri of each authorization request. */
  redirectUris: string[];
}

interface IssuedToken {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  resource?: URL;
}

export class TestAuthServer {
  readonly stats: AuthStats = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0, requestedScopes: [], redirectUris: [] };
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  private readonly accessTokens = new Map<string, IssuedToken>();
  private readonly refreshTokens = new Map<string, Omit<IssuedToken, 'expiresAt'>>();
  private http: Server | undefined;
  url = '';

  constructor(private readonly options: TestAuthServerOptions = {}) {
    for (const client of options.preRegistered ?? []) this.clients.set(client.client_id, client);
  }

  static async start(options: TestAuthServerOptions = {}): Promise<TestAuthServer> {
    const server = new TestAuthServer(options);
    await server.listen();
    return server;
  }

  /** Every access token issued and still valid. */
  liveAccessTokens(): string[] {
    return [...this.accessTokens.entries()].filter(([, t]) => t.expiresAt > Date.now() / 1000).map(([token]) => token);
  }

  /** Makes every token issued so far invalid (as if the user revoked access elsewhere). */
  revokeEverything(): void {
    this.accessTokens.clear();
    this.refreshTokens.clear();
  }

  /** Checks a bearer token: what the protected MCP server asks. */
  async verify(token: string): Promise<AuthInfo> {
    const found = this.accessTokens.get(token);
    if (!found) throw new InvalidTokenError('unknown or revoked token');
    return { token, clientId: found.clientId, scopes: found.scopes, expiresAt: found.expiresAt, ...(found.resource && { resource: found.resource }) };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    this.http?.closeAllConnections();
  }

  private async listen(): Promise<void> {
    const host = this.options.host ?? '127.0.0.1';
    // The SDK's router wants https issuers except on localhost; this is a local test server on another loopback address.
    if (host !== '127.0.0.1') process.env.MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL ??= '1';
    const { mcpAuthRouter } = await import('@modelcontextprotocol/sdk/server/auth/router.js');
    const app = express();
    const http = app.listen(0, host);
    await new Promise<void>((resolve) => http.once('listening', () => resolve()));
    this.http = http;
    this.url = `http://${host}:${(http.address() as AddressInfo).port}`;
    const off = { rateLimit: false as const };
    app.use(
      mcpAuthRouter({
        provider: this.provider(),
        issuerUrl: new URL(this.url),
        ...(this.options.scopesSupported && { scopesSupported: this.options.scopesSupported }),
        authorizationOptions: off,
        clientRegistrationOptions: off,
        tokenOptions: off,
        revocationOptions: off,
      }),
    );
  }

  private provider(): OAuthServerProvider {
    const clientsStore: OAuthRegisteredClientsStore = {
      getClient: (id) => this.clients.get(id),
      ...(!this.options.preRegistered && {
        registerClient: (client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>) => {
          this.stats.registrations++;
          const full = { ...client, client_id: `client-${randomBytes(6).toString('hex')}`, client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
          this.clients.set(full.client_id, full);
          return full;
        },
      }),
    };
    return {
      clientsStore,
      authorize: async (client, params, res: Response) => {
        this.stats.authorizations++;
        this.stats.requestedScopes.push(params.scopes?.join(' '));
        this.stats.redirectUris.push(params.redirectUri);
        const code = randomBytes(12).toString('hex');
        this.codes.set(code, { clientId: client.client_id, params });
        const target = new URL(params.redirectUri);
        target.searchParams.set('code', code);
        if (params.state !== undefined) target.searchParams.set('state', params.state);
        res.redirect(302, target.href);
      },
      challengeForAuthorizationCode: async (_client, code) => {
        const found = this.codes.get(code);
        if (!found) throw new InvalidGrantError('unknown authorization code');
        return found.params.codeChallenge;
      },
      exchangeAuthorizationCode: async (client, code, _verifier, redirectUri, resource) => {
        const found = this.codes.get(code);
        if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('the code was not issued to this client');
        if (redirectUri !== undefined && redirectUri !== found.params.redirectUri) throw new InvalidGrantError('redirect_uri differs from the authorization request');
        this.codes.delete(code);
        this.stats.codeExchanges++;
        return this.issue(client.client_id, found.params.scopes ?? [], resource ?? found.params.resource);
      },
      exchangeRefreshToken: async (client, refreshToken, scopes, resource) => {
        const found = this.refreshTokens.get(refreshToken);
        if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
        this.refreshTokens.delete(refreshToken);
        this.stats.refreshes++;
        return this.issue(client.client_id, scopes ?? found.scopes, resource ?? found.resource);
      },
      verifyAccessToken: (token) => this.verify(token),
    };
  }

  private issue(clientId: string, scopes: string[], resource: URL | undefined): OAuthTokens {
    const seconds = this.options.accessTokenSeconds ?? 3600;
    const access = `at-${randomBytes(16).toString('hex')}`;
    const refresh = `rt-${randomBytes(16).toString('hex')}`;
    const base = { clientId, scopes, ...(resource && { resource }) };
    this.accessTokens.set(access, { ...base, expiresAt: Date.now() / 1000 + seconds });
    this.refreshTokens.set(refresh, base);
    return { access_token: access, token_type: 'Bearer', expires_in: seconds, refresh_token: refresh, ...(scopes.length && { scope: scopes.join(' ') }) };
  }
}
