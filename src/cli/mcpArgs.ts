// The `mcp` commands' arguments: which server, which resource or prompt, --arg NAME=VALUE.
import { UsageError } from './usageError';

/** `localharness mcp list|resource|prompt|login|logout`: the servers of an MCP config file, without the agent. */
export interface McpCommandBase {
  command: 'mcp';
  mcpConfig: string;
  /** --trust-mcp-config: start the servers even if the file changed since the last run, without asking. */
  trustMcpConfig?: boolean;
  /** Announced to the servers as their root, and `\${workspaceFolder}` in the config file. */
  workspace: string;
  json: boolean;
}

export interface McpListOptions extends McpCommandBase {
  action: 'list';
}

export interface McpResourceOptions extends McpCommandBase {
  action: 'resource';
  server: string;
  /** A URI, or a resource template (its name or uriTemplate) filled from `args`. */
  uri: string;
  args: Record<string, string>;
  /** Write the content (binary parts decoded) to this file instead of stdout. */
  out?: string;
}

export interface McpPromptOptions extends McpCommandBase {
  action: 'prompt';
  server: string;
  name: string;
  args: Record<string, string>;
}

/** Sign in to an HTTP server now (on a terminal), so later runs find the tokens. */
export interface McpLoginOptions extends McpCommandBase {
  action: 'login';
  server: string;
}

/** Forget a server's OAuth tokens and registration. */
export interface McpLogoutOptions extends McpCommandBase {
  action: 'logout';
  server: string;
}

export type McpOptions = McpListOptions | McpResourceOptions | McpPromptOptions | McpLoginOptions | McpLogoutOptions;


/** The options `mcp` understands; anything else given to it is a mistake worth saying. */
const MCP_OPTIONS = new Set(['mcp-config', 'workspace', 'json', 'arg', 'out', 'trust-mcp-config']);
const MCP_USAGE: Record<McpOptions['action'], string> = {
  list: 'localharness mcp list --mcp-config FILE',
  resource: 'localharness mcp resource --mcp-config FILE SERVER URI',
  prompt: 'localharness mcp prompt --mcp-config FILE SERVER PROMPT [--arg NAME=VALUE]...',
  login: 'localharness mcp login --mcp-config FILE SERVER',
  logout: 'localharness mcp logout --mcp-config FILE SERVER',
};
const ACTIONS = new Set(Object.keys(MCP_USAGE));

export function parseMcpCommand(rest: string[], values: Record<string, string | boolean | string[] | undefined>, cwd: string): McpOptions {
  const [action, ...operands] = rest;
  if (action === undefined || !ACTIONS.has(action)) {
    throw new UsageError(
      action ? `unknown mcp command "${action}" (list, resource, prompt, login or logout)` : 'missing mcp command: mcp list, mcp resource, mcp prompt, mcp login or mcp logout',
    );
  }
  const foreign = Object.keys(values).find((name) => values[name] !== undefined && !MCP_OPTIONS.has(name));
  if (foreign) throw new UsageError(`--${foreign} does not apply to \`mcp ${action}\``);
  if (values.out !== undefined && action !== 'resource') throw new UsageError('--out only works with `mcp resource`');
  if (values.arg !== undefined && action !== 'resource' && action !== 'prompt') throw new UsageError('--arg only works with `mcp resource` and `mcp prompt`');
  const mcpConfig = values['mcp-config'] as string | undefined;
  const kind = action as McpOptions['action'];
  if (mcpConfig === undefined || mcpConfig.trim() === '') throw new UsageError(`missing --mcp-config FILE: ${MCP_USAGE[kind]}`);
  const base = { command: 'mcp' as const, mcpConfig, workspace: (values.workspace as string | undefined) ?? cwd, json: !!values.json, ...(values['trust-mcp-config'] === true && { trustMcpConfig: true }) };
  const expected = kind === 'list' ? 0 : kind === 'login' || kind === 'logout' ? 1 : 2;
  if (operands.length !== expected || operands.some((o) => o.trim() === '')) {
    const what = { list: 'no arguments', resource: 'SERVER and URI', prompt: 'SERVER and PROMPT', login: 'SERVER', logout: 'SERVER' }[kind];
    throw new UsageError(`\`mcp ${kind}\` takes ${what}${operands.length ? `, got ${operands.map((o) => JSON.stringify(o)).join(' ')}` : ''}: ${MCP_USAGE[kind]}`);
  }
  if (kind === 'list') return { ...base, action: kind };
  if (kind === 'login' || kind === 'logout') return { ...base, action: kind, server: operands[0]! };
  const [server, target] = operands as [string, string];
  const args = parseNamedArgs((values.arg as string[] | undefined) ?? []);
  if (kind === 'prompt') return { ...base, action: kind, server, name: target, args };
  const out = values.out as string | undefined;
  if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
  return { ...base, action: 'resource', server, uri: target, args, ...(out !== undefined && { out }) };
}

/** `--arg NAME=VALUE`, repeatable: the value is everything after the first `=` (it may be empty or contain `=`). */
export function parseNamedArgs(list: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? '' : item.slice(0, eq).trim();
    if (!name) throw new UsageError(`--arg must look like NAME=VALUE, got "${item}"`);
    if (Object.hasOwn(args, name)) throw new UsageError(`--arg ${name} is given twice`);
    args[name] = item.slice(eq + 1);
  }
  return args;
}
