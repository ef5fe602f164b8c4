// A read-only document showing what the index holds for a file (localharness-knowledge:/<path>.md), opened from
// the Knowledge view's summary row.
import * as vscode from 'vscode';
import type { KnowledgeService } from '../../editor/knowledge/knowledgeService';
import { renderKnowledgeMarkdown } from '../../editor/knowledge/knowledgeMarkdown';

export const KNOWLEDGE_SCHEME = 'localharness-knowledge';

export class KnowledgeDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly shown = new Set<string>();

  constructor(private readonly service: KnowledgeService) {}

  register(): vscode.Disposable {
    const off = this.service.onDidChange(() => {
      for (const uri of this.shown) this.changed.fire(vscode.Uri.parse(uri));
    });
    return vscode.Disposable.from(vscode.workspace.registerTextDocumentContentProvider(KNOWLEDGE_SCHEME, this), { dispose: off }, this.changed);
  }

  async open(rel: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: KNOWLEDGE_SCHEME, path: `/${rel}.md` });
    this.shown.add(uri.toString());
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const rel = uri.path.replace(/^\//, '').replace(/\.md$/, '');
    const store = await this.service.store();
    const file = store?.getFile(rel);
    if (!store || !file) return `# ${rel}\n\nThis file is not in the index (any more).\n`;
    return renderKnowledgeMarkdown(file, store.chunks(rel), store.entities(rel), store.relations(rel), Date.now());
  }
}
