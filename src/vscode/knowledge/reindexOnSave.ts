// `localharness.index.reindexOnSave`: a saved file that is in the index is indexed again, the way it was before
// (fully, some lines, or metadata only), quietly in the status bar. Off by default: it spends model time.
import * as vscode from 'vscode';
import type { Logger } from '../../editor/log/logger';
import type { IndexProgressRunner } from './indexProgress';
import type { KnowledgeService } from '../../editor/knowledge/knowledgeService';

export function watchSaves(options: {
  service: KnowledgeService;
  runner: IndexProgressRunner;
  enabled: () => boolean;
  log: Logger;
}): vscode.Disposable {
  return vscode.workspace.onDidSaveTextDocument(async (document) => {
    if (document.uri.scheme !== 'file' || !options.enabled()) return;
    const rel = options.service.relativePath(document.uri.fsPath);
    if (!rel) return;
    try {
      const file = (await options.service.store())?.getFile(rel);
      if (!file) return;
      await options.runner.run([{ path: rel, mode: file.mode, ...(file.range && { range: file.range }) }], { title: `Re-indexing ${rel}`, quiet: true });
    } catch (err) {
      options.log.warn(`re-index on save of ${rel} failed: ${(err as Error)?.message ?? String(err)}`);
    }
  });
}
