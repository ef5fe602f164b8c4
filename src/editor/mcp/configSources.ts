// Where the editor's MCP servers come from: the `localharness.mcpServers` setting (user or workspace value, told
// apart with `inspect()`) and the workspace files `.vscode/mcp.json` / `.mcp.json` in every folder. Pure (no
// 'vscode' import): the service reads the values and files, this merges them into one list the manager takes.
import { McpConfigError, parseMcpConfigText, parseMcpServers, sourceLabel, type McpConfigResult } from '../../mcp/config';
import type { McpServerConfig, McpServerSource } from '../../mcp/types';

/** Relative paths, in each workspace folder, of the files that may define servers (VS Code's and Claude's). */
export const WORKSPACE_MCP_FILES = ['.vscode/mcp.json', '.mcp.json'] as const;

/** The parts of `WorkspaceConfiguration.inspect('mcpServers')` that matter here. */
export interface SettingValues {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface WorkspaceFileText {
  /** Absolute path of the workspace folder the file belongs to (`${workspaceFolder}` in it). */
  folder: string;
  /** Absolute path of the file. */
  path: string;
  text: string;
}

export interface CollectInput {
  setting?: SettingValues;
  /** Only files that exist, in folder order. */
  files: readonly WorkspaceFileText[];
  /** First workspace folder: `${workspaceFolder}` and relative `cwd`s in the setting. */
  firstFolder?: string;
  userHome?: string;
  env?: Record<string, string | undefined>;
}

export type CollectedServers = McpConfigResult;

export const NO_SERVERS: CollectedServers = { servers: [], errors: [], warnings: [] };

/**
 * All configured servers in precedence order: the user setting, then the workspace setting, then the files.
 * A name defined twice keeps its first definition, so a repository can't replace a server the user set up.
 * One bad entry or file is reported and skipped; the rest still load.
 */
export function collectServers(input: CollectInput): CollectedServers {
  const result: CollectedServers = { servers: [], errors: [], warnings: [] };
  const common = {
    ...(input.userHome !== undefined && { userHome: input.userHome }),
    ...(input.env !== undefined && { env: input.env }),
  };
  const settingVars = { ...common, ...(input.firstFolder !== undefined && { workspaceFolder: input.firstFolder }) };
  const parts: CollectedServers[] = [];
  const s = input.setting ?? {};
  if (isSet(s.globalValue)) parts.push(parseMcpServers(s.globalValue, { kind: 'userSetting' }, settingVars));
  for (const value of [s.workspaceValue, s.workspaceFolderValue]) {
    if (isSet(value)) parts.push(parseMcpServers(value, { kind: 'workspaceSetting' }, settingVars));
  }
  for (const file of input.files) {
    const source: McpServerSource = { kind: 'workspaceFile', path: file.path };
    if (file.text.trim() === '') {
      result.warnings.push(`${file.path} is empty; it defines no MCP servers`);
      continue;
    }
    try {
      parts.push(parseMcpConfigText(file.text, source, { ...common, workspaceFolder: file.folder }));
    } catch (err) {
      if (!(err instanceof McpConfigError)) throw err;
      result.errors.push(err.message);
    }
  }
  for (const part of parts) {
    result.errors.push(...part.errors);
    result.warnings.push(...part.warnings);
    for (const server of part.servers) {
      const earlier = result.servers.find((s) => s.name === server.name);
      if (earlier) {
        result.warnings.push(
          `MCP server "${server.name}" from ${sourceLabel(server.source)} is ignored: ${sourceLabel(earlier.source)} already defines a server with that name`,
        );
      } else result.servers.push(server);
    }
  }
  return result;
}

/** An empty object in settings (the default) defines nothing and is not worth a message. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Where a server was defined, for the tree and the consent dialog. */
export function describeSource(source: McpServerSource): string {
  switch (source.kind) {
    case 'userSetting':
      return 'your user settings (localharness.mcpServers)';
    case 'workspaceSetting':
      return 'this workspace\u2019s settings (localharness.mcpServers)';
    case 'workspaceFile':
    case 'cliFile':
      return source.path;
  }
}

/** The configured servers by name (for commands that need a definition, e.g. revoking consent). */
export function serverNamed(servers: readonly McpServerConfig[], name: string): McpServerConfig | undefined {
  return servers.find((s) => s.name === name);
}
