// What the chat's prompts and resources need from the MCP servers, as one narrow port over McpService: the
// catalogs of the ready servers, prompts/get, resources/read and template expansion. Before any server started
// the lists are empty and the calls say that the servers are not running.
import type * as vscode from 'vscode';
import type { McpPromptInfo, McpPromptResult, McpResourceInfo, McpResourcePart, McpResourceTemplateInfo, McpServerState } from '../../mcp/types';
import type { McpService } from './mcpService';

export interface McpChatSource {
  prompts(): McpPromptInfo[];
  resources(): McpResourceInfo[];
  resourceTemplates(): McpResourceTemplateInfo[];
  /** Every configured server and its state (running or not). */
  servers(): Array<{ name: string; state: McpServerState }>;
  getPrompt(server: string, name: string, args: Record<string, string>, signal: AbortSignal): Promise<McpPromptResult>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<McpResourcePart[]>;
  expandTemplate(template: McpResourceTemplateInfo, values: Record<string, string>): string;
  /** Start the configured servers (once per window; consent is asked as usual). Never throws. */
  warmUp(): Promise<void>;
  onDidChange(listener: () => void): vscode.Disposable;
}

export function mcpChatSource(service: McpService): McpChatSource {
  const manager = () => service.runningManager;
  const running = () => {
    const m = manager();
    if (!m) throw new Error('the MCP servers have not started yet: open the chat, or start one in the MCP Servers view');
    return m;
  };
  return {
    prompts: () => manager()?.prompts() ?? [],
    resources: () => manager()?.resources() ?? [],
    resourceTemplates: () => manager()?.resourceTemplates() ?? [],
    servers: () => service.statuses().map((s) => ({ name: s.name, state: s.state })),
    getPrompt: async (server, name, args, signal) => running().getPrompt(server, name, args, signal),
    readResource: async (server, uri, signal) => running().readResource(server, uri, signal),
    expandTemplate: (template, values) => running().expandTemplate(template, values),
    warmUp: () => service.warmUp(),
    onDidChange: (listener) => service.onDidChange(listener),
  };
}
