// The "Knowledge" view: every indexed file (state, chunk count, when), and under it the file's summary and its
// entities (clicking an entity opens the file at its line). Refreshes whenever the index changes and keeps the
// `localharness.indexedFiles` context key (the menus' "Remove From Index") in step.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Entity, IndexedFile } from '../../core/knowledge/types';
import type { Logger } from '../../editor/log/logger';
import { entityRow, fileRow, summaryLabel, type FileIcon } from '../../editor/knowledge/knowledgeRows';
import type { KnowledgeService } from '../../editor/knowledge/knowledgeService';

export const KNOWLEDGE_VIEW_ID = 'localharness.knowledge';

export type KnowledgeNode =
  | { kind: 'file'; file: IndexedFile }
  | { kind: 'summary'; file: IndexedFile }
  | { kind: 'entity'; file: IndexedFile; entity: Entity };

const ICONS: Record<FileIcon, vscode.ThemeIcon> = {
  indexed: new vscode.ThemeIcon('database'),
  metadata: new vscode.ThemeIcon('info'),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
};

export class KnowledgeTree implements vscode.TreeDataProvider<KnowledgeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<KnowledgeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly service: KnowledgeService,
    private readonly log: Logger,
  ) {}

  register(): vscode.Disposable {
    const view = vscode.window.createTreeView(KNOWLEDGE_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    const off = this.service.onDidChange(() => {
      this.refresh();
      void this.updateContext();
    });
    // "2 min ago" goes stale: showing the view again recomputes it.
    this.subscriptions.push(view, { dispose: off }, view.onDidChangeVisibility((e) => e.visible && this.refresh()));
    return this;
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: KnowledgeNode): vscode.TreeItem {
    const uri = this.uriOf(node.file.path);
    if (node.kind === 'file') {
      const row = fileRow(node.file, Date.now());
      const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `file:${node.file.path}`;
      item.description = row.description;
      item.tooltip = row.tooltip;
      item.iconPath = ICONS[row.icon];
      item.contextValue = row.contextValue;
      item.accessibilityInformation = { label: row.ariaLabel };
      if (uri) item.resourceUri = uri;
      return item;
    }
    if (node.kind === 'summary') {
      const summary = node.file.summary ?? '';
      const item = new vscode.TreeItem(summaryLabel(summary), vscode.TreeItemCollapsibleState.None);
      item.id = `summary:${node.file.path}`;
      item.description = 'summary';
      item.tooltip = new vscode.MarkdownString(summary);
      item.iconPath = new vscode.ThemeIcon('note');
      item.contextValue = 'knowledgeSummary';
      item.accessibilityInformation = { label: `Summary of ${node.file.path}: ${summary}` };
      item.command = { command: 'localharness.openKnowledgeItem', title: 'Show the summary', arguments: [node] };
      return item;
    }
    const row = entityRow(node.entity);
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = `entity:${node.file.path}:${node.entity.name}:${node.entity.line}`;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(symbolIcon(node.entity.kind));
    item.contextValue = 'knowledgeEntity';
    item.accessibilityInformation = { label: `${row.label}: ${row.description}` };
    if (uri) {
      const line = Math.max(0, node.entity.line - 1);
      item.command = { command: 'vscode.open', title: 'Open', arguments: [uri, { selection: new vscode.Range(line, 0, line, 0) }] };
    }
    return item;
  }

  async getChildren(node?: KnowledgeNode): Promise<KnowledgeNode[]> {
    try {
      const store = await this.service.store();
      if (!store) return [];
      if (!node) {
        const files = store.listFiles().sort((a, b) => a.path.localeCompare(b.path));
        this.setIndexedContext(files);
        return files.map((file) => ({ kind: 'file', file }));
      }
      if (node.kind !== 'file') return [];
      const entities = store.entities(node.file.path).sort((a, b) => a.line - b.line || a.name.localeCompare(b.name));
      return [
        ...(node.file.summary ? [{ kind: 'summary', file: node.file } as const] : []),
        ...entities.map((entity): KnowledgeNode => ({ kind: 'entity', file: node.file, entity })),
      ];
    } catch (err) {
      this.log.error('the Knowledge view could not read the index', err);
      return [];
    }
  }

  /** The absolute paths of the indexed files, for `resourcePath in localharness.indexedFiles` in menus. */
  private async updateContext(): Promise<void> {
    try {
      const store = await this.service.store();
      if (store) this.setIndexedContext(store.listFiles());
    } catch (err) {
      this.log.warn(`the index could not be read: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  private setIndexedContext(files: readonly IndexedFile[]): void {
    const paths = files.map((f) => this.uriOf(f.path)?.fsPath).filter((p): p is string => p !== undefined);
    void vscode.commands.executeCommand('setContext', 'localharness.indexedFiles', paths);
  }

  private uriOf(rel: string): vscode.Uri | undefined {
    const root = this.service.workspace();
    return root ? vscode.Uri.file(path.join(root, ...rel.split('/'))) : undefined;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}

function symbolIcon(kind: string): string {
  switch (kind.toLowerCase()) {
    case 'function':
    case 'method':
      return 'symbol-method';
    case 'class':
      return 'symbol-class';
    case 'interface':
      return 'symbol-interface';
    case 'type':
      return 'symbol-type-parameter';
    case 'variable':
    case 'constant':
      return 'symbol-variable';
    case 'module':
      return 'symbol-module';
    case 'section':
      return 'symbol-key';
    default:
      return 'symbol-misc';
  }
}
