// Indexes one workspace file: read (confined to the workspace, text only, bounded) → chunk → the model's
// summaries (full) → embeddings of the chunks (embed, full) → one store write. Incremental by content hash,
// cancellable at every await (a cancelled index stores nothing), and the time spent waiting on the model is
// measured apart from our own work, so the overhead bench can tell them apart.
import * as path from 'node:path';
import { EmbeddingUnavailableError, type Embedder } from '../core/embeddings';
import type {
  ChunkDraft,
  Chunker,
  FileSummarizer,
  FileSummary,
  IndexedFile,
  IndexMode,
  KnowledgeStorePort,
  KnowledgeWrite,
  LineSpan,
  Relation,
} from '../core/knowledge/types';
import { looksBinary } from '../core/knowledge/binary';
import { outlineText, splitLines } from '../core/knowledge/chunker';
import { detectLanguage } from '../core/knowledge/language';
import { systemClock, type Clock, type FileSystemPort } from '../core/ports';
import { StructuredOutputError } from '../core/structured/structuredOutputError';
import { PathError, WorkspaceRoots, isInside } from '../core/workspace/workspaceRoots';
import { errorMessage as messageOf, formatSize as formatBytes } from '../shared/format';
import { chunkEmbeddingText } from './chunkText';
import { entitiesOf, isCurrent, sameContent, sha256 } from './indexedFile';

export const DEFAULT_MAX_INDEX_BYTES = 1024 * 1024;
/** Chunks per embedding call: each call is a point where indexing can be cancelled or yield to a chat turn. */
export const DEFAULT_EMBED_BATCH = 32;

export const INVALID_JSON_NOTE = "the model's JSON was invalid twice; indexed with metadata only";
export const NO_SUMMARIZER_NOTE = 'no chat model for summaries; indexed chunks and vectors only';

export type IndexOutcome = 'indexed' | 'unchanged' | 'metadata' | 'refused' | 'failed';

export interface IndexRequest {
  /** Absolute, or relative to the workspace root. */
  path: string;
  mode: IndexMode;
  /** Index only these lines (1-based, inclusive; an end past the file is clipped to its last line). */
  range?: LineSpan;
  /** Index again even when nothing changed. */
  force?: boolean;
}

export interface IndexProgress {
  message: string;
  /** Percent of this file's work just done (the increments of one file add up to 100). */
  increment?: number;
}

export interface IndexCallOptions {
  signal: AbortSignal;
  onProgress?: (progress: IndexProgress) => void;
}

export interface IndexResult {
  /** Workspace-relative, '/' separated (the path as given when it could not be resolved). */
  path: string;
  outcome: IndexOutcome;
  /** What the index holds for the file now (absent for refused and failed files never indexed). */
  file?: IndexedFile;
  /** Why it was refused or failed. */
  reason?: string;
  chunks: number;
  /** Time spent awaiting the model (summaries and embeddings, including the embedding cache lookups). */
  modelMs: number;
  /** Time spent waiting for a chat turn to end before a model call (neither ours nor the model's). */
  waitedMs: number;
  totalMs: number;
  /** Things the user should hear about (fallbacks), also stored as the file's note. */
  notices: string[];
}

export type IndexPhase = 'read' | 'chunk' | 'summarize' | 'embed' | 'store';

export interface IndexerOptions {
  fs: FileSystemPort;
  /** Absolute path of the workspace root; nothing outside it is indexed. */
  workspace: string;
  store: KnowledgeStorePort;
  chunker: Chunker;
  /** The file's named declarations and headings: entities without the model, and what the summarizer checks the model against (default: the chunker's outline). */
  outline?: (text: string, path: string, options: { range?: LineSpan }) => Array<{ name: string; kind: string; line: number }>;
  /** Absent: no vectors (retrieval uses keywords). */
  embedder?: Embedder;
  /** Absent: `full` indexes like `embed`, with a note. */
  summarizer?: FileSummarizer;
  /** Resolves when no chat turn runs: the model server is shared, so indexing yields before each model call. */
  waitForIdle?: (signal: AbortSignal) => Promise<void>;
  /** Larger files are refused (default 1 MiB). */
  maxBytes?: number;
  /** Chunks per embedding call (default 32). */
  embedBatchSize?: number;
  clock?: Clock;
  /** Time per phase of each file (benches, logs). */
  onTiming?: (timing: { path: string; phase: IndexPhase; ms: number }) => void;
}

