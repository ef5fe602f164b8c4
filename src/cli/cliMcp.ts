// MCP servers for the CLI (--mcp-config FILE). The file is the user's own choice on the command line, so its
// servers start without a consent prompt; the SDK is loaded only when this runs.
import type { ToolRegistry } from '../core/tools/registry';
import { UsageError } from './args';

export interface CliMcp {
  dispose(): Promise<void>;
}

export async function startCliMcp(configPath: string, workspace: string, registry: ToolRegistry, warn: (m: string) => void): Promise<CliMcp> {
  const { loadMcpConfigFile, McpManager, McpConfigError } = await import('../mcp/index');
  let config;
  try {
    config = await loadMcpConfigFile(configPath, { workspaceFolder: workspace });
  } catch (e) {
    if (e instanceof McpConfigError) throw new UsageError(e.message);
    throw e;
  }
  for (const message of [...config.errors, ...config.warnings]) warn(`MCP config: ${typeof message === 'string' ? message : JSON.stringify(message)}`);
  const manager = new McpManager({ registry });
  await manager.setServers(config.servers);
  await manager.startAll();
  for (const status of manager.statuses()) {
    if (status.state !== 'ready') warn(`MCP server "${status.name}" is ${status.state}: ${status.message ?? ''}`);
  }
  return { dispose: () => manager.dispose() };
}
