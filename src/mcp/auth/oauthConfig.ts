// The `oauth` entry of an HTTP server definition: `false` turns OAuth off, an object names a client, scopes or
// another grant. Secrets may come from the environment (`${env:NAME}`) so they need not sit in the file.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { McpOAuthConfig } from './types';

export class OAuthConfigError extends Error {}

const httpsUrl = z.string().refine((s) => /^https:\/\/[^/]+\/.+/.test(s), 'must be an https URL with a path');
const anyUrl = z.string().refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'must be an http(s) URL');

export const oauthSchema = z.union([
  z.literal(false),
  z
    .object({
      grant: z.enum(['authorization_code', 'client_credentials', 'enterprise']).optional(),
      clientId: z.string().min(1).optional(),
      clientSecret: z.string().optional(),
      privateKey: z.string().optional(),
      privateKeyFile: z.string().optional(),
      signingAlgorithm: z.string().regex(/^(ES|RS|PS)(256|384|512)$/, 'must be like ES256 or RS256').optional(),
      scopes: z.union([z.array(z.string().min(1)), z.string()]).optional(),
      clientMetadataUrl: httpsUrl.optional(),
      issuer: anyUrl.optional(),
      enterprise: z
        .object({
          tokenEndpoint: anyUrl,
          clientId: z.string().min(1),
          clientSecret: z.string().optional(),
          idToken: z.string(),
        })
        .strict()
        .optional(),
    })
    .strict(),
]);

export type RawOAuth = z.infer<typeof oauthSchema>;

/**
 * Normalises a parsed `oauth` entry: variables expanded, the key file read, the grant checked against what it
 * needs. `false` and absence are returned as they are.
 */
export function normaliseOAuth(raw: RawOAuth | undefined, expand: (value: string) => string, baseDir: string | undefined): McpOAuthConfig | false | undefined {
  if (raw === undefined || raw === false) return raw;
  const grant = raw.grant ?? (raw.enterprise ? 'enterprise' : 'authorization_code');
  const clientSecret = raw.clientSecret !== undefined ? expand(raw.clientSecret) : undefined;
  let privateKey = raw.privateKey !== undefined ? expand(raw.privateKey) : undefined;
  if (raw.privateKeyFile !== undefined) {
    if (privateKey !== undefined) throw new OAuthConfigError('has both "oauth.privateKey" and "oauth.privateKeyFile"; keep one');
    const file = expand(raw.privateKeyFile);
    const absolute = isAbsolute(file) ? file : baseDir ? resolve(baseDir, file) : undefined;
    if (!absolute) throw new OAuthConfigError(`has a relative "oauth.privateKeyFile" (${file}) but no folder to resolve it against`);
    try {
      privateKey = readFileSync(absolute, 'utf8');
    } catch (err) {
      throw new OAuthConfigError(`cannot read "oauth.privateKeyFile" ${absolute}: ${(err as Error).message}`);
    }
  }
  const scopes = typeof raw.scopes === 'string' ? raw.scopes.split(/\s+/).filter(Boolean) : raw.scopes;
  const config: McpOAuthConfig = {
    grant,
    ...(raw.clientId !== undefined && { clientId: expand(raw.clientId) }),
    ...(clientSecret && { clientSecret }),
    ...(privateKey && { privateKey }),
    ...(raw.signingAlgorithm !== undefined && { signingAlgorithm: raw.signingAlgorithm }),
    ...(scopes?.length && { scopes }),
    ...(raw.clientMetadataUrl !== undefined && { clientMetadataUrl: raw.clientMetadataUrl }),
    ...(raw.issuer !== undefined && { issuer: raw.issuer }),
  };
  if (grant !== 'authorization_code' && !config.clientId) throw new OAuthConfigError(`has "oauth.grant": "${grant}" but no "oauth.clientId"`);
  if (grant === 'client_credentials' && !config.clientSecret && !config.privateKey) {
    throw new OAuthConfigError('has "oauth.grant": "client_credentials" but neither "oauth.clientSecret" nor "oauth.privateKey"');
  }
  if (grant === 'enterprise') {
    if (!raw.enterprise) throw new OAuthConfigError('has "oauth.grant": "enterprise" but no "oauth.enterprise" (tokenEndpoint, clientId, idToken)');
    const idToken = expand(raw.enterprise.idToken);
    if (!idToken) throw new OAuthConfigError('has an empty "oauth.enterprise.idToken"');
    const idpSecret = raw.enterprise.clientSecret !== undefined ? expand(raw.enterprise.clientSecret) : undefined;
    config.enterprise = {
      tokenEndpoint: expand(raw.enterprise.tokenEndpoint),
      clientId: expand(raw.enterprise.clientId),
      idToken,
      ...(idpSecret && { clientSecret: idpSecret }),
    };
  }
  return config;
}

/** What the consent dialog shows about a server's OAuth settings (never a secret). */
export function describeOAuth(config: McpOAuthConfig | false | undefined): string {
  if (config === false) return 'OAuth off';
  if (!config) return '';
  const parts = [config.grant === 'authorization_code' ? 'OAuth sign-in' : `OAuth ${config.grant.replace('_', ' ')}`];
  if (config.clientId) parts.push(`client ${config.clientId}`);
  if (config.scopes?.length) parts.push(`scopes ${config.scopes.join(' ')}`);
  if (config.enterprise) parts.push(`identity provider ${config.enterprise.tokenEndpoint}`);
  return parts.join(', ');
}
