// One relation away: the knowledge graph's entities and relations turned into links between chunks, so a
// retrieved function brings along where what it calls is defined, and who calls it. An entity belongs to the
// innermost chunk of its file whose lines hold the entity's line; a chunk's own name also counts as defined
// there (chunker names survive when the model gave no entities).
import type { ChunkRecord, Entity, Relation, RelationKind } from '../core/knowledge/types';

export interface NeighbourLink {
  /** Index of the neighbour in the chunk list the graph was built from. */
  chunk: number;
  /** Seen from the hit: "calls parseConfig", "called by main". */
  relation: string;
}

/** A link as stored: the text is made only for the links a retrieval shows. */
interface StoredLink {
  chunk: number;
  verb: string;
  name: string;
}

/**
 * Links kept per chunk and direction. A retrieval shows a handful; a hub called from thousands of places would
 * otherwise cost memory and time for links nobody reads.
 */
const MAX_LINKS = 32;

/** Adds a link unless that chunk is linked already (the first relation wins) or the list is full. */
function link(links: StoredLink[], chunk: number, verb: string, name: string): void {
  if (links.length >= MAX_LINKS) return;
  for (const l of links) if (l.chunk === chunk) return;
  links.push({ chunk, verb, name });
}

/** How a relation reads from each end. `defines` is structure, not a link between chunks: left out. */
const WORDING: Record<Exclude<RelationKind, 'defines'>, { out: string; in: string }> = {
  calls: { out: 'calls', in: 'called by' },
  imports: { out: 'imports', in: 'imported by' },
  uses: { out: 'uses', in: 'used by' },
  extends: { out: 'extends', in: 'extended by' },
  implements: { out: 'implements', in: 'implemented by' },
  references: { out: 'references', in: 'referenced by' },
};

export class ChunkGraph {
  private constructor(
    private readonly outgoing: StoredLink[][],
    private readonly incoming: StoredLink[][],
  ) {}

  static build(chunks: readonly ChunkRecord[], entities: readonly Entity[], relations: readonly Relation[]): ChunkGraph {
    const locate = new ChunkLocator(chunks);
    const definers = new NameIndex();
    chunks.forEach((chunk, i) => {
      if (chunk.name) definers.add(chunk.name, i, chunk.file);
    });
    for (const entity of entities) {
      const at = locate.at(entity.file, entity.line);
      if (at !== undefined) definers.add(entity.name, at, entity.file);
    }

    const outgoing: StoredLink[][] = chunks.map(() => []);
    const incoming: StoredLink[][] = chunks.map(() => []);
    for (const relation of relations) {
      if (relation.kind === 'defines' || !(relation.kind in WORDING)) continue;
      const wording = WORDING[relation.kind];
      // The relation's own line says where it happens; without one, wherever `from` is defined in that file.
      const fromLine = relation.line !== undefined ? locate.at(relation.file, relation.line) : undefined;
      const sources = fromLine !== undefined ? [fromLine] : definers.resolve(relation.from, relation.file, true);
      if (sources.length === 0) continue;
      const targets = definers.resolve(relation.to, relation.file, false);
      for (const from of sources) {
        for (const to of targets) {
          if (from === to) continue;
          link(outgoing[from]!, to, wording.out, relation.to);
          link(incoming[to]!, from, wording.in, relation.from);
        }
      }
    }
    return new ChunkGraph(outgoing, incoming);
  }

  /** Chunks one relation away from chunk `index`: what it calls/uses first, then what calls/uses it; deduped, capped. */
  neighbours(index: number, limit: number): NeighbourLink[] {
    const out: NeighbourLink[] = [];
    const taken = new Set<number>([index]);
    for (const link of [...(this.outgoing[index] ?? []), ...(this.incoming[index] ?? [])]) {
      if (out.length >= limit) break;
      if (taken.has(link.chunk)) continue;
      taken.add(link.chunk);
      out.push({ chunk: link.chunk, relation: `${link.verb} ${link.name}` });
    }
    return out;
  }
}

/** Finds the innermost chunk of a file holding a line. */
class ChunkLocator {
  private readonly byFile = new Map<string, number[]>();

  constructor(private readonly chunks: readonly ChunkRecord[]) {
    chunks.forEach((chunk, i) => {
      const list = this.byFile.get(chunk.file);
      if (list) list.push(i);
      else this.byFile.set(chunk.file, [i]);
    });
  }

  at(file: string, line: number): number | undefined {
    let best: number | undefined;
    let bestSpan = Infinity;
    for (const i of this.byFile.get(file) ?? []) {
      const c = this.chunks[i]!;
      if (line < c.startLine || line > c.endLine) continue;
      const span = c.endLine - c.startLine;
      if (span < bestSpan) {
        best = i;
        bestSpan = span;
      }
    }
    return best;
  }
}

/**
 * Entity names to the chunks defining them. Models write methods as `Config.parse`, `Config::parse` or
 * `Config#parse` in one place and `parse` in another, so the last segment is an alias used when the full
 * name is unknown.
 */
class NameIndex {
  private readonly exact = new Map<string, Array<{ chunk: number; file: string }>>();
  private readonly bySegment = new Map<string, Array<{ chunk: number; file: string }>>();

  add(name: string, chunk: number, file: string): void {
    push(this.exact, name, { chunk, file });
    const segment = lastSegment(name);
    push(this.bySegment, segment, { chunk, file });
  }

  /**
   * The chunks defining `name`: exact names before last-segment matches; those in `file` only, when there are
   * any there (a call to `parse` means the local one) or when `sameFileOnly`.
   */
  resolve(name: string, file: string, sameFileOnly: boolean): number[] {
    const found = this.exact.get(name) ?? this.exact.get(lastSegment(name)) ?? this.bySegment.get(lastSegment(name)) ?? [];
    const local = found.filter((d) => d.file === file);
    const chosen = local.length > 0 || sameFileOnly ? local : found;
    return [...new Set(chosen.map((d) => d.chunk))];
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function lastSegment(name: string): string {
  const parts = name.split(/::|[.#]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? name;
}
