// What a server will run, as the user sees it in the consent dialog, and a fingerprint to remember consent by.
import { createHash } from 'node:crypto';
import { describeOAuth } from './auth/oauthConfig';
import type { McpServerConfig, McpServerSource } from './types';
import { shellQuote } from '../shared/shellQuote';

/** Workspace-defined servers arrive with a repository, so they need consent and a trusted workspace. */
export function requiresConsent(source: McpServerSource): boolean {
  return source.kind === 'workspaceFile' || source.kind === 'workspaceSetting';
}

/** The exact command line, environment and working directory (or the URL and header names for HTTP). */
export function commandLineOf(config: McpServerConfig): string {
  const t = config.transport;
  if (t.type !== 'stdio') {
    const headers = Object.keys(t.headers);
    const oauth = describeOAuth(t.oauth);
    const extras = [...(headers.length ? [`headers: ${headers.join(', ')}`] : []), ...(oauth ? [oauth] : [])];
    return `${t.type === 'sse' ? 'SSE' : 'HTTP'} ${t.url}${extras.length ? ` (${extras.join('; ')})` : ''}`;
  }
  const env = Object.entries(t.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const line = [...env, shellQuote(t.command), ...t.args.map(shellQuote)].join(' ');
  return t.cwd ? `${line}  (in ${t.cwd})` : line;
}

/**
 * Changes whenever what would run changes (command, args, env, cwd, URL, headers), so a remembered consent
 * never covers an edited definition.
 */
export function consentFingerprint(config: McpServerConfig): string {
  const t = config.transport;
  const canonical =
    t.type === 'stdio'
      ? { type: t.type, command: t.command, args: t.args, env: sortKeys(t.env), cwd: t.cwd ?? null }
      : { type: t.type, url: t.url, headers: sortKeys(t.headers), ...(t.oauth !== undefined && { oauth: withoutSecrets(t.oauth) }) };
  // Risk overrides decide which of its tools run without asking: a changed one needs consent again. Left out when
  // unset, so consents given before they counted still hold for definitions without any.
  const tools = Object.entries(config.tools ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const approvals = { ...(config.risk !== undefined && { risk: config.risk }), ...(tools.length > 0 && { tools }) };
  return createHash('sha256').update(JSON.stringify({ name: config.name, ...canonical, ...approvals })).digest('hex');
}

/** "risk: read; tool x: write, y: disabled" when the definition overrides how its tools are approved. */
export function approvalOverridesOf(config: McpServerConfig): string | undefined {
  const parts = [
    ...(config.risk !== undefined ? [`every tool counts as ${config.risk}`] : []),
    ...Object.entries(config.tools ?? {}).map(([name, o]) => `${name}: ${o.disabled ? 'disabled' : `counts as ${o.risk ?? 'default'}`}`),
  ];
  return parts.length ? parts.join('; ') : undefined;
}

/** The OAuth settings minus secret values (only whether one is set), so a fingerprint never carries them. */
function withoutSecrets(oauth: NonNullable<Extract<McpServerConfig['transport'], { type: 'http' | 'sse' }>['oauth']>): unknown {
  if (oauth === false) return false;
  const { clientSecret, privateKey, enterprise, ...rest } = oauth;
  return {
    ...rest,
    clientSecret: clientSecret !== undefined,
    privateKey: privateKey !== undefined,
    ...(enterprise && { enterprise: { tokenEndpoint: enterprise.tokenEndpoint, clientId: enterprise.clientId } }),
  };
}

function sortKeys(record: Record<string, string>): Array<[string, string]> {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
