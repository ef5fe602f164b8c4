// MCP servers for an ACP session: the ones the client hands over in `session/new` / `session/load` (the user's
// own editor configuration, so they start like the CLI's --mcp-config file) merged with that file. A server the
// client names the same as one in the file replaces it. Workspace-defined servers are not read here, as in the CLI.
import type * as acp from '@agentclientprotocol/sdk';
import type { ToolRegistry } from '../../core/tools/registry';
import type { McpServerConfig } from '../../mcp/types';
import type { McpManager } from '../../mcp/manager';
import { untilAborted } from '../../core/abortable';
import { workspaceRoots } from '../cliMcp';

export interface AcpMcp {
  manager: McpManager;
  dispose(interrupted?: boolean): Promise<void>;
}

/** The client's server descriptions as our configs; a description we cannot use is reported, not guessed at. */
export function clientServerConfigs(servers: readonly acp.McpServer[], warn: (message: string) => void): McpServerConfig[] {
  const out: McpServerConfig[] = [];
  for (const s of servers) {
    const source = { kind: 'userSetting' as const };
    if ('type' in s && (s.type === 'http' || s.type === 'sse')) {
      out.push({ name: s.name, source, tools: {}, transport: { type: s.type, url: s.url, headers: Object.fromEntries((s.headers ?? []).map((h) => [h.name, h.value])) } });
    } else if ('command' in s && typeof s.command === 'string' && s.command) {
      out.push({ name: s.name, source, tools: {}, transport: { type: 'stdio', command: s.command, args: s.args ?? [], env: Object.fromEntries((s.env ?? []).map((e) => [e.name, e.value])) } });
    } else {
      warn(`MCP server "${(s as { name?: string }).name ?? '?'}" from the client has a transport this agent does not know; it was left out`);
    }
  }
  return out;
}

export async function startAcpMcp(
  clientServers: readonly acp.McpServer[],
  o: { configPath?: string; trustConfig?: boolean; workspace: string; registry: ToolRegistry; warn: (m: string) => void; signal: AbortSignal; env: NodeJS.ProcessEnv },
): Promise<AcpMcp | undefined> {
  const fromClient = clientServerConfigs(clientServers, o.warn);
  if (!o.configPath && fromClient.length === 0) return undefined;
  // No elicitation or sampling: stdin and stdout carry the protocol, so the servers get the workspace as root only.
  const features = { roots: () => workspaceRoots(o.workspace) };
  let manager: McpManager;
  let fromFile: readonly McpServerConfig[] = [];
  if (o.configPath) {
    const { openCliMcp } = await import('../cliMcp');
    const opened = await openCliMcp(o.configPath, o.workspace, { registry: o.registry, warn: o.warn, features, interactive: false, output: process.stderr, env: o.env });
    // As in `run`: a config file that changed since the user last ran it (or a workspace one never run) starts
    // nothing without --trust-mcp-config; stdin carries the protocol, so there is no terminal to ask on.
    const { checkMcpTrust, defaultTrustFile } = await import('../mcpTrust');
    try {
      await checkMcpTrust({ configPath: o.configPath, workspace: o.workspace, servers: opened.servers, warn: o.warn, trusted: o.trustConfig === true, trustFile: defaultTrustFile(o.env) });
    } catch (err) {
      await opened.dispose(true);
      throw err;
    }
    manager = opened.manager;
    fromFile = opened.servers;
  } else {
    const { McpManager } = await import('../../mcp/index');
    manager = new McpManager({ registry: o.registry, features });
  }
  const names = new Set(fromClient.map((s) => s.name));
  await manager.setServers([...fromFile.filter((s) => !names.has(s.name)), ...fromClient]);
  const dispose = (interrupted?: boolean) => manager.dispose({ quick: interrupted === true });
  try {
    await untilAborted(manager.startAll(), o.signal, () => new Error('cancelled while the MCP servers were starting'));
  } catch (err) {
    await dispose(true);
    throw err;
  }
  for (const status of manager.statuses()) {
    if (status.state !== 'ready') o.warn(`MCP server "${status.name}" is ${status.state}: ${status.message ?? ''}`);
  }
  return { manager, dispose };
}
