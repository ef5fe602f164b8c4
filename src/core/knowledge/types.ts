// The workspace knowledge graph as the core sees it (issue 10): files, chunks, entities and relations, and the
// ports through which the agent reads it (retrieval before a model call, summaries during compression).
// Indexing itself (reading, chunking, the model's summaries, embeddings, storage) lives in src/indexing and
// src/persistence; the editor and the CLI only wire those together.

/** How a file is indexed. `full`: chunks, vectors and the model's summaries, entities and relations.
 *  `embed`: chunks and vectors, no model summaries. `metadata`: the file's facts only (size, language, outline). */
export type IndexMode = 'full' | 'embed' | 'metadata';

/** 1-based, inclusive line numbers. */
export interface LineSpan {
  startLine: number;
  endLine: number;
}

export type ChunkKind = 'function' | 'class' | 'method' | 'interface' | 'type' | 'section' | 'block' | 'file';

/** A piece of a file cut along its structure (a function, a class, a markdown section …). */
export interface ChunkDraft extends LineSpan {
  kind: ChunkKind;
  /** The declared name (function, class, heading), when there is one. */
  name?: string;
  /** The chunk's text exactly as in the file (lines startLine..endLine). */
  text: string;
}

export type RelationKind = 'calls' | 'imports' | 'defines' | 'uses' | 'extends' | 'implements' | 'references';
export const RELATION_KINDS: readonly RelationKind[] = ['calls', 'imports', 'defines', 'uses', 'extends', 'implements', 'references'];

export interface Entity {
  name: string;
  /** function, class, method, variable, type, module, … (free text from the model or the chunker). */
  kind: string;
  /** Workspace-relative path, '/' separated. */
  file: string;
  line: number;
}

export interface Relation {
  /** Entity names. `to` may live in another file or nowhere in the index (an import from a package). */
  from: string;
  kind: RelationKind;
  to: string;
  file: string;
  line?: number;
}

/** A stored chunk. */
export interface ChunkRecord extends ChunkDraft {
  id: number;
  /** Workspace-relative path, '/' separated. */
  file: string;
  /** sha256 hex of `text`: the key of its vector in the shared embedding cache (with the model name). */
  hash: string;
  summary?: string;
}

export type IndexState = 'indexed' | 'metadata' | 'failed';

/** One file in the index (what the Knowledge view lists). */
export interface IndexedFile {
  /** Workspace-relative path, '/' separated. */
  path: string;
  /** sha256 hex of the content that was indexed (incremental indexing compares it). */
  hash: string;
  mode: IndexMode;
  state: IndexState;
  /** Only these lines were indexed ("Index lines…", "Index Selection"). */
  range?: LineSpan;
  language: string;
  lines: number;
  bytes: number;
  summary?: string;
  chunkCount: number;
  /** The embedding model the chunk vectors were made with ('' when none). */
  embedModel: string;
  indexedAt: number;
  /** Why the state is what it is, e.g. "the model's JSON was invalid twice; indexed with metadata only". */
  note?: string;
}

/** One chunk the retriever found for a request, best first. */
export interface RetrievedChunk extends LineSpan {
  rank: number;
  file: string;
  /** Cosine similarity (vectors) or a normalised BM25 score (keywords). */
  score: number;
  name?: string;
  summary?: string;
  text: string;
  /** Chunks one relation away (the chunk defines what they call, or calls what they define). */
  neighbours: Array<LineSpan & { file: string; name?: string; relation: string }>;
  /** A short reason for the panel, e.g. "similar to the request (0.82)" or "calls parseConfig". */
  why: string;
}

export interface Retrieval {
  query: string;
  method: 'vectors' | 'keywords';
  items: RetrievedChunk[];
  /** Said once to the user, e.g. "no embedding model …; retrieval uses keywords". */
  notice?: string;
}

/** What the agent session asks before a model call (cached per turn by the caller). */
export interface KnowledgeRetriever {
  retrieve(query: string, options: { k?: number; signal: AbortSignal }): Promise<Retrieval>;
}

/** Summaries of indexed files, for compression: a long read_file result becomes the summary and a pointer. */
export interface IndexSummaryPort {
  /**
   * The summary of the file (workspace-relative or absolute path) when it is indexed with a summary and the file
   * on disk is still what was indexed (a summary of an older version would mislead); otherwise undefined.
   */
  summaryFor(path: string, signal: AbortSignal): Promise<IndexedSummary | undefined>;
}

export interface IndexedSummary {
  /** Workspace-relative path. */
  path: string;
  summary: string;
  chunks: Array<LineSpan & { name?: string; summary?: string }>;
}

// ---- The parts of indexing, as the indexer composes them (implementations in src/indexing, src/persistence). ----

/** Cuts a file along its structure. Pure; `range` limits it to those lines (line numbers stay the file's). */
export type Chunker = (text: string, path: string, options?: { range?: LineSpan; maxLines?: number }) => ChunkDraft[];

/** The model's reading of a file (full indexing), validated. Chunk summaries by position in the chunk list. */
export interface FileSummary {
  summary: string;
  chunks: Array<{ index: number; summary: string }>;
  entities: Array<Omit<Entity, 'file'>>;
  relations: Array<Omit<Relation, 'file'>>;
  /** What checking the model's answer against the chunks corrected (summaries moved or dropped): the file's flag. */
  notes?: string[];
}

/** How such a note begins (stored as the file's note; the Knowledge view flags the file by it). */
export const SUMMARY_MISMATCH_NOTE = "The summarizer's answer did not match the code";

/** What the summarizer reads: the file's chunks and its outline (computed once by the indexer, which reuses it). */
export interface FileSummaryInput {
  path: string;
  language: string;
  chunks: readonly ChunkDraft[];
  /** The file's named declarations (over the indexed range), to check the model's answer against. */
  outline: ReadonlyArray<{ name: string; line: number }>;
}

export interface FileSummarizer {
  /** Throws StructuredOutputError (src/core/structured) when the model's JSON stays invalid after the retry. */
  summarize(input: FileSummaryInput, signal: AbortSignal): Promise<FileSummary>;
}

/** Everything stored for one file, replaced as a whole. */
export interface KnowledgeWrite {
  file: Omit<IndexedFile, 'chunkCount' | 'indexedAt'>;
  chunks: Array<ChunkDraft & { hash: string; summary?: string }>;
  entities: Entity[];
  relations: Relation[];
}

/** The graph's storage (SQLite: src/persistence/knowledgeStore.ts). Paths are workspace-relative, '/' separated. */
export interface KnowledgeStorePort {
  /** Replaces everything stored for the file in one transaction; returns its chunks with their ids. */
  putFile(write: KnowledgeWrite): ChunkRecord[];
  getFile(path: string): IndexedFile | undefined;
  listFiles(): IndexedFile[];
  /** False when the file was not indexed. */
  removeFile(path: string): boolean;
  /** All chunks, or one file's, in file and line order. */
  chunks(path?: string): ChunkRecord[];
  entities(path?: string): Entity[];
  relations(path?: string): Relation[];
  /** Grows with every change: a reader (the retriever) reloads when it moved. */
  readonly revision: number;
}
