// MCP server definitions: VS Code's `{"servers": …}`, Claude-style `{"mcpServers": …}`, and the setting's map.
// One bad server entry is reported and skipped; the others still load.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { RISK_LEVELS, type RiskLevel } from '../core/tools/tool';
import { expandVariables, ExpansionError, type McpConfigVariables } from './expand';
import { parseJsonc } from './jsonc';
import { normaliseOAuth, OAuthConfigError, oauthSchema } from './auth/oauthConfig';
import type { McpServerConfig, McpServerSource, TransportConfig } from './types';

export type { McpConfigVariables } from './expand';

export class McpConfigError extends Error {}

export interface McpConfigResult {
  servers: McpServerConfig[];
  /** Per-server problems: that server is left out. */
  errors: string[];
  /** Things that still load but are probably not what the user meant. */
  warnings: string[];
}

const riskSchema = z.enum(RISK_LEVELS as [RiskLevel, ...RiskLevel[]]);
const timeoutSchema = z.number().int().positive().max(24 * 60 * 60 * 1000);

const commonFields = {
  risk: riskSchema.optional(),
  tools: z.record(z.string(), z.object({ risk: riskSchema.optional(), disabled: z.boolean().optional() })).optional(),
  toolTimeoutMs: timeoutSchema.optional(),
  startTimeoutMs: timeoutSchema.optional(),
};

const stdioSchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'must not be empty'),
  args: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  // VS Code allows numbers, and null to mean "leave unset".
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  cwd: z.string().optional(),
  ...commonFields,
});

const httpSchema = z.object({
  type: z.enum(['http', 'sse', 'streamable-http', 'streamableHttp']).optional(),
  url: z.string().min(1, 'must not be empty'),
  headers: z.record(z.string(), z.string()).optional(),
  oauth: oauthSchema.optional(),
  ...commonFields,
});

const HTTP_TYPES = new Set(['http', 'sse', 'streamable-http', 'streamableHttp']);

