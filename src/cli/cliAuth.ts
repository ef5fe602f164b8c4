// OAuth for the CLI's MCP servers: tokens in a file only the user can read, and a browser sign-in through a
// loopback redirect when someone can do it (a terminal, or $BROWSER set); otherwise the server fails saying how.
import type { McpAuthEnv } from '../mcp/auth/types';
import { defaultAuthFile, FileAuthStore } from './fileAuthStore';
import { loopbackSignIn } from './loopbackSignIn';

export interface CliAuthOptions {
  configPath: string;
  /** Whether a browser sign-in may start (see canSignInHere). */
  interactive: boolean;
  /** Where the sign-in address and messages go (stderr). */
  output: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  warn: (message: string) => void;
}

/** A person can follow a sign-in: there is a terminal, or $BROWSER names a browser to open. */
export function canSignInHere(stdin: { isTTY?: boolean }, stderr: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stdin.isTTY === true || stderr.isTTY === true || !!env.BROWSER;
}

export function cliAuthEnv(o: CliAuthOptions): McpAuthEnv & { store: FileAuthStore } {
  const store = new FileAuthStore(defaultAuthFile(o.env), o.warn);
  return {
    store,
    ...(o.interactive && { signIn: loopbackSignIn({ output: o.output, env: o.env }) }),
    signInHint: (server) => `run \`localharness mcp login --mcp-config ${o.configPath} ${server}\` on a terminal`,
  };
}
