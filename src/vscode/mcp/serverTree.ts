// The "MCP Servers" tree view: each server with its state (inline start/stop/restart/log actions); underneath,
// for a ready server, its resources (a click attaches one to the chat) and prompts (a click runs one, like its
// slash command), then its tools; configuration problems at the top, the MCP tools' token cost as the view's
// message.
import * as vscode from 'vscode';
import type { McpPromptInfo, McpResourceInfo, McpResourceTemplateInfo, McpServerStatus } from '../../mcp/types';
import type { McpService } from './mcpService';
import { ATTACH_RESOURCE_COMMAND, RUN_PROMPT_COMMAND } from './mcpChat';
import { promptCommand } from '../../editor/mcp/promptTurn';
import { serverRow, type ServerIcon } from '../../editor/mcp/serverView';

export const MCP_VIEW_ID = 'localharness.mcpServers';

export type McpNode =
  | { kind: 'server'; name: string; status: McpServerStatus }
  | { kind: 'tool'; server: string; name: string; detail: string; skipped: boolean }
  | { kind: 'group'; server: string; group: 'resources' | 'prompts'; status: McpServerStatus }
  | { kind: 'resource'; resource: McpResourceInfo }
  | { kind: 'template'; template: McpResourceTemplateInfo }
  | { kind: 'prompt'; prompt: McpPromptInfo }
  | { kind: 'problem'; text: string; severity: 'error' | 'warning' };

const ICONS: Record<ServerIcon, vscode.ThemeIcon> = {
  ready: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  starting: new vscode.ThemeIcon('loading~spin'),
  blocked: new vscode.ThemeIcon('shield', new vscode.ThemeColor('list.warningForeground')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
  stopped: new vscode.ThemeIcon('circle-outline'),
};

export class McpServerTree implements vscode.TreeDataProvider<McpNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<McpNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private view: vscode.TreeView<McpNode> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly service: McpService) {}

  /** Creates the view and keeps it in step with the service. */
  register(): vscode.Disposable {
    this.view = vscode.window.createTreeView(MCP_VIEW_ID, { treeDataProvider: this, showCollapseAll: false });
    this.subscriptions.push(this.view, this.service.onDidChange(() => this.scheduleRefresh()));
    this.updateMessage();
    return this;
  }

  getTreeItem(node: McpNode): vscode.TreeItem {
    if (node.kind === 'server') {
      const row = serverRow(node.status);
      const hasChildren = node.status.tools.length > 0 || node.status.skippedTools.length > 0 || catalogGroups(node.status).length > 0;
      const item = new vscode.TreeItem(row.label, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = `server:${node.name}`;
      item.description = row.description;
      item.tooltip = row.tooltip;
      item.iconPath = ICONS[row.icon];
      item.contextValue = row.contextValue;
      item.accessibilityInformation = { label: row.ariaLabel };
      return item;
    }
    if (node.kind === 'tool') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
      item.id = `tool:${node.server}:${node.name}`;
      item.description = node.detail;
      item.iconPath = new vscode.ThemeIcon(node.skipped ? 'warning' : 'tools');
      item.tooltip = node.skipped ? `Not offered to the model: ${node.detail}` : `${node.name} (${node.detail})`;
      return item;
    }
    if (node.kind !== 'problem') return catalogItem(node);
    const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(node.severity === 'error' ? 'error' : 'warning');
    item.tooltip = node.text;
    return item;
  }

  async getChildren(node?: McpNode): Promise<McpNode[]> {
    if (node?.kind === 'server') {
      // The two groups first: a long tool list would push them out of a short view.
      return [
        ...catalogGroups(node.status).map((group): McpNode => ({ kind: 'group', server: node.name, group, status: node.status })),
        ...node.status.tools.map((t): McpNode => ({ kind: 'tool', server: node.name, name: t.registeredName, detail: `${t.risk}`, skipped: false })),
        ...node.status.skippedTools.map((t): McpNode => ({ kind: 'tool', server: node.name, name: t.name, detail: t.reason, skipped: true })),
      ];
    }
    if (node?.kind === 'group') {
      const { status } = node;
      if (node.group === 'prompts') return status.prompts.map((prompt): McpNode => ({ kind: 'prompt', prompt }));
      return [
        ...status.resources.map((resource): McpNode => ({ kind: 'resource', resource })),
        ...status.resourceTemplates.map((template): McpNode => ({ kind: 'template', template })),
      ];
    }
    if (node) return [];
    // Opening the view reads the definitions; it doesn't start anything.
    await this.service.loadConfig();
    const { errors, warnings } = this.service.configProblems();
    return [
      ...errors.map((text): McpNode => ({ kind: 'problem', text, severity: 'error' })),
      ...warnings.map((text): McpNode => ({ kind: 'problem', text, severity: 'warning' })),
      ...this.service.statuses().map((status): McpNode => ({ kind: 'server', name: status.name, status })),
    ];
  }

  private scheduleRefresh(): void {
    // Status changes come in bursts (starting, tools listed, ready): redraw once per burst.
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.updateMessage();
      this.changed.fire(undefined);
    }, 50);
  }

  private updateMessage(): void {
    if (this.view) this.view.message = this.service.summary();
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}

