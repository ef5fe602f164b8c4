// Runs indexing with visible, cancellable progress (a notification, or the status bar for quiet re-indexing on
// save) and says the outcome plainly. Runs one after another: the model server is shared with the chat and a
// second batch would only compete with the first. Never blocks the chat: the indexer waits for idle itself.
import * as vscode from 'vscode';
import type { IndexRequest, IndexResult } from '../../indexing/indexer';
import type { Logger } from '../../editor/log/logger';
import { describeBatch, describeResult, type ResultMessage } from '../../editor/knowledge/indexMessages';
import type { KnowledgeService } from '../../editor/knowledge/knowledgeService';

export interface RunOptions {
  /** Shown in the progress title, e.g. "Indexing src/a.ts" (default: from the request). */
  title?: string;
  /** `window`: the status bar only, for background work the user did not ask for just now. */
  quiet?: boolean;
  /** A signal of the caller's own (the queue's), in addition to the progress's Cancel button. */
  signal?: AbortSignal;
}

export class IndexProgressRunner {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly service: KnowledgeService,
    private readonly log: Logger,
  ) {}

  /** Indexes the files in order; resolves with what happened to each (empty when cancelled before the first). */
  run(requests: readonly IndexRequest[], options: RunOptions = {}): Promise<IndexResult[]> {
    const next = this.tail.then(() => this.runNow(requests, options));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async runNow(requests: readonly IndexRequest[], options: RunOptions): Promise<IndexResult[]> {
    const results: IndexResult[] = [];
    const single = requests.length === 1;
    // One file: the indexer's own messages name it ("Summarizing src/a.ts"); a batch counts files in the title.
    const title = options.title ?? (single ? undefined : `Indexing ${requests.length} files`);
    let cancelled = false;
    await vscode.window.withProgress(
      { location: options.quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification, title: title ? `Local Harness: ${title}` : 'Local Harness', cancellable: !options.quiet },
      async (progress, token) => {
        const abort = new AbortController();
        const onCancel = token.onCancellationRequested(() => abort.abort());
        const signal = options.signal ? AbortSignal.any([abort.signal, options.signal]) : abort.signal;
        try {
          for (const [i, request] of requests.entries()) {
            const prefix = single ? '' : `${i + 1}/${requests.length} `;
            progress.report({ message: `${prefix}${single ? 'Indexing ' : ''}${this.label(request.path)}` });
            try {
              const result = await this.service.index(request, {
                signal,
                onProgress: (p) => progress.report({ message: `${prefix}${p.message}`, ...(p.increment !== undefined && { increment: p.increment / requests.length }) }),
              });
              results.push(result);
              this.log.info(`index: ${describeResult(result).text} (${Math.round(result.totalMs)} ms, model ${Math.round(result.modelMs)} ms)`);
            } catch (err) {
              if (signal.aborted) {
                cancelled = true;
                break;
              }
              throw err;
            }
          }
        } finally {
          onCancel.dispose();
        }
      },
    );
    if (cancelled && results.length === 0) {
      this.tell({ severity: 'info', text: `Indexing ${single ? this.label(requests[0]!.path) : `${requests.length} files`} was cancelled; nothing was stored.` });
    } else if (!options.quiet || results.some((r) => r.outcome === 'failed' || r.outcome === 'refused')) {
      this.tell(single ? describeResult(results[0]!) : describeBatch(results, cancelled ? results.length : undefined));
    }
    return results;
  }

  private tell(message: ResultMessage): void {
    const text = `Local Harness: ${message.text}`;
    if (message.severity === 'error') void vscode.window.showErrorMessage(text);
    else if (message.severity === 'warning') void vscode.window.showWarningMessage(text);
    else void vscode.window.showInformationMessage(text);
  }

  private label(file: string): string {
    return this.service.relativePath(file) ?? file;
  }
}
