// OAuth for HTTP MCP servers (the MCP authorization spec): what a server's definition may say about it, what is
// stored per server, and the ports the host provides (where records live, how the user signs in).
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type * as Auth from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';

/** The SDK's OAuth client side (discovery, registration, PKCE, token requests, refresh), as src/mcp/sdk.ts loads it. */
export interface OAuthSdk {
  auth: typeof Auth.auth;
  discoverOAuthServerInfo: typeof Auth.discoverOAuthServerInfo;
  extractWWWAuthenticateParams: typeof Auth.extractWWWAuthenticateParams;
  createPrivateKeyJwtAuth: typeof createPrivateKeyJwtAuth;
}

/** Enterprise-managed authorization (SEP-990): an identity provider's ID token exchanged for a grant (ID-JAG). */
export interface EnterpriseIdpConfig {
  tokenEndpoint: string;
  clientId: string;
  clientSecret?: string;
  /** The user's ID token from the identity provider (usually `${env:NAME}`). */
  idToken: string;
}

/** The `oauth` object of an HTTP server definition, normalised. Everything is optional. */
export interface McpOAuthConfig {
  /**
   * `authorization_code` (default): the user signs in in a browser. `client_credentials`: a machine client with
   * `clientId` and `clientSecret` or `privateKey`. `enterprise`: `enterprise` below, then a JWT bearer grant.
   */
  grant: 'authorization_code' | 'client_credentials' | 'enterprise';
  /** A pre-registered client; without one the client registers itself (or uses `clientMetadataUrl`). */
  clientId?: string;
  clientSecret?: string;
  /** PEM (PKCS #8) key for `private_key_jwt` client authentication. */
  privateKey?: string;
  /** `ES256` (default), `RS256`, … */
  signingAlgorithm?: string;
  /** Scopes to ask for when the server names none. */
  scopes?: string[];
  /** An https URL where this client's metadata document is published (client ID metadata documents). */
  clientMetadataUrl?: string;
  /** The authorization server a pre-registered client belongs to: its credentials go nowhere else. */
  issuer?: string;
  enterprise?: EnterpriseIdpConfig;
}

/** What is kept for one server (keyed by its URL): never shown to the model, never logged. */
export interface McpAuthRecord {
  /** The MCP server URL the record belongs to; its tokens are only ever sent there. */
  serverUrl: string;
  /** A registration made by this client (dynamic or by metadata document); configured clients are not stored. */
  clientInformation?: OAuthClientInformationMixed & { issuer?: string };
  /** The redirect address the registration was made for. */
  redirectUrl?: string;
  tokens?: OAuthTokens & { issuer?: string };
  /** When the tokens were saved (ms since the epoch): `expires_in` counts from here. */
  savedAt?: number;
  /** The scope the last sign-in asked for. */
  scope?: string;
  discovery?: OAuthDiscoveryState;
}

/** Where records live: VS Code's secret storage, or a file only the user can read (CLI). */
export interface McpAuthStore {
  get(serverUrl: string): Promise<McpAuthRecord | undefined>;
  set(serverUrl: string, record: McpAuthRecord): Promise<void>;
  /** True when something was removed. */
  delete(serverUrl: string): Promise<boolean>;
}

export interface SignInRequest {
  server: string;
  serverUrl: string;
  /** Where the user will sign in. */
  authorizationServer: string;
  /** The redirect address of the last registration, if the host can listen there again. */
  previousRedirectUrl?: string;
}

/** One browser sign-in: where the answer comes back, the hand-off to the browser, and the answer. */
export interface SignInInteraction {
  readonly redirectUrl: string;
  /** Sends the user to the authorization page (opens the browser, prints the address). */
  open(authorizationUrl: URL): Promise<void>;
  /** The query of the redirect back (`code` and `state`, or `error`); rejects when cancelled or timed out. */
  result(signal: AbortSignal): Promise<URLSearchParams>;
  dispose(): void;
}

/**
 * The host's way to sign the user in. Rejects (SignInDeclined) when the user does not want to. Absent: no one
 * can sign in here (a CLI without a terminal), and servers that need it fail saying how to sign in.
 */
export type SignInPort = (request: SignInRequest, signal: AbortSignal) => Promise<SignInInteraction>;

export interface McpAuthEnv {
  store: McpAuthStore;
  signIn?: SignInPort;
  /** How to sign in when `signIn` is absent (e.g. "run `localharness mcp login NAME`"). */
  signInHint?: (server: string) => string;
  /** Every token read or stored, so a log scrubber knows it. */
  onSecret?: (value: string) => void;
}

/** A server said 401, or 403 `insufficient_scope`: someone has to sign in (again, or with more scope). */
export class SignInRequired extends Error {
  constructor(
    readonly server: string,
    readonly challenge: AuthChallenge,
  ) {
    super(
      challenge.status === 403
        ? `MCP server "${server}" needs more permission${challenge.scope ? ` (scope "${challenge.scope}")` : ''}`
        : `MCP server "${server}" needs you to sign in`,
    );
  }
}

/** The sign-in did not happen or did not work; the message says why and what to do. */
export class SignInFailed extends Error {}

/** The user chose not to sign in. */
export class SignInDeclined extends SignInFailed {}

export interface AuthChallenge {
  status: 401 | 403;
  scope?: string;
  resourceMetadataUrl?: URL;
  error?: string;
  /** The token was already refreshed (or a machine grant made) for this request, and the server still refused. */
  retried?: boolean;
}