/** Parse a whole config file's text (JSON with comments). Throws McpConfigError when the file itself is unusable. */
export function parseMcpConfigText(text: string, source: McpServerSource, vars: McpConfigVariables = {}): McpConfigResult {
  let data: unknown;
  try {
    data = parseJsonc(text);
  } catch (err) {
    throw new McpConfigError(`${sourceLabel(source)} is not valid JSON: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new McpConfigError(`${sourceLabel(source)} must contain a JSON object like {"servers": {…}} or {"mcpServers": {…}}`);
  }
  const record = data as Record<string, unknown>;
  if (record.servers === undefined && record.mcpServers === undefined) {
    throw new McpConfigError(
      `${sourceLabel(source)} has no "servers" (VS Code format) or "mcpServers" (Claude format) object; found keys: ${Object.keys(record).join(', ') || 'none'}`,
    );
  }
  const result: McpConfigResult = { servers: [], errors: [], warnings: [] };
  for (const key of ['servers', 'mcpServers'] as const) {
    if (record[key] === undefined) continue;
    const part = parseMcpServers(record[key], source, vars, key);
    for (const server of part.servers) {
      if (result.servers.some((s) => s.name === server.name)) result.errors.push(`server "${server.name}" is defined twice; the second definition is ignored`);
      else result.servers.push(server);
    }
    result.errors.push(...part.errors);
    result.warnings.push(...part.warnings);
  }
  return result;
}

/** Parse a map of server definitions (the `localharness.mcpServers` setting, or the inside of a file). */
export function parseMcpServers(map: unknown, source: McpServerSource, vars: McpConfigVariables = {}, key = 'servers'): McpConfigResult {
  const result: McpConfigResult = { servers: [], errors: [], warnings: [] };
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    result.errors.push(`${sourceLabel(source)}: "${key}" must be an object mapping server names to definitions`);
    return result;
  }
  for (const [name, raw] of Object.entries(map as Record<string, unknown>)) {
    const where = `${sourceLabel(source)}: server "${name}"`;
    if (name.trim() === '') {
      result.errors.push(`${sourceLabel(source)}: a server has an empty name`);
      continue;
    }
    try {
      result.servers.push(parseServer(name, raw, source, vars, (w) => result.warnings.push(`${where}: ${w}`)));
    } catch (err) {
      if (err instanceof McpConfigError || err instanceof ExpansionError) result.errors.push(`${where} ${err.message}`);
      else throw err;
    }
  }
  return result;
}

export interface LoadOptions {
  /** Defaults to a CLI file (`--mcp-config`). */
  source?: McpServerSource;
  readFile?: (path: string) => Promise<string>;
}

/** Read and parse a config file. A missing or malformed file throws McpConfigError with the path in the message. */
export async function loadMcpConfigFile(path: string, vars: McpConfigVariables = {}, options: LoadOptions = {}): Promise<McpConfigResult> {
  const absolute = resolve(path);
  const source = options.source ?? { kind: 'cliFile', path: absolute };
  let text: string;
  try {
    text = await (options.readFile ?? ((p: string) => readFile(p, 'utf8')))(absolute);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new McpConfigError(
      code === 'ENOENT' ? `MCP config file ${absolute} does not exist` : `cannot read MCP config file ${absolute}: ${(err as Error).message}`,
    );
  }
  // Relative working directories in a file mean "next to the workspace", or next to the file without one.
  return parseMcpConfigText(text, source, { ...vars, workspaceFolder: vars.workspaceFolder ?? dirname(absolute) });
}

function parseServer(
  name: string,
  raw: unknown,
  source: McpServerSource,
  vars: McpConfigVariables,
  warn: (message: string) => void,
): McpServerConfig {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new McpConfigError('must be an object');
  const entry = raw as Record<string, unknown>;
  const type = entry.type;
  if (type !== undefined && type !== 'stdio' && !HTTP_TYPES.has(String(type))) {
    throw new McpConfigError(`has "type": ${JSON.stringify(type)}; use "stdio", "http" or "sse"`);
  }
  const isStdio = type === 'stdio' || (type === undefined && entry.command !== undefined);
  if (type === undefined && entry.command === undefined && entry.url === undefined) {
    throw new McpConfigError('needs either "command" (a stdio server) or "url" (an HTTP server)');
  }
  const expand = (value: string) => expandVariables(value, vars, warn);
  let transport: TransportConfig;
  let common: z.infer<z.ZodObject<typeof commonFields>>;
  if (isStdio) {
    const parsed = parseWith(stdioSchema, entry);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed.env ?? {})) if (v !== null) env[k] = expand(String(v));
    let cwd = parsed.cwd !== undefined ? expand(parsed.cwd) : vars.workspaceFolder;
    if (cwd !== undefined && !isAbsolute(cwd)) {
      if (!vars.workspaceFolder) throw new McpConfigError(`has a relative "cwd" (${cwd}) but no workspace folder to resolve it against`);
      cwd = resolve(vars.workspaceFolder, cwd);
    }
    transport = {
      type: 'stdio',
      command: expand(parsed.command),
      args: (parsed.args ?? []).map(expand),
      env,
      ...(cwd !== undefined && { cwd }),
    };
    common = parsed;
  } else {
    const parsed = parseWith(httpSchema, entry);
    const raw = expand(parsed.url);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new McpConfigError(`has an invalid "url": ${JSON.stringify(raw)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpConfigError(`has a "url" that is not http(s): ${raw}`);
    // Headers carry tokens, so `${env:NAME}` works there too.
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed.headers ?? {})) headers[k] = expand(v);
    let oauth;
    try {
      oauth = normaliseOAuth(parsed.oauth, expand, vars.workspaceFolder);
    } catch (err) {
      if (err instanceof OAuthConfigError) throw new McpConfigError(err.message);
      throw err;
    }
    transport = { type: parsed.type === 'sse' ? 'sse' : 'http', url: url.toString(), headers, ...(oauth !== undefined && { oauth }) };
    common = parsed;
  }
  return {
    name,
    source,
    transport,
    tools: common.tools ?? {},
    ...(common.risk !== undefined && { risk: common.risk }),
    ...(common.toolTimeoutMs !== undefined && { toolTimeoutMs: common.toolTimeoutMs }),
    ...(common.startTimeoutMs !== undefined && { startTimeoutMs: common.startTimeoutMs }),
  };
}

function parseWith<S extends z.ZodType>(schema: S, entry: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(entry);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => `"${issue.path.join('.') || 'entry'}" ${issue.message}`);
  throw new McpConfigError(`is invalid: ${issues.join('; ')}`);
}

export function sourceLabel(source: McpServerSource): string {
  switch (source.kind) {
    case 'userSetting':
      return 'setting localharness.mcpServers';
    case 'workspaceSetting':
      return 'workspace setting localharness.mcpServers';
    case 'workspaceFile':
    case 'cliFile':
      return source.path;
  }
}
