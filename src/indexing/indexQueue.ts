// The secondary loop: files the agent reads join a queue, and after the turn has ended (never while the model
// streams or tools run) each is indexed — on its own (`auto`) or as the user chooses, one file at a time (`ask`).
// The editor supplies `ask` with QuickPicks; nothing here knows about the editor.
import * as path from 'node:path';
import type { AgentEvent } from '../core/agent/events';
import type { IndexMode, KnowledgeStorePort, LineSpan } from '../core/knowledge/types';
import type { FileSystemPort } from '../core/ports';
import type { Indexer, IndexResult } from './indexer';
import { sha256 } from './indexedFile';
import { errorMessage as messageOf } from '../shared/format';

/** `localharness.index.onRead`. */
export type QueueMode = 'off' | 'ask' | 'auto';

export type QueueChoice =
  | { kind: 'full' }
  | { kind: 'lines'; range: LineSpan }
  | { kind: 'metadata' }
  | { kind: 'skip' }
  | { kind: 'never-type' };

export interface QueueEntry {
  /** Workspace-relative, '/' separated. */
  path: string;
  abs: string;
  /** sha256 of the content when the agent read it: a different hash later means the entry is stale. */
  hash: string;
  /** The file's type for "Never for this file type": its extension ('.md'), or its name when it has none. */
  type: string;
  readAt: number;
}

/** Remembered file types never to queue (the editor keeps them in settings or workspace state). */
export interface NeverTypes {
  has(type: string): boolean;
  add(type: string): void | Promise<void>;
}

export interface IndexQueueOptions {
  indexer: Pick<Indexer, 'index' | 'resolve' | 'hasSummarizer'>;
  store: Pick<KnowledgeStorePort, 'getFile'>;
  fs: Pick<FileSystemPort, 'readFile' | 'lstat'>;
  /** Read on every event, so a settings change applies at once. */
  mode: () => QueueMode;
  /** How `auto` indexes (default `full` when the indexer has a summarizer, else `embed`). */
  autoMode?: IndexMode;
  /** `ask`: one question per file; undefined = dismissed (the file and the ones after it stay queued). */
  ask?: (entry: QueueEntry, position: { index: number; total: number }, signal: AbortSignal) => Promise<QueueChoice | undefined>;
  neverTypes: NeverTypes;
  /** A sentence for the user (a stale entry dropped, a file that could not be indexed). */
  onNote?: (message: string) => void;
  /** The queue's length changed (the status bar). */
  onChange?: (length: number) => void;
  /** A file the queue indexed (or tried to). */
  onIndexed?: (result: IndexResult) => void;
  /** Drain by itself when a turn ends (default true); false: the caller calls drain(). */
  drainOnTurnEnd?: boolean;
  now?: () => number;
}

export class IndexQueue {
  private queue: QueueEntry[] = [];
  /** read_file calls of the running turn, by tool call id → the path argument. */
  private readonly reads = new Map<string, string>();
  /** Enqueues in flight (each reads and hashes the file): a drain waits for them. */
  private readonly pending = new Set<Promise<void>>();
  private tail: Promise<void> = Promise.resolve();
  private turnRunning = false;
  private draining: Promise<void> | undefined;
  private readonly lifetime = new AbortController();

  constructor(private readonly options: IndexQueueOptions) {}

  get length(): number {
    return this.queue.length;
  }

  entries(): readonly QueueEntry[] {
    return [...this.queue];
  }

  clear(): void {
    if (this.queue.length === 0) return;
    this.queue = [];
    this.changed();
  }

  /** Stops a running drain and any later automatic one. */
  dispose(): void {
    this.lifetime.abort();
  }

