// OAuth for one HTTP MCP server while it runs. Every request to the server carries the stored access token
// (refreshed shortly before it expires); a 401 is answered with a refresh or a machine grant when one can do,
// otherwise the request fails with SignInRequired and the connection asks for a browser sign-in (signIn) and
// tries again. The SDK does the protocol work (discovery, registration, PKCE, token requests).
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthServerInfo } from '@modelcontextprotocol/sdk/client/auth.js';
import { untilAborted } from '../../core/abortable';
import { NeedsInteraction, StoredAuthProvider } from './storedProvider';
import { addScope, coversScope, unionScope } from './scopes';
import { SignInFailed, SignInRequired, type AuthChallenge, type McpAuthEnv, type McpOAuthConfig, type OAuthSdk } from './types';

export interface AuthSessionOptions {
  server: string;
  serverUrl: string;
  config: McpOAuthConfig;
  env: McpAuthEnv;
  sdk: OAuthSdk;
  /** For the MCP requests and the OAuth ones. */
  fetch: FetchLike;
  clientVersion: string;
  now: () => number;
  log: (line: string) => void;
  /** How long the user has to finish a browser sign-in. */
  signInTimeoutMs: number;
}

/** Refresh this long before expiry (less for short-lived tokens: half their lifetime). */
const REFRESH_MARGIN_MS = 60_000;

export class McpAuthSession {
  private readonly provider: StoredAuthProvider;
  private readonly origin: string;
  private refreshing: Promise<boolean> | undefined;
  private signingIn: Promise<void> | undefined;
  /** The last challenge a response carried: the SSE transport does not pass our error through. */
  private lastChallenge: AuthChallenge | undefined;
  /** What the last browser sign-in asked for: step-up asks for more, never less, and never the same twice. */
  private grantedScope: string | undefined;

  constructor(private readonly o: AuthSessionOptions) {
    this.origin = new URL(o.serverUrl).origin;
    this.provider = new StoredAuthProvider({
      serverUrl: o.serverUrl,
      config: o.config,
      store: o.env.store,
      clientVersion: o.clientVersion,
      fetch: o.fetch,
      now: o.now,
      ...(o.env.onSecret && { onSecret: o.env.onSecret }),
      makePrivateKeyJwtAuth: (opts) => o.sdk.createPrivateKeyJwtAuth(opts),
    });
  }

  /** The fetch the transports use: the bearer token on every request to the server, challenges turned into errors. */
  fetch(): FetchLike {
    return async (input, init) => {
      await this.provider.load();
      await this.refreshIfExpiring();
      let response = await this.send(input, init);
      const challenge = this.challengeIn(response);
      if (!challenge) return response;
      await response.body?.cancel().catch(() => undefined);
      if (await this.withoutUser(challenge)) {
        response = await this.send(input, init);
        const again = this.challengeIn(response);
        if (!again) return response;
        await response.body?.cancel().catch(() => undefined);
        this.lastChallenge = { ...again, retried: true };
        throw new SignInRequired(this.o.server, this.lastChallenge);
      }
      this.lastChallenge = challenge;
      throw new SignInRequired(this.o.server, challenge);
    };
  }

  /** Start of a connection attempt: an older challenge says nothing about this one. */
  beginAttempt(): void {
    this.lastChallenge = undefined;
  }

  /** The challenge behind a failure, if the server asked for a sign-in during it. */
  challengeOf(err: unknown): AuthChallenge | undefined {
    if (err instanceof SignInRequired) return err.challenge;
    return this.lastChallenge;
  }

  /** Whether tokens are stored for this server. */
  async signedIn(): Promise<boolean> {
    return (await this.provider.load()).tokens !== undefined;
  }

  /**
   * Gets a token the way the server's challenge asks: a machine grant, a refresh, or a browser sign-in (through
   * the host). Concurrent callers share one sign-in. Throws SignInFailed saying why it did not work.
   */
  signIn(challenge: AuthChallenge, signal: AbortSignal): Promise<void> {
    this.signingIn ??= this.runSignIn(challenge, signal).finally(() => (this.signingIn = undefined));
    return this.signingIn;
  }

  /** Forgets the tokens and the registration (sign out). True when something was stored. */
  async signOut(): Promise<boolean> {
    const had = (await this.provider.load()).tokens !== undefined;
    await this.provider.invalidateCredentials('all');
    this.grantedScope = undefined;
    return had;
  }

