// What the index keeps about one file: its content hash, whether the stored entry is still good (same content,
// mode, range and embedding model, and it did not fail), and its entities.
import { createHash } from 'node:crypto';
import type { Entity, FileSummary, IndexedFile, IndexMode, LineSpan } from '../core/knowledge/types';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function sameContent(prior: IndexedFile, wanted: { hash: string; mode: IndexMode; range: LineSpan | undefined }): boolean {
  return prior.hash === wanted.hash && prior.mode === wanted.mode && sameRange(prior.range, wanted.range);
}

/** Nothing to do: the same content was indexed the same way with the same embedding model, and it worked. */
export function isCurrent(prior: IndexedFile, wanted: { hash: string; mode: IndexMode; range: LineSpan | undefined; embedModel: string }): boolean {
  if (!sameContent(prior, wanted)) return false;
  if (prior.state === 'failed') return false;
  // A fallback (invalid JSON → metadata only) is worth trying again.
  if (wanted.mode !== 'metadata' && prior.state === 'metadata') return false;
  return wanted.mode === 'metadata' || prior.embedModel === wanted.embedModel;
}

function sameRange(a: LineSpan | undefined, b: LineSpan | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.startLine === b.startLine && a.endLine === b.endLine;
}

/** The model's entities, plus every declaration of the outline the model did not name itself. */
export function entitiesOf(file: string, outline: ReadonlyArray<{ name: string; kind: string; line: number }>, summary: FileSummary | undefined): Entity[] {
  const out: Entity[] = (summary?.entities ?? []).map((e) => ({ ...e, file }));
  const seen = new Set(out.map((e) => e.name));
  for (const d of outline) {
    if (seen.has(d.name)) continue;
    seen.add(d.name);
    out.push({ name: d.name, kind: d.kind, file, line: d.line });
  }
  return out;
}