export class Indexer {
  private readonly roots: WorkspaceRoots;
  private readonly clock: Clock;
  private readonly maxBytes: number;
  private readonly batchSize: number;

  constructor(private readonly options: IndexerOptions) {
    this.roots = new WorkspaceRoots([{ name: path.basename(options.workspace), path: options.workspace }], options.fs);
    this.clock = options.clock ?? systemClock;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_INDEX_BYTES;
    this.batchSize = Math.max(1, options.embedBatchSize ?? DEFAULT_EMBED_BATCH);
  }

  get workspace(): string {
    return this.options.workspace;
  }

  /** True when `full` asks the model for summaries (otherwise it indexes like `embed`). */
  get hasSummarizer(): boolean {
    return this.options.summarizer !== undefined;
  }

  /** The model vectors are made with ('' without an embedder). */
  get embedModel(): string {
    return this.options.embedder?.model ?? '';
  }

  /**
   * An absolute path inside the workspace and its workspace-relative form. Throws PathError for '..', paths
   * outside the workspace and symlinks leading out of it (the same confinement as the tools).
   */
  async resolve(userPath: string): Promise<{ abs: string; rel: string }> {
    const abs = await this.roots.resolve(userPath);
    return { abs, rel: this.relative(abs) };
  }

  /** Removes a file from the index; false when it was not indexed (or the path is outside the workspace). */
  remove(userPath: string): boolean {
    const rel = this.lexicalRelative(userPath);
    return rel === undefined ? false : this.options.store.removeFile(rel);
  }

