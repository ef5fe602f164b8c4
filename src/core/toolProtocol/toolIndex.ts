// Which tools the model may call in text, under which server name, and how a written name maps back.
import type { ToolDefinition } from '../messages';

/** How a registry tool is presented to the model: built-ins under "local", MCP tools under their server. */
export type ToolNaming = (registryName: string) => { server: string; tool: string };

export const localNaming: ToolNaming = (name) => ({ server: 'local', tool: name });

export interface IndexedTool {
  /** The registry name, used for the ToolCall. */
  name: string;
  server: string;
  tool: string;
  definition: ToolDefinition;
}

export class ToolIndex {
  readonly tools: readonly IndexedTool[];

  constructor(definitions: readonly ToolDefinition[], naming: ToolNaming = localNaming) {
    this.tools = definitions.map((definition) => ({ name: definition.name, ...naming(definition.name), definition }));
  }

  get size(): number {
    return this.tools.length;
  }

  /**
   * The registry name for what the model wrote, or undefined. Lenient on purpose: a right tool name with a
   * wrong or missing server still resolves when it is unambiguous, since weak models often garble the server.
   */
  resolve(server: string | undefined, tool: string): string | undefined {
    const exact = this.tools.find((t) => t.tool === tool && (server === undefined || t.server === server));
    if (exact) return exact.name;
    const byRegistryName = this.tools.find((t) => t.name === tool);
    if (byRegistryName) return byRegistryName.name;
    const sameTool = this.tools.filter((t) => t.tool === tool);
    if (sameTool.length === 1) return sameTool[0]!.name;
    if (server !== undefined) {
      for (const joined of [`${server}.${tool}`, `${server}__${tool}`, `${server}_${tool}`, `${server}/${tool}`]) {
        const hit = this.tools.find((t) => t.name === joined);
        if (hit) return hit.name;
      }
    }
    return undefined;
  }

  get(name: string): IndexedTool | undefined {
    return this.tools.find((t) => t.name === name);
  }

  /** "local/read_file, files/search" style list for error messages. */
  describeNames(): string {
    return this.tools.map((t) => (t.server === 'local' ? t.tool : `${t.server}/${t.tool}`)).join(', ');
  }
}
