// The "MCP Servers" tree view: each server with its state (inline start/stop/restart/log actions), its tools
// underneath, configuration problems at the top, and the MCP tools' token cost as the view's message.
import * as vscode from 'vscode';
import type { McpServerStatus } from '../../mcp/types';
import type { McpService } from './mcpService';
import { serverRow, type ServerIcon } from './serverView';

export const MCP_VIEW_ID = 'localharness.mcpServers';

export type McpNode =
  | { kind: 'server'; name: string; status: McpServerStatus }
  | { kind: 'tool'; server: string; name: string; detail: string; skipped: boolean }
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
      const hasChildren = node.status.tools.length > 0 || node.status.skippedTools.length > 0;
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
    const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(node.severity === 'error' ? 'error' : 'warning');
    item.tooltip = node.text;
    return item;
  }

  async getChildren(node?: McpNode): Promise<McpNode[]> {
    if (node?.kind === 'server') {
      return [
        ...node.status.tools.map((t): McpNode => ({ kind: 'tool', server: node.name, name: t.registeredName, detail: `${t.risk}`, skipped: false })),
        ...node.status.skippedTools.map((t): McpNode => ({ kind: 'tool', server: node.name, name: t.name, detail: t.reason, skipped: true })),
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
