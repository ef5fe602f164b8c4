// The chunker's contract, checked on any input: chunks cover every line of the file (or range) exactly once, in
// order; each chunk's text is exactly its lines; no chunk is longer than the limit unless it is one long line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chunkText, splitLines } from '../../../src/core/knowledge/chunker';
import type { ChunkDraft, LineSpan } from '../../../src/core/knowledge/types';

export const FIXTURES = path.join(__dirname, 'fixtures');

/** A fixture's text; fixtures end in .txt so the type checker and linters leave them alone. */
export function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, `${name}.txt`), 'utf8');
}

/** [startLine, endLine, kind, name] of each chunk: compact to compare. */
export function spans(chunks: readonly ChunkDraft[]): Array<[number, number, string, string | undefined]> {
  return chunks.map((c) => [c.startLine, c.endLine, c.kind, c.name]);
}

export function assertCoversExactly(text: string, chunks: readonly ChunkDraft[], label: string, options: { range?: LineSpan; maxLines?: number } = {}): void {
  const lines = splitLines(text);
  const from = options.range?.startLine ?? 1;
  const to = Math.min(options.range?.endLine ?? lines.length, lines.length);
  const hasContent = lines.slice(from - 1, to).some((l) => l.trim() !== '');
  if (!hasContent) {
    assert.deepEqual(chunks, [], `${label}: nothing to chunk, no chunks`);
    return;
  }
  assert.ok(chunks.length > 0, `${label}: no chunks`);
  let next = from;
  for (const [i, chunk] of chunks.entries()) {
    const where = `${label}: chunk ${i + 1} (${chunk.startLine}-${chunk.endLine})`;
    assert.equal(chunk.startLine, next, `${where} should start at line ${next}`);
    assert.ok(chunk.endLine >= chunk.startLine, `${where} ends before it starts`);
    assert.equal(chunk.text, lines.slice(chunk.startLine - 1, chunk.endLine).join('\n'), `${where}: text is not its lines`);
    assert.ok(!chunk.text.includes('\r'), `${where}: a line break survived in the text`);
    const maxLines = options.maxLines ?? 80;
    assert.ok(chunk.endLine - chunk.startLine + 1 <= maxLines, `${where}: longer than ${maxLines} lines`);
    if (chunk.name !== undefined) assert.ok(chunk.name.trim() !== '', `${where}: empty name`);
    next = chunk.endLine + 1;
  }
  assert.equal(next, to + 1, `${label}: the chunks end at line ${next - 1}, not ${to}`);
}

/** Chunks `text` and checks the invariant; returns the chunks. */
export function chunkChecked(text: string, file: string, options: { range?: LineSpan; maxLines?: number } = {}): ChunkDraft[] {
  const chunks = chunkText(text, file, options);
  assertCoversExactly(text, chunks, file, options);
  return chunks;
}
