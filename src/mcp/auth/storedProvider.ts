// The SDK's OAuthClientProvider for one server, backed by the host's store: the SDK does discovery, registration,
// PKCE, token requests and refresh; this class remembers what they produce and says which client and grant to use.
import { randomBytes } from 'node:crypto';
import type { AddClientAuthentication, OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { exchangeIdToken, JWT_BEARER_GRANT } from './enterpriseGrant';
import type { McpAuthRecord, McpAuthStore, McpOAuthConfig, SignInInteraction } from './types';

/** Thrown from redirectToAuthorization outside a sign-in: only a person can go on from here. */
export class NeedsInteraction extends Error {
  constructor() {
    super('a browser sign-in is needed');
  }
}

export interface StoredProviderOptions {
  serverUrl: string;
  config: McpOAuthConfig;
  store: McpAuthStore;
  clientVersion: string;
  fetch: FetchLike;
  now: () => number;
  onSecret?: (value: string) => void;
  makePrivateKeyJwtAuth: (options: { issuer: string; subject: string; privateKey: string; alg: string }) => AddClientAuthentication;
}

/** Redirect of a client that has never signed in interactively; never used for a request (see redirectUrl). */
const NO_REDIRECT_YET = 'http://127.0.0.1/localharness-oauth-callback';

export class StoredAuthProvider implements OAuthClientProvider {
  private record: McpAuthRecord;
  private loaded = false;
  private verifier: string | undefined;
  private interaction: SignInInteraction | undefined;
  /** The `state` of the authorization request in flight. */
  expectedState: string | undefined;
  /** The scope the next token request asks for (client credentials use it; see clientMetadata). */
  requestScope: string | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(private readonly o: StoredProviderOptions) {
    this.record = { serverUrl: o.serverUrl };
    const { config } = o;
    if (config.privateKey && config.clientId) {
      this.addClientAuthentication = o.makePrivateKeyJwtAuth({
        issuer: config.clientId,
        subject: config.clientId,
        privateKey: config.privateKey,
        alg: config.signingAlgorithm ?? 'ES256',
      });
    }
  }

  /** Reads the stored record once (later changes go through this object). */
  async load(): Promise<McpAuthRecord> {
    if (!this.loaded) {
      const stored = await this.o.store.get(this.o.serverUrl);
      // A record is only ever used for the server it was made for.
      if (stored && stored.serverUrl === this.o.serverUrl) this.record = stored;
      this.loaded = true;
      this.reportSecrets();
    }
    return this.record;
  }

  /** Forget the in-memory copy, e.g. after a sign-out elsewhere. */
  reset(): void {
    this.record = { serverUrl: this.o.serverUrl };
    this.loaded = false;
  }

  get current(): McpAuthRecord {
    return this.record;
  }

  /** A browser sign-in begins: its redirect address is the one the SDK registers and sends. */
  beginInteraction(interaction: SignInInteraction): void {
    this.interaction = interaction;
    this.expectedState = undefined;
  }

  endInteraction(): void {
    this.interaction = undefined;
    this.verifier = undefined;
  }

  get redirectUrl(): string | undefined {
    if (this.o.config.grant !== 'authorization_code') return undefined; // the SDK's non-interactive flows
    return this.interaction?.redirectUrl ?? this.record.redirectUrl ?? NO_REDIRECT_YET;
  }

  get clientMetadataUrl(): string | undefined {
    return this.o.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { config } = this.o;
    const scope = this.requestScope ?? config.scopes?.join(' ');
    const common = { client_name: 'Local Harness', software_id: 'localharness', software_version: this.o.clientVersion, ...(scope && { scope }) };
    if (config.grant !== 'authorization_code') {
      return { ...common, redirect_uris: [], grant_types: [config.grant === 'enterprise' ? JWT_BEARER_GRANT : 'client_credentials'], token_endpoint_auth_method: this.authMethod() };
    }
    return {
      ...common,
      redirect_uris: [this.redirectUrl!],
      // refresh_token: so the authorization server may issue refresh tokens (SEP-2207).
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.authMethod(),
    };
  }

  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { config } = this.o;
    if (config.clientId) {
      return {
        client_id: config.clientId,
        ...(config.clientSecret && { client_secret: config.clientSecret }),
        ...(config.issuer && { issuer: config.issuer }),
      };
    }
    const stored = this.record.clientInformation;
    if (!stored) return undefined;
    // A dynamic registration names its redirect addresses; one for another address cannot be used to sign in.
    const uris = (stored as { redirect_uris?: string[] }).redirect_uris;
    if (this.interaction && uris?.length && !uris.includes(this.interaction.redirectUrl)) return undefined;
    return stored;
  }

  async saveClientInformation(info: OAuthClientInformationMixed & { issuer?: string }): Promise<void> {
    if (this.o.config.clientId) return; // configured credentials are never copied into the store
    this.record = { ...this.record, clientInformation: info, ...(this.interaction && { redirectUrl: this.interaction.redirectUrl }) };
    await this.persist();
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens;
  }

  async saveTokens(tokens: OAuthTokens & { issuer?: string }): Promise<void> {
    this.record = { ...this.record, tokens, savedAt: this.o.now() };
    this.reportSecrets();
    await this.persist();
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.interaction) throw new NeedsInteraction();
    await this.interaction.open(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: the sign-in was not started here');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const r = this.record;
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    if (scope === 'all') this.record = { serverUrl: r.serverUrl };
    else if (scope === 'client') this.record = { ...r, clientInformation: undefined, redirectUrl: undefined };
    else if (scope === 'tokens') this.record = { ...r, tokens: undefined, savedAt: undefined };
    else this.record = { ...r, discovery: undefined };
    await this.persist();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.record = { ...this.record, discovery: state };
    await this.persist();
  }

  /** Client credentials and enterprise grants; undefined lets the SDK do the authorization-code exchange. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    const { config } = this.o;
    if (config.grant === 'authorization_code') return undefined;
    if (config.grant === 'client_credentials') {
      return new URLSearchParams({ grant_type: 'client_credentials', ...(scope && { scope }) });
    }
    const discovery = this.record.discovery;
    const audience = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    if (!audience) throw new Error('the authorization server is not known yet');
    const resource = discovery?.resourceMetadata?.resource ?? this.o.serverUrl;
    const assertion = await exchangeIdToken(config.enterprise!, { audience, resource, ...(scope && { scope }) }, this.o.fetch);
    return new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion, ...(scope && { scope }) });
  }

  /** When the access token expires (ms since the epoch), if the server said. */
  expiresAt(): number | undefined {
    const { tokens, savedAt } = this.record;
    return tokens?.expires_in !== undefined && savedAt !== undefined ? savedAt + tokens.expires_in * 1000 : undefined;
  }

  private authMethod(): string {
    const { config } = this.o;
    if (config.privateKey) return 'private_key_jwt';
    return config.clientSecret ? 'client_secret_basic' : 'none';
  }

  private reportSecrets(): void {
    const t = this.record.tokens;
    if (t?.access_token) this.o.onSecret?.(t.access_token);
    if (t?.refresh_token) this.o.onSecret?.(t.refresh_token);
  }

  private async persist(): Promise<void> {
    const r = this.record;
    if (!r.tokens && !r.clientInformation && !r.discovery) await this.o.store.delete(this.o.serverUrl);
    else await this.o.store.set(this.o.serverUrl, r);
  }
}