  async index(request: IndexRequest, call: IndexCallOptions): Promise<IndexResult> {
    const { signal } = call;
    signal.throwIfAborted();
    const run = new Run(this.clock, call);
    const { fs, store } = this.options;

    let abs: string;
    let rel: string;
    try {
      ({ abs, rel } = await this.resolve(request.path));
    } catch (err) {
      signal.throwIfAborted();
      if (err instanceof PathError) return run.finish(request.path, 'refused', { reason: err.message });
      return run.finish(request.path, 'failed', { reason: messageOf(err) });
    }
    signal.throwIfAborted();
    run.progress(`Reading ${rel}`);

    // Read: a text file of bounded size (judging what a symlink inside the workspace points to).
    let text: string;
    let bytes: number;
    const readStart = this.clock.now();
    try {
      const link = await fs.lstat(abs);
      signal.throwIfAborted();
      const stat = link?.kind === 'symlink' ? await fs.lstat(await fs.realpath(abs)) : link;
      signal.throwIfAborted();
      if (!stat) return run.finish(rel, 'failed', { reason: `${rel} does not exist.` });
      if (stat.kind === 'directory') return run.finish(rel, 'refused', { reason: `${rel} is a folder; index the files in it.` });
      if (stat.kind !== 'file') return run.finish(rel, 'refused', { reason: `${rel} is not a regular file.` });
      if (stat.size > this.maxBytes) {
        return run.finish(rel, 'refused', { reason: `${rel} is ${formatBytes(stat.size)}, more than the ${formatBytes(this.maxBytes)} indexing limit.` });
      }
      text = await fs.readFile(abs);
      bytes = stat.size;
    } catch (err) {
      signal.throwIfAborted();
      return run.finish(rel, 'failed', { reason: `${rel} could not be read: ${messageOf(err)}` });
    }
    signal.throwIfAborted();
    this.timing(rel, 'read', readStart);
    if (looksBinary(text)) return run.finish(rel, 'refused', { reason: `${rel} looks like a binary file; only text files are indexed.` });

    const hash = sha256(text);
    const lines = splitLines(text).length;
    let range: LineSpan | undefined;
    if (request.range) {
      const { startLine, endLine } = request.range;
      if (!Number.isInteger(startLine) || !Number.isInteger(endLine) || startLine < 1 || endLine < startLine) {
        return run.finish(rel, 'refused', { reason: `lines ${startLine}-${endLine} are not a range of ${rel} (give 1-based start ≤ end).` });
      }
      if (startLine > lines) return run.finish(rel, 'refused', { reason: `line ${startLine} is past the end of ${rel}, which has ${lines} lines.` });
      range = { startLine, endLine: Math.min(endLine, lines) };
    }

    let mode = request.mode;
    if (mode === 'full' && !this.options.summarizer) {
      mode = 'embed';
      run.notices.push(NO_SUMMARIZER_NOTE);
    }
    const embedder = mode === 'metadata' ? undefined : this.options.embedder;
    const prior = store.getFile(rel);
    if (!request.force && prior && isCurrent(prior, { hash, mode, range, embedModel: embedder?.model ?? '' })) {
      return run.finish(rel, 'unchanged', { file: prior, chunks: prior.chunkCount });
    }

    const chunkStart = this.clock.now();
    const language = detectLanguage(rel, text);
    const drafts = this.options.chunker(text, rel, range ? { range } : undefined);
    // Once per file: the summarizer checks the model's answer against it, and the entities come from it.
    const outline = (this.options.outline ?? outlineText)(text, rel, range ? { range } : {});
    this.timing(rel, 'chunk', chunkStart);
    run.progress(`Chunked ${rel} into ${drafts.length} ${drafts.length === 1 ? 'piece' : 'pieces'}`, 10);

    // The model's reading (full): a summary per chunk, entities and relations. When only the vectors are
    // missing (the embedding model changed, or was unavailable last time) the stored reading is reused.
    let summary: FileSummary | undefined = !request.force && prior && sameContent(prior, { hash, mode, range }) ? this.storedReading(prior, drafts) : undefined;
    let state: IndexedFile['state'] = mode === 'metadata' ? 'metadata' : 'indexed';
    if (mode === 'full' && drafts.length > 0 && !summary) {
      await run.idle(this.options.waitForIdle);
      run.progress(`Summarizing ${rel}`);
      const started = this.clock.now();
      try {
        summary = await run.model(() => this.options.summarizer!.summarize({ path: rel, language, chunks: drafts, outline }, signal));
        run.notices.push(...(summary.notes ?? []));
      } catch (err) {
        signal.throwIfAborted();
        if (!(err instanceof StructuredOutputError)) return run.finish(rel, 'failed', { reason: `summarizing ${rel} failed: ${messageOf(err)}` });
        state = 'metadata';
        run.notices.push(INVALID_JSON_NOTE);
      }
      signal.throwIfAborted();
      this.timing(rel, 'summarize', started);
    }
    run.progress(`Summarized ${rel}`, mode === 'full' ? 40 : 0);

    const chunks: KnowledgeWrite['chunks'] = drafts.map((draft, i) => {
      const chunkSummary = summary?.chunks.find((c) => c.index === i)?.summary.trim();
      return { ...draft, hash: sha256(draft.text), ...(chunkSummary && { summary: chunkSummary }) };
    });

    // Embeddings: the vectors land in the shared cache, keyed by the exact text the retriever will ask for.
    let embedModel = '';
    if (embedder && state === 'indexed' && chunks.length > 0) {
      const share = mode === 'full' ? 40 : 80;
      const texts = chunks.map((c) => chunkEmbeddingText({ file: rel, text: c.text, ...(c.name && { name: c.name }), ...(c.summary && { summary: c.summary }) }));
      const started = this.clock.now();
      embedModel = embedder.model;
      for (let at = 0; at < texts.length; at += this.batchSize) {
        const batch = texts.slice(at, at + this.batchSize);
        await run.idle(this.options.waitForIdle);
        run.progress(`Embedding ${rel} (${Math.min(at + batch.length, texts.length)}/${texts.length})`);
        try {
          await run.model(() => embedder.embed(batch, signal));
        } catch (err) {
          signal.throwIfAborted();
          if (!(err instanceof EmbeddingUnavailableError)) return run.finish(rel, 'failed', { reason: `embedding ${rel} failed: ${messageOf(err)}` });
          embedModel = '';
          run.notices.push(`no vectors: ${err.message} Retrieval uses keywords (BM25) for this file.`);
          break;
        }
        signal.throwIfAborted();
        run.progress(`Embedded ${rel}`, (share * batch.length) / texts.length);
      }
      this.timing(rel, 'embed', started);
    }

    signal.throwIfAborted();
    const storeStart = this.clock.now();
    const write: KnowledgeWrite = {
      file: {
        path: rel,
        hash,
        // The mode it was really indexed with ('full' without a summarizer is 'embed'), so a summarizer added
        // later makes the next request do the full work.
        mode,
        state,
        ...(range && { range }),
        language,
        lines,
        bytes,
        ...(summary?.summary.trim() && { summary: summary.summary.trim() }),
        embedModel,
        ...(run.notices.length > 0 && { note: run.notices.join('; ') }),
      },
      chunks,
      entities: entitiesOf(rel, outline, summary),
      relations: (summary?.relations ?? []).map((r): Relation => ({ ...r, file: rel })),
    };
    try {
      store.putFile(write);
    } catch (err) {
      return run.finish(rel, 'failed', { reason: `storing ${rel} failed: ${messageOf(err)}` });
    }
    this.timing(rel, 'store', storeStart);
    const file = store.getFile(rel);
    return run.finish(rel, state === 'metadata' ? 'metadata' : 'indexed', { ...(file && { file }), chunks: chunks.length });
  }

