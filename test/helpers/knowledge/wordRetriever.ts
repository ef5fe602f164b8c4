// A small working KnowledgeRetriever for the session's retrieval tests: chunks of real files, ranked by the share
// of the request's words they contain (what a keyword retriever does, without BM25's weights). Records every
// call; can be told to fail, to be slow (it honours the AbortSignal) or to carry a notice.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { KnowledgeRetriever, Retrieval, RetrievedChunk } from '../../../src/core/knowledge/types';

export interface WordChunk {
  file: string;
  startLine: number;
  endLine: number;
  name?: string;
  text: string;
}

export class WordRetriever implements KnowledgeRetriever {
  readonly calls: Array<{ query: string; k: number | undefined; signal: AbortSignal }> = [];
  failing: string | undefined;
  notice: string | undefined;

  constructor(private readonly chunks: readonly WordChunk[]) {}

  /** Chunks of whole files cut every `lines` lines, named by `nameOf`. */
  static async fromFiles(root: string, files: readonly string[], lines: number, nameOf?: (file: string, index: number) => string): Promise<WordRetriever> {
    const chunks: WordChunk[] = [];
    for (const file of files) {
      const all = (await readFile(path.join(root, file), 'utf8')).replace(/\n$/, '').split('\n');
      for (let start = 0, i = 0; start < all.length; start += lines, i++) {
        const name = nameOf?.(file, i);
        chunks.push({ file, startLine: start + 1, endLine: Math.min(all.length, start + lines), ...(name && { name }), text: all.slice(start, start + lines).join('\n') });
      }
    }
    return new WordRetriever(chunks);
  }

  async retrieve(query: string, options: { k?: number; signal: AbortSignal }): Promise<Retrieval> {
    this.calls.push({ query, k: options.k, signal: options.signal });
    options.signal.throwIfAborted();
    if (this.failing) throw new Error(this.failing);
    const words = new Set(wordsOf(query));
    const scored = this.chunks
      .map((c) => {
        const own = new Set(wordsOf(`${c.file} ${c.name ?? ''} ${c.text}`));
        const shared = [...words].filter((w) => own.has(w));
        return { c, shared, score: words.size ? shared.length / words.size : 0 };
      })
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.c.file.localeCompare(b.c.file) || a.c.startLine - b.c.startLine)
      .slice(0, options.k ?? 3);
    const items: RetrievedChunk[] = scored.map((s, i) => ({
      rank: i + 1,
      file: s.c.file,
      startLine: s.c.startLine,
      endLine: s.c.endLine,
      score: s.score,
      ...(s.c.name && { name: s.c.name }),
      text: s.c.text,
      neighbours: [],
      why: `shares ${s.shared.slice(0, 4).join(', ')} with the request`,
    }));
    return { query, method: 'keywords', items, ...(this.notice && { notice: this.notice }) };
  }
}

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z_][a-z0-9_]{2,}/g) ?? []).filter((w) => !STOP.has(w));
}

const STOP = new Set(['the', 'and', 'these', 'each', 'one', 'files', 'file', 'defines', 'reading', 'list', 'functions', 'function', 'them', 'src']);