/** The Resources and Prompts groups a server shows: only when it is ready and offers some. */
function catalogGroups(status: McpServerStatus): Array<'resources' | 'prompts'> {
  if (status.state !== 'ready') return [];
  const groups: Array<'resources' | 'prompts'> = [];
  if (status.resources.length + status.resourceTemplates.length > 0) groups.push('resources');
  if (status.prompts.length > 0) groups.push('prompts');
  return groups;
}

function catalogItem(node: Extract<McpNode, { kind: 'group' | 'resource' | 'template' | 'prompt' }>): vscode.TreeItem {
  switch (node.kind) {
    case 'group': {
      const { status } = node;
      const count = node.group === 'resources' ? status.resources.length + status.resourceTemplates.length : status.prompts.length;
      const item = new vscode.TreeItem(`${node.group === 'resources' ? 'Resources' : 'Prompts'} (${count})`, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${node.group}:${node.server}`;
      item.iconPath = new vscode.ThemeIcon(node.group === 'resources' ? 'library' : 'comment-discussion');
      item.tooltip = node.group === 'resources' ? 'Click a resource to attach it to your next chat message.' : 'Click a prompt to run it in the chat (or type its /command in the message box).';
      return item;
    }
    case 'resource': {
      const r = node.resource;
      const item = new vscode.TreeItem(r.title ?? r.name, vscode.TreeItemCollapsibleState.None);
      item.id = `resource:${r.server}:${r.uri}`;
      item.description = r.uri;
      item.iconPath = new vscode.ThemeIcon('file');
      item.tooltip = [`${r.server}:${r.uri}`, r.description, r.mimeType, 'Click to attach it to your next chat message.'].filter(Boolean).join('\n');
      item.contextValue = 'mcpResource';
      item.command = { command: ATTACH_RESOURCE_COMMAND, title: 'Attach to Chat', arguments: [{ server: r.server, uri: r.uri }] };
      return item;
    }
    case 'template': {
      const t = node.template;
      const item = new vscode.TreeItem(t.title ?? t.name, vscode.TreeItemCollapsibleState.None);
      item.id = `template:${t.server}:${t.uriTemplate}`;
      item.description = t.uriTemplate;
      item.iconPath = new vscode.ThemeIcon('symbol-variable');
      item.tooltip = [`${t.server}:${t.uriTemplate}`, t.description, `Click to fill in ${t.variables.join(', ') || 'the template'} and attach it to your next chat message.`].filter(Boolean).join('\n');
      item.contextValue = 'mcpResourceTemplate';
      item.command = { command: ATTACH_RESOURCE_COMMAND, title: 'Attach to Chat', arguments: [{ server: t.server, uriTemplate: t.uriTemplate }] };
      return item;
    }
    case 'prompt': {
      const p = node.prompt;
      const item = new vscode.TreeItem(p.name, vscode.TreeItemCollapsibleState.None);
      item.id = `prompt:${p.server}:${p.name}`;
      item.description = p.title ?? p.description ?? '';
      item.iconPath = new vscode.ThemeIcon('comment');
      const args = p.arguments.map((a) => `${a.name}${a.required ? '' : ' (optional)'}${a.description ? `: ${a.description}` : ''}`);
      item.tooltip = [`/${promptCommand(p)}`, p.description, ...(args.length ? ['Asks for:', ...args] : []), 'Click to run it in the chat.'].filter(Boolean).join('\n');
      item.contextValue = 'mcpPrompt';
      item.command = { command: RUN_PROMPT_COMMAND, title: 'Run in Chat', arguments: [{ server: p.server, name: p.name }] };
      return item;
    }
  }
}
