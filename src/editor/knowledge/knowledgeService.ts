// The workspace index as the editor holds it: the knowledge store of the session database, and the indexer,
// retriever and summaries built on it with the chat's provider, model and embedding model. Nothing is opened or
// built at activation: the store opens when the Knowledge view or an index action needs it, the parts on the
// first index action or the first turn that finds an index. No 'vscode' import (the wiring passes the editor in).
import type { SessionKnowledge } from '../../core/session/agentSession';
import type { VectorCachePort } from '../../core/embeddings';
import type { IndexSummaryPort, KnowledgeRetriever, KnowledgeStorePort, Retrieval } from '../../core/knowledge/types';
import type { FileSystemPort } from '../../core/ports';
import type { ChatProvider } from '../../core/provider';
import type { IndexCallOptions, IndexRequest, IndexResult, Indexer } from '../../indexing/indexer';
import * as path from 'node:path';

/** The model server side of indexing, read from the chat's settings when the parts are built. */
export interface KnowledgeConnection {
  provider: ChatProvider;
  model: string;
  /** '' when no embedding model is set (retrieval uses keywords). */
  embedModel: string;
}

export interface KnowledgeStoreHandle {
  store: KnowledgeStorePort;
  vectors?: VectorCachePort;
}

export interface BuildInput extends KnowledgeConnection {
  store: KnowledgeStorePort;
  vectors?: VectorCachePort;
  fs: FileSystemPort;
  workspace: string;
  waitForIdle: (signal: AbortSignal) => Promise<void>;
  onNotice: (message: string) => void;
}

export interface KnowledgeParts {
  indexer: Pick<Indexer, 'index' | 'resolve' | 'hasSummarizer'>;
  retriever: KnowledgeRetriever;
  summaries: IndexSummaryPort;
}

export interface KnowledgeServiceOptions {
  /** The session database's knowledge store; undefined when it cannot be opened (the user was told why). */
  openStore: () => Promise<KnowledgeStoreHandle | undefined>;
  /** Identity of the settings the parts depend on: when it changes, the next use builds them again. */
  connectionKey: () => string;
  connect: (signal: AbortSignal) => Promise<KnowledgeConnection>;
  /** Builds indexer, retriever and summaries (src/indexing/knowledge.ts, loaded on first use). */
  build: (input: BuildInput) => Promise<KnowledgeParts>;
  fs: FileSystemPort;
  /** Absolute path of the indexed workspace folder (the first one); undefined when no folder is open. */
  workspace: () => string | undefined;
  waitForIdle: (signal: AbortSignal) => Promise<void>;
  /** Something the user should hear once (e.g. retrieval falls back to keywords). */
  onNotice: (message: string) => void;
}

export const NO_FOLDER_TEXT = 'Open a folder first: Local Harness indexes the files of the workspace folder.';
export const NO_DATABASE_TEXT = 'The session database could not be opened, so nothing can be indexed in this window (the log says why).';

export class KnowledgeService {
  private built: { key: string; parts: Promise<KnowledgeParts> } | undefined;
  private readonly listeners = new Set<() => void>();

  /** What every chat session gets: retrieval and summaries that stay silent until something is indexed. */
  readonly session: SessionKnowledge;

  constructor(private readonly options: KnowledgeServiceOptions) {
    const retriever: KnowledgeRetriever = {
      retrieve: async (query, call) => {
        if (!(await this.hasIndex())) return emptyRetrieval(query);
        return (await this.parts(call.signal)).retriever.retrieve(query, call);
      },
    };
    const summaries: IndexSummaryPort = {
      summaryFor: async (file, signal) => {
        if (!(await this.hasIndex())) return undefined;
        return (await this.parts(signal)).summaries.summaryFor(file, signal);
      },
    };
    this.session = { retriever, summaries };
  }

  workspace(): string | undefined {
    return this.options.workspace();
  }

  /** The workspace-relative, '/'-separated form of an absolute path; undefined outside the workspace folder. */
  relativePath(abs: string): string | undefined {
    const root = this.workspace();
    if (!root) return undefined;
    const rel = path.relative(root, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  async store(): Promise<KnowledgeStorePort | undefined> {
    return (await this.options.openStore())?.store;
  }

  /** True when at least one file is indexed (a turn without an index costs no model call and no build). */
  async hasIndex(): Promise<boolean> {
    if (!this.workspace()) return false;
    const store = await this.store();
    return store !== undefined && store.listFiles().length > 0;
  }

  /** The indexer, retriever and summaries for the current settings, built on first use. */
  parts(signal: AbortSignal): Promise<KnowledgeParts> {
    const workspace = this.workspace();
    if (!workspace) return Promise.reject(new Error(NO_FOLDER_TEXT));
    const key = JSON.stringify([workspace, this.options.connectionKey()]);
    if (this.built?.key !== key) {
      const parts = this.buildParts(workspace, signal);
      this.built = { key, parts };
      // A failed build (server down, cancelled) is tried again next time.
      parts.catch(() => {
        if (this.built?.parts === parts) this.built = undefined;
      });
    }
    return this.built.parts;
  }

  /** Indexes one file and tells the listeners (the Knowledge view). */
  async index(request: IndexRequest, call: IndexCallOptions): Promise<IndexResult> {
    const parts = await this.parts(call.signal);
    try {
      return await parts.indexer.index(request, call);
    } finally {
      this.changed();
    }
  }

  /** Removes files (workspace-relative paths) from the index; returns the ones that were in it. */
  async remove(paths: readonly string[]): Promise<string[]> {
    const store = await this.store();
    if (!store) throw new Error(NO_DATABASE_TEXT);
    const removed = paths.filter((p) => store.removeFile(p));
    if (removed.length) this.changed();
    return removed;
  }

  /** Settings or the API key changed: the next use builds the parts again. */
  invalidate(): void {
    this.built = undefined;
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A broken view must not stop indexing.
      }
    }
  }

  private async buildParts(workspace: string, signal: AbortSignal): Promise<KnowledgeParts> {
    const handle = await this.options.openStore();
    if (!handle) throw new Error(NO_DATABASE_TEXT);
    const connection = await this.options.connect(signal);
    return this.options.build({
      ...connection,
      store: handle.store,
      ...(handle.vectors && { vectors: handle.vectors }),
      fs: this.options.fs,
      workspace,
      waitForIdle: this.options.waitForIdle,
      onNotice: this.options.onNotice,
    });
  }
}

function emptyRetrieval(query: string): Retrieval {
  return { query, method: 'keywords', items: [] };
}
