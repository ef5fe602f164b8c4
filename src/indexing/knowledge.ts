// Composes the workspace index for a host (CLI and editor alike): one embedder (with the shared vector cache)
// used by both the indexer and the retriever, so the retriever finds the indexer's vectors without a request;
// the model's summaries on the chat model; the chunker; and the summaries port for compression.
import type { Embedder, VectorCachePort } from '../core/embeddings';
import { chunkText } from '../core/knowledge/chunker';
import type { Chunker, IndexSummaryPort, KnowledgeStorePort } from '../core/knowledge/types';
import type { Clock, FileSystemPort } from '../core/ports';
import type { ChatProvider } from '../core/provider';
import { CachedEmbedder } from './embeddingClient';
import { ModelFileSummarizer } from './fileSummarizer';
import { Indexer, type IndexerOptions } from './indexer';
import { StoredSummaries } from './indexSummaryPort';
import { KnowledgeIndexRetriever } from './retriever';
import { errorMessage } from '../shared/format';

export interface KnowledgeOptions {
  store: KnowledgeStorePort;
  /** Where vectors outlive the process (SessionStore.vectors); absent: memory only. */
  vectors?: VectorCachePort;
  provider: ChatProvider;
  /** The chat model that writes the summaries of `full` indexing; empty: no summaries (`full` acts as `embed`). */
  model: string;
  /** Embedding model on the same server; empty or absent: no vectors, retrieval by keywords. */
  embedModel?: string;
  fs: FileSystemPort;
  /** Absolute workspace root. */
  workspace: string;
  /** Resolves when no chat turn runs (indexing yields to the chat on the shared model server). */
  waitForIdle?: (signal: AbortSignal) => Promise<void>;
  /** Retrieval notices (keyword fallback) and vector-cache failures, for the user. */
  onNotice?: (message: string) => void;
  /** Chunks retrieved when the caller gives no k (default 5). */
  defaultK?: number;
  /** Indexer knobs (limits, timings); tests and benches. */
  indexer?: Pick<IndexerOptions, 'maxBytes' | 'embedBatchSize' | 'onTiming'> & { clock?: Clock };
  chunker?: Chunker;
}

export interface Knowledge {
  indexer: Indexer;
  retriever: KnowledgeIndexRetriever;
  summaries: IndexSummaryPort;
  /** Undefined without an embedding model. */
  embedder: Embedder | undefined;
}

export function createKnowledge(options: KnowledgeOptions): Knowledge {
  const embedModel = options.embedModel?.trim();
  const embedder = embedModel
    ? new CachedEmbedder({
        provider: options.provider,
        model: embedModel,
        ...(options.vectors && { cache: options.vectors }),
        ...(options.onNotice && {
          onCacheError: (err: unknown) => options.onNotice!(`the embedding cache failed (${errorMessage(err)}); vectors are kept in memory only`),
        }),
      })
    : undefined;
  const model = options.model.trim();
  const summarizer = model ? new ModelFileSummarizer({ provider: options.provider, model }) : undefined;
  const indexer = new Indexer({
    fs: options.fs,
    workspace: options.workspace,
    store: options.store,
    chunker: options.chunker ?? chunkText,
    ...(embedder && { embedder }),
    ...(summarizer && { summarizer }),
    ...(options.waitForIdle && { waitForIdle: options.waitForIdle }),
    ...options.indexer,
  });
  const retriever = new KnowledgeIndexRetriever({
    store: options.store,
    ...(embedder && { embedder }),
    ...(options.defaultK !== undefined && { defaultK: options.defaultK }),
    ...(options.onNotice && { onNotice: options.onNotice }),
  });
  const summaries = new StoredSummaries({ store: options.store, fs: options.fs, workspace: options.workspace });
  return { indexer, retriever, summaries, embedder };
}

/**
 * The embedding model most of the index was built with ('' when none): `query` and `run` use it by default,
 * since the vectors in the cache were made with it.
 */
export function indexEmbedModel(store: Pick<KnowledgeStorePort, 'listFiles'>): string {
  const counts = new Map<string, number>();
  for (const f of store.listFiles()) if (f.embedModel) counts.set(f.embedModel, (counts.get(f.embedModel) ?? 0) + 1);
  let best = '';
  let most = 0;
  for (const [model, n] of counts) {
    if (n > most) {
      best = model;
      most = n;
    }
  }
  return best;
}