  /** What the model said about this very content last time (full mode, indexed), positioned on `drafts`. */
  private storedReading(prior: IndexedFile, drafts: readonly ChunkDraft[]): FileSummary | undefined {
    if (prior.mode !== 'full' || prior.state !== 'indexed' || !prior.summary) return undefined;
    const { store } = this.options;
    const stored = new Map(store.chunks(prior.path).map((c) => [`${c.startLine}-${c.endLine}`, c.summary]));
    return {
      summary: prior.summary,
      chunks: drafts.flatMap((d, index) => {
        const text = stored.get(`${d.startLine}-${d.endLine}`);
        return text ? [{ index, summary: text }] : [];
      }),
      entities: store.entities(prior.path).map(({ file: _file, ...e }) => e),
      relations: store.relations(prior.path).map(({ file: _file, ...r }) => r),
    };
  }

  private relative(abs: string): string {
    return path.relative(this.options.workspace, abs).split(path.sep).join('/') || '.';
  }

  /** The workspace-relative form of a path without touching the disk (undefined outside the workspace). */
  private lexicalRelative(userPath: string): string | undefined {
    const cleaned = userPath.trim().replace(/\\/g, '/');
    if (cleaned === '' || cleaned.split('/').includes('..')) return undefined;
    const abs = path.resolve(this.options.workspace, cleaned);
    if (!isInside(this.options.workspace, abs) || abs === path.resolve(this.options.workspace)) return undefined;
    return this.relative(abs);
  }

  private timing(file: string, phase: IndexPhase, started: number): void {
    this.options.onTiming?.({ path: file, phase, ms: this.clock.now() - started });
  }
}

/** The bookkeeping of one index call: timings, progress, notices. */
class Run {
  readonly notices: string[] = [];
  private readonly started: number;
  private modelMs = 0;
  private waitedMs = 0;
  private done = 0;

  constructor(
    private readonly clock: Clock,
    private readonly call: IndexCallOptions,
  ) {
    this.started = clock.now();
  }

  progress(message: string, increment?: number): void {
    if (!this.call.onProgress) return;
    const inc = increment === undefined ? undefined : Math.min(increment, 100 - this.done);
    if (inc !== undefined) this.done += inc;
    this.call.onProgress({ message, ...(inc !== undefined && inc > 0 && { increment: inc }) });
  }

  async idle(waitForIdle: ((signal: AbortSignal) => Promise<void>) | undefined): Promise<void> {
    if (!waitForIdle) return;
    const started = this.clock.now();
    await waitForIdle(this.call.signal);
    this.waitedMs += this.clock.now() - started;
    this.call.signal.throwIfAborted();
  }

  async model<T>(work: () => Promise<T>): Promise<T> {
    const started = this.clock.now();
    try {
      return await work();
    } finally {
      this.modelMs += this.clock.now() - started;
    }
  }

  finish(file: string, outcome: IndexOutcome, extra: { file?: IndexedFile; reason?: string; chunks?: number }): IndexResult {
    this.progress(outcome === 'indexed' || outcome === 'metadata' ? `Indexed ${file}` : `${file}: ${outcome}`, 100);
    return {
      path: file,
      outcome,
      ...(extra.file && { file: extra.file }),
      ...(extra.reason !== undefined && { reason: extra.reason }),
      chunks: extra.chunks ?? 0,
      modelMs: this.modelMs,
      waitedMs: this.waitedMs,
      totalMs: this.clock.now() - this.started,
      notices: [...this.notices],
    };
  }
}
