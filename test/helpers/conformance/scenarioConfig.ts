// How a user would configure Local Harness for each conformance scenario: one HTTP server named "conf", with the
// OAuth settings the scenario's context hands over (a pre-registered client, client credentials, a private key,
// an identity provider). Secrets go through `${env:NAME}` and a key file, as the README advises.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** A client ID metadata document a real deployment would publish; the suite accepts this one as such. */
export const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

export interface ScenarioSetup {
  /** The `servers` object of the MCP config file. */
  servers: Record<string, unknown>;
  /** Environment the `${env:…}` references read. */
  env: Record<string, string>;
}

type Context = Record<string, string | undefined>;

export function scenarioSetup(scenario: string, serverUrl: string, context: Context, dir: string): ScenarioSetup {
  const env: Record<string, string> = {};
  let oauth: Record<string, unknown> | undefined;
  switch (scenario) {
    case 'auth/pre-registration':
      env.CONF_CLIENT_SECRET = context.client_secret!;
      oauth = { clientId: context.client_id, clientSecret: '${env:CONF_CLIENT_SECRET}' };
      break;
    case 'auth/client-credentials-basic':
      env.CONF_CLIENT_SECRET = context.client_secret!;
      oauth = { grant: 'client_credentials', clientId: context.client_id, clientSecret: '${env:CONF_CLIENT_SECRET}' };
      break;
    case 'auth/client-credentials-jwt': {
      const keyFile = path.join(dir, 'client-key.pem');
      writeFileSync(keyFile, context.private_key_pem!, { mode: 0o600 });
      oauth = { grant: 'client_credentials', clientId: context.client_id, privateKeyFile: keyFile, signingAlgorithm: context.signing_algorithm ?? 'ES256' };
      break;
    }
    case 'auth/cross-app-access-complete-flow':
      env.CONF_CLIENT_SECRET = context.client_secret!;
      env.CONF_ID_TOKEN = context.idp_id_token!;
      oauth = {
        grant: 'enterprise',
        clientId: context.client_id,
        clientSecret: '${env:CONF_CLIENT_SECRET}',
        enterprise: { tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id, idToken: '${env:CONF_ID_TOKEN}' },
      };
      break;
    default:
      if (scenario.startsWith('auth/')) oauth = { clientMetadataUrl: CLIENT_METADATA_URL };
  }
  return { servers: { conf: { type: 'http', url: serverUrl, ...(oauth && { oauth }) } }, env };
}

/** What the CLI is asked to do: `mcp list` for the handshake alone, else `run` with a model that calls a tool. */
export function drives(scenario: string): 'list' | 'run' {
  return scenario === 'initialize' ? 'list' : 'run';
}

/** Scenarios whose server answers with an elicitation that someone must answer on a terminal. */
export function needsTerminal(scenario: string): boolean {
  return scenario.startsWith('elicitation');
}

/** Scenarios where the client is meant to give up (the suite allows a failed exit there). */
export function mayFail(scenario: string): boolean {
  return scenario === 'auth/scope-retry-limit' || scenario === 'auth/resource-mismatch';
}
