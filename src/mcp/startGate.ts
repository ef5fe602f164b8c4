// Before a server starts: may it (workspace trust, the user's consent), and does it sign in with OAuth.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { untilAborted } from '../core/abortable';
import { McpAuthSession } from './auth/authSession';
import type { McpAuthEnv } from './auth/types';
import { commandLineOf, requiresConsent } from './serverCommand';
import { loadMcpSdk } from './sdk';
import type { McpConsentPort, McpServerConfig, McpServerState } from './types';

export interface ConsentEnv {
  consent?: McpConsentPort;
  isWorkspaceTrusted: () => boolean;
}

/**
 * True when the server may start; otherwise why it is blocked. Workspace-defined servers need a trusted workspace
 * and the user's consent; anything unclear (no one to ask, a failed dialog, a cancelled start) means no.
 */
export async function consentVerdict(
  config: McpServerConfig,
  env: ConsentEnv,
  o: { given: boolean; asking: () => void; log: (line: string) => void; signal: AbortSignal },
): Promise<true | string> {
  if (!requiresConsent(config.source)) return true;
  if (!env.isWorkspaceTrusted()) return 'This workspace is not trusted, so servers defined by the workspace do not start.';
  if (o.given) return true;
  if (!env.consent) return 'This server is defined by the workspace and needs your consent to start, but no one can be asked.';
  o.asking();
  let granted = false;
  try {
    granted = (await untilAborted(env.consent(config, commandLineOf(config)), o.signal)) === true;
  } catch (err) {
    if (!o.signal.aborted) o.log(`asking for consent failed: ${(err as Error).message}`);
  }
  return granted ? true : 'Not started: you did not allow this workspace-defined server to run.';
}

export interface AuthEnvOptions {
  /** Where OAuth records live and how the user signs in; absent: HTTP servers get only their headers. */
  auth?: McpAuthEnv;
  fetch?: FetchLike;
  clientVersion: string;
  now: () => number;
  /** How long a browser sign-in may take. */
  signInTimeoutMs?: number;
}

const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** OAuth for an HTTP server, or null when it has none: OAuth off, a stdio server, or its own Authorization header. */
export async function createAuthSession(config: McpServerConfig, env: AuthEnvOptions, log: (line: string) => void): Promise<McpAuthSession | null> {
  const t = config.transport;
  if (!env.auth || t.type === 'stdio' || t.oauth === false) return null;
  if (Object.keys(t.headers).some((h) => h.toLowerCase() === 'authorization')) return null;
  const sdk = await loadMcpSdk();
  return new McpAuthSession({
    server: config.name,
    serverUrl: t.url,
    config: t.oauth ?? { grant: 'authorization_code' },
    env: env.auth,
    sdk: sdk.auth,
    fetch: env.fetch ?? ((input, init) => fetch(input, init)),
    clientVersion: env.clientVersion,
    now: env.now,
    log,
    signInTimeoutMs: env.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
  });
}

/** Why a tool of this server cannot be called now. */
export function unavailableMessage(server: string, state: McpServerState, message: string | undefined, attempt: string): string {
  const name = `MCP server "${server}"`;
  switch (state) {
    case 'restarting':
      return `${name} is restarting after a crash (${attempt}); try again shortly or use other tools.`;
    case 'starting':
      return `${name} is still starting; try again shortly.`;
    case 'failed':
      return `${name} is down: ${message ?? 'it failed'}`;
    default:
      return `${name} is not running (${state}).`;
  }
}
