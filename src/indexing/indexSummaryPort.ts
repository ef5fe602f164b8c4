// Summaries of indexed files for compression: given only while the file on disk is still what was indexed
// (a summary of an older version would mislead the model) and the model did summarize it.
import * as path from 'node:path';
import type { IndexedSummary, IndexSummaryPort, KnowledgeStorePort } from '../core/knowledge/types';
import type { FileSystemPort } from '../core/ports';
import { WorkspaceRoots } from '../core/workspace/workspaceRoots';
import { sha256 } from './indexedFile';

export interface StoredSummariesOptions {
  store: Pick<KnowledgeStorePort, 'getFile' | 'chunks'>;
  fs: FileSystemPort;
  /** Absolute workspace root. */
  workspace: string;
}

export class StoredSummaries implements IndexSummaryPort {
  private readonly roots: WorkspaceRoots;

  constructor(private readonly options: StoredSummariesOptions) {
    this.roots = new WorkspaceRoots([{ name: path.basename(options.workspace), path: options.workspace }], options.fs);
  }

  async summaryFor(userPath: string, signal: AbortSignal): Promise<IndexedSummary | undefined> {
    signal.throwIfAborted();
    let abs: string;
    try {
      abs = await this.roots.resolve(userPath);
    } catch {
      return undefined;
    }
    const rel = path.relative(this.options.workspace, abs).split(path.sep).join('/');
    const file = this.options.store.getFile(rel);
    if (!file?.summary || file.state !== 'indexed') return undefined;
    const hash = await this.currentHash(abs);
    signal.throwIfAborted();
    if (hash !== file.hash) return undefined;
    const chunks = this.options.store.chunks(rel).map((c) => ({
      startLine: c.startLine,
      endLine: c.endLine,
      ...(c.name && { name: c.name }),
      ...(c.summary && { summary: c.summary }),
    }));
    return { path: rel, summary: file.summary, chunks };
  }

  /** Hashed afresh every time (files are at most the indexing limit): a cached hash could miss a quick edit. */
  private async currentHash(abs: string): Promise<string | undefined> {
    try {
      const link = await this.options.fs.lstat(abs);
      const stat = link?.kind === 'symlink' ? await this.options.fs.lstat(await this.options.fs.realpath(abs)) : link;
      if (!stat || stat.kind !== 'file') return undefined;
      return sha256(await this.options.fs.readFile(abs));
    } catch {
      return undefined;
    }
  }
}
