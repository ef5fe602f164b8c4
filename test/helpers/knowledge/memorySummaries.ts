// A small working IndexSummaryPort for compression tests and the index-summaries bench: summaries held in
// memory for files in a real folder, given only while the file on disk still has the content that was indexed
// (the port's contract), for workspace-relative, './'-prefixed or absolute paths.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IndexedSummary, IndexSummaryPort, LineSpan } from '../../../src/core/knowledge/types';

interface Entry {
  summary: IndexedSummary;
  hash: string;
}

export class MemorySummaries implements IndexSummaryPort {
  private readonly entries = new Map<string, Entry>();
  /** Every lookup, as asked (the test's view of what compression asked for). */
  readonly lookups: string[] = [];
  /** Makes summaryFor throw (a store that broke mid-session). */
  failing = false;

  constructor(private readonly root: string) {}

  /** Indexes `rel` as it is on disk now. */
  async index(rel: string, summary: string, chunks: Array<LineSpan & { name?: string; summary?: string }>): Promise<void> {
    const text = await readFile(path.join(this.root, rel), 'utf8');
    this.entries.set(rel, { summary: { path: rel, summary, chunks }, hash: sha256(text) });
  }

  async summaryFor(asked: string, signal: AbortSignal): Promise<IndexedSummary | undefined> {
    signal.throwIfAborted();
    this.lookups.push(asked);
    if (this.failing) throw new Error('the knowledge store is closed');
    const abs = path.resolve(this.root, asked);
    const rel = path.relative(this.root, abs).split(path.sep).join('/');
    if (rel.startsWith('..')) return undefined;
    const entry = this.entries.get(rel);
    if (!entry) return undefined;
    let text: string;
    try {
      text = await readFile(abs, 'utf8');
    } catch {
      return undefined; // deleted since it was indexed
    }
    return sha256(text) === entry.hash ? structuredClone(entry.summary) : undefined;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
