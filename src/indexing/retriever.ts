// Retrieval from the workspace index before a model call: the request's top-k chunks by cosine similarity
// (one packed matrix, see vectorMatrix.ts; fused with a BM25 keyword ranking unless `hybrid: false`) plus
// their 1-hop graph neighbours. Without an embedding model, or when the server cannot embed, it ranks by BM25
// keywords alone and says so once. The index is read again only when the store's revision moved; chunk
// vectors come through the embedder, whose cache holds what the indexer stored, so loading recomputes nothing.
import { EMBEDDING_MODEL_HINT, EmbeddingUnavailableError, type Embedder } from '../core/embeddings';
import type { ChunkRecord, KnowledgeRetriever, KnowledgeStorePort, Retrieval, RetrievedChunk } from '../core/knowledge/types';
import { identifierWords, tokenize } from '../core/tools/selection/toolText';
import { chunkEmbeddingText, chunkKeywordTokens } from './chunkText';
import { ChunkGraph } from './graphNeighbours';
import { KeywordIndex } from './keywordIndex';
import { fuseRankings } from './rankFusion';
import { VectorMatrix, type ScoredRow } from './vectorMatrix';
import { untilAborted } from '../core/abortable';
import { errorMessage } from '../shared/format';

export { chunkEmbeddingText, MAX_CHUNK_EMBED_CHARS } from './chunkText';

export interface KnowledgeIndexRetrieverOptions {
  store: KnowledgeStorePort;
  /** Without one, retrieval ranks by keywords (BM25). */
  embedder?: Embedder;
  /** Chunks per retrieval when the caller gives no k (default 5). */
  defaultK?: number;
  /** Neighbours listed per retrieved chunk (default 4). */
  maxNeighbours?: number;
  /** Every notice, as it is made (it is also on the Retrieval that carries it). */
  onNotice?: (notice: string) => void;
  /**
   * Fuse the cosine ranking with BM25 keywords by reciprocal rank fusion (default true): small embedding models
   * blur identifiers and rare words, which keywords catch. Scores stay the cosine similarities.
   */
  hybrid?: boolean;
}

/** Longest request embedded or tokenised: the caller puts the user's words first. */
const MAX_QUERY_CHARS = 4000;
/** Query vectors kept: the agent asks with the same turn text before each model call of a turn. */
const QUERY_CACHE_SIZE = 8;
const MAX_K = 100;
/** Matched words named in a keyword hit's `why`. */
const WHY_WORDS = 6;
/** Candidates taken from each ranking before fusing them. */
const FUSION_DEPTH = 50;

/** What was read from the store at one revision. */
interface Snapshot {
  revision: number;
  chunks: ChunkRecord[];
  graph: ChunkGraph;
  /** Chunk vectors for `matrixModel`, packed; built on the first vector query. */
  matrix?: VectorMatrix;
  matrixModel?: string;
  loading?: Promise<VectorMatrix>;
  keywords?: KeywordIndex;
}

export class KnowledgeIndexRetriever implements KnowledgeRetriever {
  private readonly store: KnowledgeStorePort;
  private readonly embedder: Embedder | undefined;
  private readonly defaultK: number;
  private readonly maxNeighbours: number;
  private readonly onNotice: ((notice: string) => void) | undefined;
  private readonly hybrid: boolean;
  private snap: Snapshot | undefined;
  /** Chunk vectors of the last load by chunk identity, so a reload after one file changed re-asks only its chunks. */
  private rows = new Map<string, Float32Array>();
  private rowsModel: string | undefined;
  private readonly queryVectors = new Map<string, Float32Array>();
  /** Set when the embedder said it cannot embed: keywords from then on. */
  private unavailable: EmbeddingUnavailableError | undefined;
  private keywordNoticeGiven = false;
  /** A failure (server down) was announced and nothing has worked since: do not repeat it every call. */
  private failureAnnounced = false;

  constructor(options: KnowledgeIndexRetrieverOptions) {
    this.store = options.store;
    this.embedder = options.embedder;
    this.defaultK = clampK(options.defaultK ?? 5);
    this.maxNeighbours = Math.max(0, Math.floor(options.maxNeighbours ?? 4));
    this.onNotice = options.onNotice;
    this.hybrid = options.hybrid ?? true;
  }

  /** 'vectors' while an embedder is set and has not said it cannot embed. */
  get method(): Retrieval['method'] {
    return this.embedder && !this.unavailable ? 'vectors' : 'keywords';
  }

  /** Loads the index (and its vectors, when embedding) ahead of the first query; returns the chunk count. */
  async warm(signal: AbortSignal): Promise<number> {
    signal.throwIfAborted();
    const snap = this.snapshot();
    if (this.embedder && !this.unavailable && snap.chunks.length > 0) {
      try {
        await this.matrixFor(snap, this.embedder, signal);
      } catch (err) {
        if (signal.aborted || isAbort(err)) throw err;
        if (err instanceof EmbeddingUnavailableError) this.unavailable = err;
        // Anything else surfaces, with its notice, on the next retrieve().
      }
    }
    // Keywords are used on every query (hybrid) or instead of vectors: build their index now, not on the first query.
    if (snap.chunks.length > 0 && (this.hybrid || this.method === 'keywords')) this.keywordIndex(snap);
    return snap.chunks.length;
  }

