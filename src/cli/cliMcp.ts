// MCP servers for the CLI (--mcp-config FILE). The file is the user's own choice on the command line, so its
// servers start without a consent prompt; the SDK is loaded only when this runs.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChatProvider } from '../core/provider';
import { ToolRegistry } from '../core/tools/registry';
import type { McpClientFeatures, McpRoot } from '../mcp/clientFeatures';
import type { McpManager } from '../mcp/manager';
import type { McpServerConfig } from '../mcp/types';
import { untilAborted } from '../core/abortable';
import { cliAuthEnv } from './cliAuth';
import { UsageError } from './usageError';
import { checkMcpTrust, type McpTrustOptions } from './mcpTrust';

export interface CliMcp {
  /** Stops the servers; `interrupted`: the user pressed Ctrl-C, so they get SIGTERM sooner. */
  dispose(interrupted?: boolean): Promise<void>;
}

export interface OpenedCliMcp extends CliMcp {
  manager: McpManager;
  servers: readonly McpServerConfig[];
  /** Entries of the file that were left out (each says why); already passed to `warn`. */
  configErrors: string[];
  auth: ReturnType<typeof cliAuthEnv>;
}

export interface OpenCliMcpOptions {
  /** Where the servers' tools go; `mcp list` and friends use a throwaway one. */
  registry?: ToolRegistry;
  features?: McpClientFeatures;
  warn: (message: string) => void;
  /** Whether a server may send the user to the browser to sign in (a terminal, or $BROWSER). */
  interactive: boolean;
  /** Where sign-in addresses are printed (stderr). */
  output: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

/** Reads the config file and creates the manager; no server is started yet. A file that cannot be used is a usage error. */
export async function openCliMcp(configPath: string, workspace: string, options: OpenCliMcpOptions): Promise<OpenedCliMcp> {
  const { loadMcpConfigFile, McpManager, McpConfigError } = await import('../mcp/index');
  let config;
  try {
    config = await loadMcpConfigFile(configPath, { workspaceFolder: workspace });
  } catch (e) {
    if (e instanceof McpConfigError) throw new UsageError(e.message);
    throw e;
  }
  for (const message of [...config.errors, ...config.warnings]) options.warn(`MCP config: ${typeof message === 'string' ? message : JSON.stringify(message)}`);
  const auth = cliAuthEnv({ configPath, interactive: options.interactive, output: options.output, env: options.env, warn: options.warn });
  const manager = new McpManager({ registry: options.registry ?? new ToolRegistry(), auth, ...(options.features && { features: options.features }) });
  await manager.setServers(config.servers);
  return { manager, servers: config.servers, configErrors: config.errors.map(String), auth, dispose: (interrupted) => manager.dispose({ quick: interrupted === true }) };
}

/**
 * For `run`: every server started, the ones that did not come up reported through `warn`. Ctrl-C while they
 * start stops them and rejects.
 */
export async function startCliMcp(
  configPath: string,
  workspace: string,
  options: OpenCliMcpOptions & { registry: ToolRegistry; signal: AbortSignal; trust?: Pick<McpTrustOptions, 'trusted' | 'trustFile' | 'ask'> },
): Promise<CliMcp> {
  const mcp = await openCliMcp(configPath, workspace, options);
  const { warn } = options;
  try {
    // A file that changed since the user last ran it is asked about before anything starts (mcpTrust.ts).
    if (options.trust) await checkMcpTrust({ configPath, workspace, servers: mcp.servers, warn, ...options.trust });
    await untilAborted(mcp.manager.startAll(), options.signal, () => new Error('interrupted while the MCP servers were starting'));
  } catch (err) {
    await mcp.dispose(true);
    throw err;
  }
  for (const status of mcp.manager.statuses()) {
    if (status.state !== 'ready') warn(`MCP server "${status.name}" is ${status.state}: ${status.message ?? ''}`);
  }
  return mcp;
}

/** The workspace folder as the servers' one root. */
export function workspaceRoots(workspace: string): McpRoot[] {
  return [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }];
}

export interface RunFeaturesOptions {
  workspace: string;
  /** Where questions are read from and written to (stdin and stderr of the CLI). */
  input: NodeJS.ReadStream;
  output: NodeJS.WritableStream;
  allowSampling: boolean;
  provider: ChatProvider;
  model: string;
  notice: (message: string) => void;
  signal: AbortSignal;
}

/** What `run` lends its servers: the workspace as root, the terminal for elicitation, and the run's model for sampling. */
export async function runFeatures(o: RunFeaturesOptions): Promise<McpClientFeatures> {
  const [{ ttyElicitation }, { ttySamplingApproval }, { createSamplingResponder }] = await Promise.all([
    import('./ttyElicitation'),
    import('./ttySamplingApproval'),
    import('../mcp/samplingResponder'),
  ]);
  return {
    roots: () => workspaceRoots(o.workspace),
    elicit: ttyElicitation(o.input, o.output, o.notice),
    approveSampling: ttySamplingApproval({ input: o.input, output: o.output, allowAll: o.allowSampling, model: o.model, notice: o.notice, signal: o.signal }),
    sample: createSamplingResponder({ provider: o.provider, model: o.model }),
  };
}
