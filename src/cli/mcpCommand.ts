// `localharness mcp list|resource|prompt`: the servers of an MCP config file, without the agent. Servers start,
// answer, and are stopped again before the command returns (none outlives it, also on Ctrl-C).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError, type McpOptions } from './args';
import { canSignInHere } from './cliAuth';
import { openCliMcp, workspaceRoots } from './cliMcp';
import type { McpCommandIo } from './mcpStart';

/** Returns the exit code: 0 done, 1 failed (2, usage, is thrown as UsageError). */
export async function mcpCommand(options: McpOptions, io: McpCommandIo, signal: AbortSignal): Promise<number> {
  const workspace = path.resolve(options.workspace);
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
  const warn = (m: string) => void io.stderr.write(`localharness: ${m}\n`);
  // Servers may ask for the roots; elicitation and sampling are not offered here (nobody runs a model).
  const mcp = await openCliMcp(options.mcpConfig, workspace, {
    warn,
    features: { roots: () => workspaceRoots(workspace) },
    // `mcp login` is how one signs in without a terminal in the loop: it always may.
    interactive: options.action === 'login' || canSignInHere(process.stdin, io.stderr as NodeJS.WriteStream, process.env),
    output: io.stderr,
    env: process.env,
  });
  try {
    // These start the servers: a file changed since the user last ran it is asked about first (mcpTrust.ts).
    if (options.action === 'list' || options.action === 'resource' || options.action === 'prompt') {
      const { checkMcpTrust, defaultTrustFile, ttyYesNo } = await import('./mcpTrust');
      const trust = { trusted: options.trustMcpConfig === true, trustFile: defaultTrustFile(process.env), ask: ttyYesNo(process.stdin, io.stderr) };
      await checkMcpTrust({ configPath: options.mcpConfig, workspace, servers: mcp.servers, warn, ...trust });
    }
    if (options.action === 'list') {
      const { listCommand } = await import('./mcpListCommand');
      return await listCommand(options, mcp, io, signal);
    }
    if (options.action === 'resource') {
      const { resourceCommand } = await import('./mcpResourceCommand');
      return await resourceCommand(options, mcp.manager, io, signal);
    }
    if (options.action === 'login' || options.action === 'logout') {
      const { loginCommand, logoutCommand } = await import('./mcpSignInCommands');
      return options.action === 'login' ? await loginCommand(options, mcp, io, signal) : await logoutCommand(options, mcp, io);
    }
    const { promptCommand } = await import('./mcpPromptCommand');
    return await promptCommand(options, mcp.manager, io, signal);
  } finally {
    await mcp.dispose(signal.aborted);
  }
}