  async retrieve(query: string, options: { k?: number; signal: AbortSignal }): Promise<Retrieval> {
    const { signal } = options;
    signal.throwIfAborted();
    const snap = this.snapshot();
    const k = options.k === undefined ? this.defaultK : clampK(options.k);
    const text = (query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query).trim();

    let failure: string | undefined;
    if (this.embedder && !this.unavailable) {
      if (snap.chunks.length === 0 || text === '' || k === 0) return { query, method: 'vectors', items: [] };
      try {
        const matrix = await this.matrixFor(snap, this.embedder, signal);
        const vector = await this.queryVector(this.embedder, text, signal);
        this.failureAnnounced = false;
        return { query, method: 'vectors', items: this.byVectors(snap, matrix, vector, text, k) };
      } catch (err) {
        if (signal.aborted || isAbort(err)) throw err;
        if (err instanceof EmbeddingUnavailableError) this.unavailable = err;
        else failure = failureText(this.embedder.model, err);
      }
    }
    const notice = this.keywordNotice(failure);
    const keywords = k > 0 ? this.keywordHits(snap, text, k) : undefined;
    // BM25 has no fixed scale: scores are shown relative to the best hit (1.00).
    const best = keywords?.hits[0]?.score ?? 1;
    const items = keywords
      ? this.items(
          snap,
          keywords.hits.map((hit) => ({ index: hit.index, score: hit.score / best })),
          (hit) => `keywords: ${keywords.matched(hit.index).join(', ')}`,
        )
      : [];
    return { query, method: 'keywords', items, ...(notice !== undefined && { notice }) };
  }

  /** Cosine top-k, fused with the keyword ranking when hybrid; scores stay the cosine similarities. */
  private byVectors(snap: Snapshot, matrix: VectorMatrix, vector: Float32Array, text: string, k: number): RetrievedChunk[] {
    // Zero and negative similarity: unrelated, not worth the prompt's tokens.
    if (!this.hybrid) return this.items(snap, matrix.topK(vector, k, 0), (hit) => similarity(hit.score));
    const depth = Math.max(FUSION_DEPTH, k);
    const byVector = matrix.topK(vector, depth, 0);
    const keywords = this.keywordHits(snap, text, depth);
    const fused = fuseRankings([byVector, keywords?.hits ?? []], k);
    const cosine = new Map(byVector.map((hit) => [hit.index, hit.score]));
    const hits = fused.map((hit) => ({ index: hit.index, score: cosine.get(hit.index) ?? matrix.score(vector, hit.index) }));
    return this.items(snap, hits, (hit) => {
      const words = keywords?.matched(hit.index) ?? [];
      return words.length > 0 ? `${similarity(hit.score)}; keywords: ${words.join(', ')}` : similarity(hit.score);
    });
  }

  /** BM25 top hits (positive, raw scores) and the request's words a hit contains; undefined for a request without words. */
  private keywordHits(snap: Snapshot, text: string, limit: number): { hits: ScoredRow[]; matched: (index: number) => string[] } | undefined {
    const tokens = tokenize(text);
    if (snap.chunks.length === 0 || tokens.length === 0) return undefined;
    const index = this.keywordIndex(snap);
    const hits = index.search(tokens, limit);
    const words = queryWords(text);
    const matched = (doc: number) =>
      [...words]
        .filter(([stem]) => index.has(doc, stem))
        .map(([, word]) => word)
        .slice(0, WHY_WORDS);
    return { hits, matched };
  }

  private keywordIndex(snap: Snapshot): KeywordIndex {
    return (snap.keywords ??= new KeywordIndex(snap.chunks.map(chunkKeywordTokens)));
  }

  /** The notice for a keyword retrieval, or undefined when it was already said. */
  private keywordNotice(failure: string | undefined): string | undefined {
    let notice: string | undefined;
    if (failure !== undefined) {
      if (!this.failureAnnounced) notice = `Retrieval from the workspace index uses keywords for now: ${failure}`;
      this.failureAnnounced = true;
    } else if (!this.keywordNoticeGiven) {
      this.keywordNoticeGiven = true;
      if (!this.embedder) notice = `No embedding model is set: retrieval from the workspace index uses keywords (BM25). ${EMBEDDING_MODEL_HINT}`;
      else if (this.unavailable) {
        const reason = this.unavailable.message.includes(EMBEDDING_MODEL_HINT) ? this.unavailable.message : `${this.unavailable.message} ${EMBEDDING_MODEL_HINT}`;
        notice = `Retrieval from the workspace index uses keywords (BM25): there is no usable embedding model. ${reason}`;
      }
    }
    if (notice !== undefined) this.onNotice?.(notice);
    return notice;
  }