  private async runSignIn(challenge: AuthChallenge, signal: AbortSignal): Promise<void> {
    const { o } = this;
    await this.provider.load();
    if (o.config.grant !== 'authorization_code') {
      if (challenge.retried) throw new SignInFailed(`MCP server "${o.server}" refuses the token its authorization server just issued${challenge.error ? ` (${challenge.error})` : ''}`);
      return this.machineGrant(challenge);
    }
    // A 401 reached here after fetch() tried the refresh token already (withoutUser): only the user can help now.
    if (challenge.status === 403 && this.grantedScope !== undefined && coversScope(this.grantedScope, challenge.scope)) {
      throw new SignInFailed(
        `MCP server "${o.server}" still refuses${challenge.scope ? ` (it wants scope "${challenge.scope}")` : ''} although you just signed in with ${this.grantedScope ? `scope "${this.grantedScope}"` : 'the scope it asked for'}; not asking again`,
      );
    }
    if (!o.env.signIn) throw new SignInFailed(`MCP server "${o.server}" needs you to sign in${o.env.signInHint ? `: ${o.env.signInHint(o.server)}` : ''}`);
    const info = await this.discover(challenge);
    const scope = this.scopeFor(challenge, info);
    const asking = o.env.signIn(
      {
        server: o.server,
        serverUrl: o.serverUrl,
        authorizationServer: info.authorizationServerUrl,
        ...(this.provider.current.redirectUrl && { previousRedirectUrl: this.provider.current.redirectUrl }),
      },
      signal,
    );
    // A stop does not wait for the user to answer the question; an answer that comes later is cleaned up.
    asking.then((late) => signal.aborted && late.dispose(), () => undefined);
    const interaction = await untilAborted(asking, signal, () => new SignInFailed('the sign-in was cancelled'));
    this.provider.beginInteraction(interaction);
    try {
      await this.provider.invalidateCredentials('tokens');
      const options = { serverUrl: o.serverUrl, fetchFn: o.fetch, ...(scope && { scope }), ...(challenge.resourceMetadataUrl && { resourceMetadataUrl: challenge.resourceMetadataUrl }) };
      if ((await o.sdk.auth(this.provider, options)) !== 'AUTHORIZED') {
        o.log(`waiting for the browser sign-in at ${info.authorizationServerUrl}`);
        const answer = await interaction.result(AbortSignal.any([signal, AbortSignal.timeout(o.signInTimeoutMs)]));
        const refused = answer.get('error');
        if (refused) throw new SignInFailed(`the authorization server refused the sign-in: ${refused}${answer.get('error_description') ? ` (${answer.get('error_description')})` : ''}`);
        if (answer.get('state') !== this.provider.expectedState) throw new SignInFailed('the browser came back with an answer that does not belong to this sign-in (its state differs); try again');
        const code = answer.get('code');
        if (!code) throw new SignInFailed('the browser came back without an authorization code');
        if ((await o.sdk.auth(this.provider, { ...options, authorizationCode: code })) !== 'AUTHORIZED') throw new SignInFailed('the authorization code was not accepted');
      }
      this.grantedScope = unionScope(scope, this.provider.tokens()?.scope);
      o.log(`signed in${scope ? ` (scope "${scope}")` : ''}`);
    } catch (err) {
      throw this.failure(err, signal);
    } finally {
      this.provider.endInteraction();
      interaction.dispose();
    }
  }

  /** Client credentials or the enterprise grant: no person involved. */
  private async machineGrant(challenge: AuthChallenge): Promise<void> {
    const { o } = this;
    const scope = challenge.scope ?? o.config.scopes?.join(' ');
    this.provider.requestScope = scope;
    try {
      const options = { serverUrl: o.serverUrl, fetchFn: o.fetch, ...(scope && { scope }), ...(challenge.resourceMetadataUrl && { resourceMetadataUrl: challenge.resourceMetadataUrl }) };
      if ((await o.sdk.auth(this.provider, options)) !== 'AUTHORIZED') throw new Error('no token was issued');
      o.log(`obtained a token (${o.config.grant.replace('_', ' ')})`);
    } catch (err) {
      throw this.failure(err);
    }
  }

