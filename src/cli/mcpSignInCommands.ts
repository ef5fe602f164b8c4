// `localharness mcp login SERVER` and `mcp logout SERVER`: sign in to an HTTP server now, or forget its tokens.
import type { McpLoginOptions, McpLogoutOptions } from './args';
import type { OpenedCliMcp } from './cliMcp';
import { startServer, type McpCommandIo } from './mcpStart';
import { UsageError } from './usageError';
import { printable } from './terminalLines';

export async function loginCommand(options: McpLoginOptions, mcp: OpenedCliMcp, io: McpCommandIo, signal: AbortSignal): Promise<number> {
  const url = httpUrlOf(mcp, options.server);
  const status = await startServer(mcp.manager, options.server, options.mcpConfig, signal);
  const signedIn = (await mcp.auth.store.get(url))?.tokens !== undefined;
  io.stdout.write(
    signedIn
      ? `Signed in to MCP server "${printable(options.server)}" (${url}); it offers ${status.tools.length} tool${status.tools.length === 1 ? '' : 's'}. The tokens are in ${mcp.auth.store.file} (only you can read it).\n`
      : `MCP server "${printable(options.server)}" (${url}) is ready and did not ask for a sign-in.\n`,
  );
  return 0;
}

export async function logoutCommand(options: McpLogoutOptions, mcp: OpenedCliMcp, io: McpCommandIo): Promise<number> {
  const url = httpUrlOf(mcp, options.server);
  const removed = await mcp.manager.signOut(options.server);
  io.stdout.write(
    removed
      ? `Signed out of MCP server "${printable(options.server)}" (${url}): its tokens and client registration were removed from ${mcp.auth.store.file}.\n`
      : `MCP server "${printable(options.server)}" (${url}) was not signed in; nothing to remove.\n`,
  );
  return 0;
}

function httpUrlOf(mcp: OpenedCliMcp, name: string): string {
  const known = mcp.manager.serverNames();
  if (!known.includes(name)) throw new UsageError(`there is no MCP server named "${name}" in the file${known.length ? ` (servers: ${known.join(', ')})` : ''}`);
  const transport = mcp.servers.find((s) => s.name === name)!.transport;
  if (transport.type === 'stdio') throw new UsageError(`MCP server "${name}" runs a command, not an HTTP server: there is nothing to sign in to`);
  return transport.url;
}
