// Enterprise-managed authorization (SEP-990): the identity provider exchanges the user's ID token for an
// identity assertion grant (ID-JAG, RFC 8693 token exchange), which the MCP server's authorization server then
// takes as a JWT bearer grant (RFC 7523). The SDK has no helper for the first step, so it is this one request.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { EnterpriseIdpConfig } from './types';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

/** Returns the ID-JAG for `audience` (the authorization server's issuer) and `resource` (the MCP server). */
export async function exchangeIdToken(
  idp: EnterpriseIdpConfig,
  target: { audience: string; resource: string; scope?: string },
  fetchFn: FetchLike,
): Promise<string> {
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG,
    audience: target.audience,
    resource: target.resource,
    subject_token: idp.idToken,
    subject_token_type: ID_TOKEN,
    ...(target.scope && { scope: target.scope }),
  });
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  if (idp.clientSecret) headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(idp.clientId)}:${encodeURIComponent(idp.clientSecret)}`).toString('base64')}`;
  else body.set('client_id', idp.clientId);
  const response = await fetchFn(idp.tokenEndpoint, { method: 'POST', headers, body });
  const text = await response.text();
  let data: { access_token?: unknown; issued_token_type?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    // reported below with the status
  }
  if (!response.ok || typeof data.access_token !== 'string') {
    const why = typeof data.error === 'string' ? `${data.error}${typeof data.error_description === 'string' ? `: ${data.error_description}` : ''}` : `HTTP ${response.status}`;
    throw new Error(`the identity provider at ${idp.tokenEndpoint} refused the token exchange (${why})`);
  }
  if (data.issued_token_type !== undefined && data.issued_token_type !== ID_JAG) {
    throw new Error(`the identity provider issued a ${String(data.issued_token_type)}, not an identity assertion grant`);
  }
  return data.access_token;
}
