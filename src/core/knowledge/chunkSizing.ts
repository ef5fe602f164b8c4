// Sizing the pieces a segmenter found: pieces longer than the limit are cut where a cut hurts least, runs of tiny
// pieces are merged. Pieces are 0-based inclusive line ranges that cover their region in order, without gaps;
// both steps keep that true.
import type { ChunkKind } from './types';

export interface Piece {
  /** 0-based, inclusive. */
  start: number;
  end: number;
  kind: ChunkKind;
  name?: string;
  /** The declaration's own line (after its doc comment and decorators). */
  head?: number;
  /** Import lines: one chunk of their own, never merged with code. */
  imports?: boolean;
  /** A part of a longer piece: keeps its place rather than merging into neighbours. */
  part?: boolean;
  /** Where the declaration itself ends when the piece also holds what follows it (a class's closing brace). */
  ownEnd?: number;
}

/** How bad a cut after line `i` (0-based) is: lower is better. */
export type CutCost = (i: number) => number;

/** Cuts every piece longer than `maxLines` into parts; later parts are named "<name> (part N)". */
export function splitLong(pieces: readonly Piece[], maxLines: number, cutCost: CutCost): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if (piece.end - piece.start + 1 <= maxLines) {
      out.push(piece);
      continue;
    }
    let start = piece.start;
    let part = 1;
    const partOf = (n: number): Piece => {
      const p: Piece = { start, end: start, kind: piece.kind, part: true };
      if (piece.name !== undefined) p.name = n === 1 ? piece.name : `${piece.name} (part ${n})`;
      if (n === 1 && piece.head !== undefined) p.head = piece.head;
      return p;
    };
    while (piece.end - start + 1 > maxLines) {
      // A part is at least half the limit long, so a bad spot cannot shred the piece into slivers.
      const lo = start + Math.max(0, Math.ceil(maxLines / 2) - 1);
      // …and the last part is not a sliver either (a lone closing brace).
      const hi = Math.max(lo, Math.min(start + maxLines - 1, piece.end - Math.ceil(maxLines / 4)));
      let best = hi;
      let bestCost = Number.POSITIVE_INFINITY;
      for (let cut = hi; cut >= lo; cut--) {
        const cost = cutCost(cut);
        if (cost < bestCost) {
          best = cut;
          bestCost = cost;
        }
      }
      out.push({ ...partOf(part), end: best });
      start = best + 1;
      part++;
    }
    out.push({ ...partOf(part), end: piece.end });
  }
  return out;
}

/**
 * Merges runs of neighbouring tiny pieces (fewer than `minLines` non-blank lines) while the merged piece stays
 * within `maxMerged` lines. A merged piece keeps a shared kind (else 'block') and lists the names it holds.
 */
export function mergeTiny(pieces: readonly Piece[], lines: readonly string[], minLines: number, maxMerged: number): Piece[] {
  const out: Array<Piece & { names?: string[]; open?: boolean; merged?: boolean }> = [];
  for (const piece of pieces) {
    const tiny = !piece.part && !piece.imports && nonBlankLines(lines, piece) < minLines;
    const previous = out[out.length - 1];
    if (tiny && previous?.open && piece.end - previous.start + 1 <= maxMerged) {
      previous.end = piece.end;
      previous.merged = true;
      if (previous.kind !== piece.kind) previous.kind = 'block';
      if (piece.name !== undefined) (previous.names ??= []).push(piece.name);
      continue;
    }
    out.push({ ...piece, open: tiny, ...(piece.name !== undefined ? { names: [piece.name] } : {}) });
  }
  return out.map(({ names, open, merged, ...piece }) => {
    if (!merged) return piece;
    const result: Piece = { ...piece };
    delete result.head;
    if (names && names.length > 0) result.name = listNames(names);
    return result;
  });
}

/** "a, b, c, d, +3 more": long lists of tiny constants would drown the chunk's label. */
function listNames(names: readonly string[]): string {
  const shown = names.length > MAX_NAMES ? names.slice(0, MAX_NAMES - 1) : names;
  return names.length > MAX_NAMES ? `${shown.join(', ')}, +${names.length - shown.length} more` : shown.join(', ');
}

const MAX_NAMES = 4;

function nonBlankLines(lines: readonly string[], piece: Piece): number {
  let n = 0;
  for (let i = piece.start; i <= piece.end; i++) if (lines[i]!.trim() !== '') n++;
  return n;
}
