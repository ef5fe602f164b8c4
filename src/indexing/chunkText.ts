// What a chunk is embedded and keyword-matched as. The indexer embeds chunks with chunkEmbeddingText and the
// retriever asks the embedder for the same text, so the shared vector cache answers instead of the server:
// both must use this one function, or every query would re-embed the whole index.
import type { ChunkRecord } from '../core/knowledge/types';
import { tokenize } from '../core/tools/selection/toolText';

/** Longest text embedded per chunk: embedding models have small windows and a chunk's start says most. */
export const MAX_CHUNK_EMBED_CHARS = 2000;

export type ChunkTextSource = Pick<ChunkRecord, 'file' | 'name' | 'summary' | 'text'>;

/**
 * The text a chunk is embedded as, exactly:
 *   line 1: the file path, then a space and the chunk's name when it has one ("src/config.ts parseConfig")
 *   line 2: the chunk's summary, trimmed, when it has a non-empty one (line left out otherwise)
 *   then:   the chunk's text as in the file
 * clipped to MAX_CHUNK_EMBED_CHARS characters (never inside a surrogate pair).
 */
export function chunkEmbeddingText(chunk: ChunkTextSource): string {
  const head = chunk.name ? `${chunk.file} ${chunk.name}` : chunk.file;
  const summary = chunk.summary?.trim();
  const full = summary ? `${head}\n${summary}\n${chunk.text}` : `${head}\n${chunk.text}`;
  if (full.length <= MAX_CHUNK_EMBED_CHARS) return full;
  let end = MAX_CHUNK_EMBED_CHARS;
  const last = full.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate: its pair would be cut off
  return full.slice(0, end);
}

/**
 * The keyword (BM25) tokens of a chunk: path words, the name twice (the densest description a chunk has),
 * the summary and the text, identifiers split and stemmed like the query.
 */
export function chunkKeywordTokens(chunk: ChunkTextSource): string[] {
  const out: string[] = [];
  tokenizeInto(out, chunk.file);
  if (chunk.name) {
    tokenizeInto(out, chunk.name);
    tokenizeInto(out, chunk.name);
  }
  if (chunk.summary) tokenizeInto(out, chunk.summary);
  tokenizeInto(out, chunk.text);
  return out;
}

/** Tokens of each identifier-like word, remembered: code repeats its identifiers, and 10,000 chunks are many words. */
const wordTokens = new Map<string, readonly string[]>();
const MAX_REMEMBERED_WORDS = 200_000;

/** Appends tokenize(text) to `out`, word by word (tokenize treats each such word on its own, so this is the same). */
function tokenizeInto(out: string[], text: string): void {
  for (const word of text.match(/[A-Za-z0-9_]+/g) ?? []) {
    let tokens = wordTokens.get(word);
    if (!tokens) {
      if (wordTokens.size >= MAX_REMEMBERED_WORDS) wordTokens.clear();
      tokens = tokenize(word);
      wordTokens.set(word, tokens);
    }
    for (const t of tokens) out.push(t);
  }
}
