// Keeps each server's tools in the core ToolRegistry in step with what the server lists.
import { estimateToolDefinitionTokens } from '../core/tokens';
import { toDefinition, type ToolRegistry } from '../core/tools/registry';
import type { Tool } from '../core/tools/tool';
import { createMcpTool, riskFor, type McpToolCaller } from './toolAdapter';
import { sanitizeToolName, uniqueToolName } from './toolNames';
import type { CheckedTool } from './toolSchema';
import type { McpServerConfig, McpToolInfo, SkippedTool } from './types';

export interface SyncResult {
  tools: McpToolInfo[];
  skipped: SkippedTool[];
  /** Estimated tokens of this server's tool definitions. */
  tokens: number;
}

export class McpToolRegistrar {
  /** server name → (MCP tool name → registered tool) */
  private readonly byServer = new Map<string, Map<string, Tool>>();

  constructor(private readonly registry: ToolRegistry) {}

  /**
   * Replace one server's tools in one synchronous step (no turn sees half a list). A tool that stays keeps its
   * registered name, so the model's view is stable across re-lists and restarts.
   */
  sync(config: McpServerConfig, checked: readonly CheckedTool[], caller: McpToolCaller, log: (line: string) => void): SyncResult {
    const previous = this.byServer.get(config.name) ?? new Map<string, Tool>();
    for (const tool of previous.values()) if (this.registry.get(tool.name) === tool) this.registry.unregister(tool.name);

    const next = new Map<string, Tool>();
    const assigned = new Set<string>();
    const taken = (name: string) => assigned.has(name) || this.registry.get(name) !== undefined;
    const tools: McpToolInfo[] = [];
    const skipped: SkippedTool[] = [];
    for (const entry of checked) {
      if (!entry.ok) {
        skipped.push({ name: entry.name, reason: entry.reason });
        log(`tool "${entry.name}" skipped: ${entry.reason}`);
        continue;
      }
      const mcpName = entry.tool.name;
      if (next.has(mcpName)) {
        skipped.push({ name: mcpName, reason: 'the server lists it more than once' });
        log(`tool "${mcpName}" skipped: listed more than once`);
        continue;
      }
      if (config.tools[mcpName]?.disabled) {
        skipped.push({ name: mcpName, reason: 'disabled in the configuration' });
        continue;
      }
      if (entry.warning) log(`tool "${mcpName}": ${entry.warning}`);
      const earlier = previous.get(mcpName)?.name;
      const name = earlier && !taken(earlier) ? earlier : uniqueToolName(sanitizeToolName(config.name, mcpName), taken);
      const risk = riskFor(entry.tool, config);
      const tool = createMcpTool({ registeredName: name, definition: entry.tool, validate: entry.validate, risk, caller });
      this.registry.register(tool);
      assigned.add(name);
      next.set(mcpName, tool);
      tools.push({ registeredName: name, mcpName, risk });
    }
    this.byServer.set(config.name, next);
    return { tools, skipped, tokens: estimateToolDefinitionTokens([...next.values()].map(toDefinition)) };
  }

  /** Take all of one server's tools out of the registry. */
  remove(serverName: string): void {
    const current = this.byServer.get(serverName);
    if (!current) return;
    for (const tool of current.values()) if (this.registry.get(tool.name) === tool) this.registry.unregister(tool.name);
    this.byServer.delete(serverName);
  }

  has(serverName: string): boolean {
    return (this.byServer.get(serverName)?.size ?? 0) > 0;
  }
}
