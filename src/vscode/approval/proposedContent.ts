// Read-only documents under the `localharness-proposed:` scheme: the "before" and "after" of a proposed file
// change, so the approval dialog can open them side by side in a diff editor.
import * as vscode from 'vscode';
import * as path from 'node:path';

export const PROPOSED_SCHEME = 'localharness-proposed';

/** Enough for a few pending dialogs; older proposals are dropped. */
const MAX_PROPOSALS = 16;

export class ProposedContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private seq = 0;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.query) ?? '(This proposal is no longer available.)';
  }

  /** Stores both sides and returns their URIs. The path keeps the file name so the language mode matches. */
  propose(filePath: string, before: string | undefined, after: string): { before: vscode.Uri; after: vscode.Uri } {
    const id = String(++this.seq);
    const beforeKey = `${id}-before`;
    const afterKey = `${id}-after`;
    this.contents.set(beforeKey, before ?? '');
    this.contents.set(afterKey, after);
    while (this.contents.size > MAX_PROPOSALS * 2) {
      const oldest = this.contents.keys().next().value;
      if (oldest === undefined) break;
      this.contents.delete(oldest);
    }
    const uriPath = filePath.split(path.sep).join('/');
    const base = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: uriPath.startsWith('/') ? uriPath : `/${uriPath}` });
    return { before: base.with({ query: beforeKey }), after: base.with({ query: afterKey }) };
  }

  dispose(): void {
    this.contents.clear();
    this.changed.dispose();
  }
}

export function registerProposedContent(provider: ProposedContentProvider): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, provider);
}