  private async discover(challenge: AuthChallenge): Promise<OAuthServerInfo> {
    const { o } = this;
    try {
      const info = await o.sdk.discoverOAuthServerInfo(o.serverUrl, { fetchFn: o.fetch, ...(challenge.resourceMetadataUrl && { resourceMetadataUrl: challenge.resourceMetadataUrl }) });
      await this.provider.saveDiscoveryState({ ...info, ...(challenge.resourceMetadataUrl && { resourceMetadataUrl: challenge.resourceMetadataUrl.href }) });
      return info;
    } catch (err) {
      throw new SignInFailed(`could not find the authorization server of MCP server "${o.server}": ${(err as Error).message}`);
    }
  }

  /**
   * The scope to ask for: the server's challenge, else what its metadata lists, else the configured scopes; a
   * step-up keeps what was granted before; offline_access (for a refresh token) when the authorization server lists it.
   */
  private scopeFor(challenge: AuthChallenge, info: OAuthServerInfo): string | undefined {
    let scope = challenge.scope ?? info.resourceMetadata?.scopes_supported?.join(' ') ?? this.o.config.scopes?.join(' ');
    if (challenge.status === 403) scope = unionScope(this.grantedScope, scope);
    if (scope && info.authorizationServerMetadata?.scopes_supported?.includes('offline_access')) scope = addScope(scope, 'offline_access');
    return scope || undefined;
  }

  private async send(input: string | URL, init: RequestInit | undefined): Promise<Response> {
    const token = this.provider.tokens()?.access_token;
    const url = typeof input === 'string' ? new URL(input) : input;
    // The token belongs to this server: never sent anywhere else.
    if (!token || url.origin !== this.origin) return this.o.fetch(input, init);
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return this.o.fetch(input, { ...init, headers });
  }

  private challengeIn(response: Response): AuthChallenge | undefined {
    if (response.status !== 401 && response.status !== 403) return undefined;
    const { scope, resourceMetadataUrl, error } = this.o.sdk.extractWWWAuthenticateParams(response);
    if (response.status === 403 && error !== 'insufficient_scope') return undefined;
    return { status: response.status, ...(scope && { scope }), ...(resourceMetadataUrl && { resourceMetadataUrl }), ...(error && { error }) };
  }

  /** What can be done without the user: a machine grant, or a refresh after a 401. */
  private async withoutUser(challenge: AuthChallenge): Promise<boolean> {
    if (this.o.config.grant !== 'authorization_code') {
      await this.machineGrant(challenge);
      return true;
    }
    return challenge.status === 401 && this.refresh();
  }

  private async refreshIfExpiring(): Promise<void> {
    const expiresAt = this.provider.expiresAt();
    const tokens = this.provider.tokens();
    if (expiresAt === undefined || !tokens?.refresh_token) return;
    const margin = Math.min(REFRESH_MARGIN_MS, ((tokens.expires_in ?? 0) * 1000) / 2);
    if (expiresAt - this.o.now() <= margin) await this.refresh();
  }

  /** A refresh token exchanged for new tokens; false when there is none or it no longer works. One at a time. */
  private refresh(): Promise<boolean> {
    if (!this.provider.tokens()?.refresh_token) return Promise.resolve(false);
    this.refreshing ??= (async () => {
      try {
        const result = await this.o.sdk.auth(this.provider, { serverUrl: this.o.serverUrl, fetchFn: this.o.fetch });
        if (result === 'AUTHORIZED') this.o.log('refreshed the access token');
        return result === 'AUTHORIZED';
      } catch (err) {
        if (!(err instanceof NeedsInteraction)) this.o.log(`refreshing the access token failed: ${(err as Error).message}`);
        return false;
      }
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private failure(err: unknown, signal?: AbortSignal): SignInFailed {
    if (err instanceof SignInFailed) return err;
    if (signal?.aborted) return new SignInFailed('the sign-in was cancelled');
    if ((err as Error)?.name === 'TimeoutError') return new SignInFailed(`nobody finished the sign-in within ${Math.round(this.o.signInTimeoutMs / 1000)} s`);
    const message = (err as Error)?.message ?? String(err);
    // The one fix only the user can make: name a client registered with that authorization server.
    const hint = /dynamic client registration/i.test(message) ? '; give the server "oauth": {"clientId": …} (a client registered with its authorization server)' : '';
    return new SignInFailed(`signing in to MCP server "${this.o.server}" failed: ${message}${hint}`);
  }
}