  private items(snap: Snapshot, hits: readonly ScoredRow[], why: (hit: ScoredRow) => string): RetrievedChunk[] {
    return hits.map((hit, i) => {
      const chunk = snap.chunks[hit.index]!;
      const neighbours = snap.graph.neighbours(hit.index, this.maxNeighbours).map((link) => {
        const n = snap.chunks[link.chunk]!;
        return { file: n.file, startLine: n.startLine, endLine: n.endLine, ...(n.name !== undefined && { name: n.name }), relation: link.relation };
      });
      return {
        rank: i + 1,
        file: chunk.file,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        score: Math.round(hit.score * 1e4) / 1e4,
        ...(chunk.name !== undefined && { name: chunk.name }),
        ...(chunk.summary !== undefined && { summary: chunk.summary }),
        text: chunk.text,
        neighbours,
        why: why(hit),
      };
    });
  }

  /** The store as of its current revision (read again only when the revision moved). */
  private snapshot(): Snapshot {
    const revision = this.store.revision;
    if (this.snap && this.snap.revision === revision) return this.snap;
    // The store's reads are synchronous: chunks, entities and relations come from one revision.
    const chunks = this.store.chunks();
    this.snap = { revision, chunks, graph: ChunkGraph.build(chunks, this.store.entities(), this.store.relations()) };
    return this.snap;
  }

  /** The snapshot's vectors for the embedder's model; callers asking at the same time share one load. */
  private async matrixFor(snap: Snapshot, embedder: Embedder, signal: AbortSignal): Promise<VectorMatrix> {
    for (;;) {
      if (snap.matrix && snap.matrixModel === embedder.model) return snap.matrix;
      const loading = (snap.loading ??= this.loadVectors(snap, embedder, signal).finally(() => {
        snap.loading = undefined;
      }));
      try {
        return await untilAborted(loading, signal);
      } catch (err) {
        // Another caller's abort ended the shared load: this caller still wants it, so load again.
        if (!signal.aborted && isAbort(err)) continue;
        throw err;
      }
    }
  }

  private async loadVectors(snap: Snapshot, embedder: Embedder, signal: AbortSignal): Promise<VectorMatrix> {
    const model = embedder.model;
    const known = this.rowsModel === model ? this.rows : new Map<string, Float32Array>();
    const keys = snap.chunks.map(rowKey);
    const vectors: Array<Float32Array | undefined> = keys.map((key) => known.get(key));
    const missing = snap.chunks.flatMap((chunk, i) => (vectors[i] ? [] : [i]));
    if (missing.length > 0) {
      const fresh = await embedder.embed(
        missing.map((i) => chunkEmbeddingText(snap.chunks[i]!)),
        signal,
      );
      if (fresh.length !== missing.length) throw new Error(`the embedder returned ${fresh.length} vectors for ${missing.length} chunks`);
      missing.forEach((i, j) => (vectors[i] = fresh[j]!));
    }
    const rows = new Map<string, Float32Array>();
    keys.forEach((key, i) => rows.set(key, vectors[i]!));
    this.rows = rows;
    this.rowsModel = model;
    const matrix = VectorMatrix.fromRows(vectors as Float32Array[]);
    snap.matrix = matrix;
    snap.matrixModel = model;
    return matrix;
  }

  private async queryVector(embedder: Embedder, text: string, signal: AbortSignal): Promise<Float32Array> {
    const key = `${embedder.model}\0${text}`;
    const cached = this.queryVectors.get(key);
    if (cached) {
      // Most recently used last: the first key is the one to drop.
      this.queryVectors.delete(key);
      this.queryVectors.set(key, cached);
      return cached;
    }
    const [vector] = await embedder.embed([text], signal);
    if (!vector) throw new Error('the embedder returned no vector for the request');
    this.queryVectors.set(key, vector);
    if (this.queryVectors.size > QUERY_CACHE_SIZE) this.queryVectors.delete(this.queryVectors.keys().next().value as string);
    return vector;
  }
}

/** What makes a chunk's embedding text: the same key means the same vector. */
function rowKey(chunk: ChunkRecord): string {
  return `${chunk.hash}\0${chunk.file}\0${chunk.name ?? ''}\0${chunk.summary ?? ''}`;
}

/** Stem → the request's own word for it, in the order of the request (for a readable `why`). */
function queryWords(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const raw of text.match(/[A-Za-z0-9_]+/g) ?? []) {
    for (const word of identifierWords(raw)) {
      const [stem] = tokenize(word);
      if (stem !== undefined && !words.has(stem)) words.set(stem, word);
    }
  }
  return words;
}

function similarity(score: number): string {
  return `similar to the request (${score.toFixed(2)})`;
}

function clampK(k: number): number {
  return Number.isFinite(k) ? Math.max(0, Math.min(MAX_K, Math.floor(k))) : 0;
}

function isAbort(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'AbortError' || (err as { kind?: unknown }).kind === 'aborted';
}

function failureText(model: string, err: unknown): string {
  const message = errorMessage(err);
  return `embedding with "${model}" failed (${message}).`;
}

