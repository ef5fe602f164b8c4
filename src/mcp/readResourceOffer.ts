// Keeps the built-in `read_resource` tool in the registry while some ready server lists resources or templates,
// re-created when the catalog changes so its description names the current URIs. A tool of that name that is not
// ours is left alone (and resources are then not offered to the model).
import type { ToolRegistry } from '../core/tools/registry';
import type { Tool } from '../core/tools/tool';
import { createReadResourceTool, READ_RESOURCE_TOOL, type ResourceSource } from './readResourceTool';

export class ReadResourceOffer {
  /** Our `read_resource` tool while it is registered. */
  private tool: Tool | undefined;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly source: ResourceSource,
  ) {}

  /** After any status change; `withdraw`: the servers are gone. */
  sync(withdraw = false): void {
    const { registry, source } = this;
    const wanted = !withdraw && (source.resources().length > 0 || source.resourceTemplates().length > 0);
    const next = wanted ? createReadResourceTool(source) : undefined;
    if (this.tool && next && this.tool.description === next.description && registry.get(READ_RESOURCE_TOOL) === this.tool) return;
    if (this.tool && registry.get(READ_RESOURCE_TOOL) === this.tool) registry.unregister(READ_RESOURCE_TOOL);
    this.tool = undefined;
    if (!next) return;
    if (registry.get(READ_RESOURCE_TOOL)) {
      console.error(`[localharness] a tool named "${READ_RESOURCE_TOOL}" is already registered; MCP resources cannot be offered to the model`);
      return;
    }
    registry.register(next);
    this.tool = next;
  }
}
