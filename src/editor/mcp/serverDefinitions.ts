// The editor's MCP server definitions as last read: the setting and the workspace files merged (configSources.ts),
// the problems with them logged once per read. A read that fails keeps the definitions from before.
import * as os from 'node:os';
import type { McpServerConfig } from '../../mcp/types';
import type { Logger } from '../log/logger';
import { collectServers, NO_SERVERS, type CollectedServers, type SettingValues, type WorkspaceFileText } from './configSources';

/** Where the definitions are read from (the editor's settings and workspace folders). */
export interface DefinitionSources {
  /** `localharness.mcpServers` as `WorkspaceConfiguration.inspect()` gives it. */
  mcpServersSetting(): SettingValues | undefined;
  /** The workspace folders' paths in order; the first one is `${workspaceFolder}` in the setting. */
  folders(): readonly string[];
  /** The MCP files in the folders that exist; a file that cannot be read is an error, the others still load. */
  readWorkspaceFiles(): Promise<{ files: WorkspaceFileText[]; errors: string[] }>;
}

export interface DefinitionsEnv {
  userHome?: string;
  env?: Record<string, string | undefined>;
}

export class ServerDefinitions {
  private collected: CollectedServers = NO_SERVERS;

  constructor(
    private readonly sources: DefinitionSources,
    private readonly log: Logger,
    private readonly vars: DefinitionsEnv = {},
  ) {}

  get servers(): readonly McpServerConfig[] {
    return this.collected.servers;
  }

  /** Problems with the definitions (bad JSON, invalid entries, duplicate names). */
  problems(): { errors: string[]; warnings: string[] } {
    return { errors: this.collected.errors, warnings: this.collected.warnings };
  }

  /** Reads every definition again; false (the earlier ones kept) when they could not be read at all. */
  async read(why: string): Promise<boolean> {
    try {
      const read = await this.sources.readWorkspaceFiles();
      const firstFolder = this.sources.folders()[0];
      const collected = collectServers({
        setting: this.sources.mcpServersSetting(),
        files: read.files,
        ...(firstFolder !== undefined && { firstFolder }),
        userHome: this.vars.userHome ?? os.homedir(),
        env: this.vars.env ?? process.env,
      });
      this.collected = { ...collected, errors: [...read.errors, ...collected.errors] };
    } catch (err) {
      this.log.error(`MCP configuration could not be read (${why})`, err);
      return false;
    }
    const { servers, errors, warnings } = this.collected;
    this.log.info(`MCP configuration (${why}): ${servers.length ? servers.map((s) => s.name).join(', ') : 'no servers'}`);
    for (const e of errors) this.log.error(`MCP configuration: ${e}`);
    for (const w of warnings) this.log.warn(`MCP configuration: ${w}`);
    return true;
  }
}