  /** Feed every agent event here. */
  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_start':
        this.turnRunning = true;
        this.reads.clear();
        return;
      case 'tool_call':
        if (event.name === 'read_file') {
          const arg = (event.arguments as { path?: unknown } | null | undefined)?.path;
          if (typeof arg === 'string' && arg.trim() !== '') this.reads.set(event.id, arg);
        }
        return;
      case 'tool_result': {
        const read = this.reads.get(event.id);
        this.reads.delete(event.id);
        if (read === undefined || !event.ok || event.name !== 'read_file') return;
        if (this.options.mode() === 'off') return;
        this.track(read);
        return;
      }
      case 'turn_end':
        this.turnRunning = false;
        this.reads.clear();
        if (this.options.drainOnTurnEnd !== false && !this.lifetime.signal.aborted) {
          void this.drain(this.lifetime.signal).catch((err: unknown) => {
            if (!this.lifetime.signal.aborted) this.options.onNote?.(`Indexing the queued files stopped: ${messageOf(err)}`);
          });
        }
        return;
      default:
        return;
    }
  }

  /**
   * Adds a file the agent read (absolute or workspace-relative), unless it is outside the workspace, of a
   * never-indexed type, already queued, or already indexed as it is now. Resolves when decided.
   */
  async enqueue(userPath: string): Promise<void> {
    let abs: string;
    let rel: string;
    try {
      ({ abs, rel } = await this.options.indexer.resolve(userPath));
    } catch {
      return; // outside the workspace: the indexer would refuse it anyway
    }
    const type = fileType(rel);
    if (this.options.neverTypes.has(type)) return;
    const hash = await this.hashOf(abs);
    if (hash === undefined) return;
    if (this.options.store.getFile(rel)?.hash === hash) return;
    const existing = this.queue.find((e) => e.path === rel);
    if (existing) {
      existing.hash = hash; // read again after a change: the newest content is what the agent saw
      return;
    }
    this.queue.push({ path: rel, abs, hash, type, readAt: (this.options.now ?? Date.now)() });
    this.changed();
  }

  /**
   * Handles the queued files, one at a time, while no turn runs. `auto` indexes each; `ask` asks and honours
   * the choice; a dismissed question leaves that file and the rest queued. A second call while one runs
   * joins it.
   */
  drain(signal: AbortSignal): Promise<void> {
    if (!this.draining) {
      this.draining = this.drainOnce(signal).finally(() => {
        this.draining = undefined;
      });
    }
    return this.draining;
  }

  /** Resolves when the enqueues in flight are decided and no drain runs (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0 || this.draining) {
      await Promise.all([...this.pending]);
      await this.draining?.catch(() => undefined);
    }
  }

  private async drainOnce(signal: AbortSignal): Promise<void> {
    // Reads still being hashed belong to the turn that just ended.
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    let asked = 0;
    while (this.queue.length > 0) {
      signal.throwIfAborted();
      // A new turn started: the rest waits for its end (the user is busy with the chat).
      if (this.turnRunning) return;
      const mode = this.options.mode();
      if (mode === 'off') return;
      if (mode === 'ask' && !this.options.ask) return;
      const entry = this.queue[0]!;
      if (this.options.neverTypes.has(entry.type)) {
        this.drop(entry);
        continue;
      }
      if (await this.isStale(entry)) {
        signal.throwIfAborted();
        continue;
      }
      signal.throwIfAborted();

      let request: { mode: IndexMode; range?: LineSpan } | undefined;
      if (mode === 'auto') {
        request = { mode: this.autoMode() };
      } else {
        asked++;
        const choice = await this.options.ask!(entry, { index: asked, total: asked - 1 + this.queue.length }, signal);
        signal.throwIfAborted();
        if (choice === undefined) return; // dismissed: ask again after the next turn
        if (!this.queue.includes(entry)) continue; // removed meanwhile (cleared)
        switch (choice.kind) {
          case 'skip':
            this.drop(entry);
            continue;
          case 'never-type':
            await this.options.neverTypes.add(entry.type);
            this.removeWhere((e) => e.type === entry.type);
            continue;
          case 'metadata':
            request = { mode: 'metadata' };
            break;
          case 'lines':
            request = { mode: this.autoMode(), range: choice.range };
            break;
          case 'full':
            request = { mode: 'full' };
            break;
        }
      }
      let result: IndexResult;
      try {
        result = await this.options.indexer.index({ path: entry.abs, ...request }, { signal });
      } catch (err) {
        signal.throwIfAborted();
        this.drop(entry);
        this.options.onNote?.(`${entry.path} could not be indexed: ${messageOf(err)}`);
        continue;
      }
      this.drop(entry);
      if (result.outcome === 'refused' || result.outcome === 'failed') {
        this.options.onNote?.(`${entry.path} was not indexed: ${result.reason ?? result.outcome}`);
      }
      this.options.onIndexed?.(result);
    }
  }

  private autoMode(): IndexMode {
    return this.options.autoMode ?? (this.options.indexer.hasSummarizer ? 'full' : 'embed');
  }

  /** Changed or deleted since the agent read it: dropped with a note (the user would judge a file they never saw). */
  private async isStale(entry: QueueEntry): Promise<boolean> {
    const hash = await this.hashOf(entry.abs);
    if (hash === entry.hash) return false;
    this.drop(entry);
    this.options.onNote?.(
      hash === undefined
        ? `${entry.path} was removed from the indexing queue: it was deleted after the agent read it.`
        : `${entry.path} was removed from the indexing queue: it changed after the agent read it.`,
    );
    return true;
  }

  private async hashOf(abs: string): Promise<string | undefined> {
    try {
      const stat = await this.options.fs.lstat(abs);
      if (!stat || stat.kind === 'directory') return undefined;
      return sha256(await this.options.fs.readFile(abs));
    } catch {
      return undefined;
    }
  }

  /** Enqueues run one after another, so the queue keeps the order the agent read the files in. */
  private track(userPath: string): void {
    const previous = this.tail;
    const work = previous
      .then(() => this.enqueue(userPath))
      .catch((err: unknown) => this.options.onNote?.(`A read file could not be queued for indexing: ${messageOf(err)}`));
    this.tail = work;
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private drop(entry: QueueEntry): void {
    this.removeWhere((e) => e === entry);
  }

  private removeWhere(test: (e: QueueEntry) => boolean): void {
    const before = this.queue.length;
    this.queue = this.queue.filter((e) => !test(e));
    if (this.queue.length !== before) this.changed();
  }

  private changed(): void {
    this.options.onChange?.(this.queue.length);
  }
}

/** '.ts', '.md' … (lower case), or the file's name when it has no extension ('Makefile'). */
export function fileType(file: string): string {
  const base = path.posix.basename(file.replace(/\\/g, '/'));
  const ext = path.posix.extname(base).toLowerCase();
  return ext === '' ? base : ext;
}

