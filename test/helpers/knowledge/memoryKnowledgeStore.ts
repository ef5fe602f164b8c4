// A working KnowledgeStorePort in memory, for tests of the parts that read the knowledge graph (the retriever)
// while the SQLite store is built and tested on its own. Same contract: a file's write replaces everything
// stored for it, chunk ids are never reused, reads come in file and line order, and every change moves
// `revision`. Bad writes are refused with a clear error and change nothing.
import { createHash } from 'node:crypto';
import type { ChunkRecord, Entity, IndexedFile, KnowledgeStorePort, KnowledgeWrite, Relation } from '../../../src/core/knowledge/types';

interface StoredFile {
  file: IndexedFile;
  chunks: ChunkRecord[];
  entities: Entity[];
  relations: Relation[];
}

export class MemoryKnowledgeStore implements KnowledgeStorePort {
  private readonly files = new Map<string, StoredFile>();
  private nextChunkId = 1;
  private rev = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get revision(): number {
    return this.rev;
  }

  putFile(write: KnowledgeWrite): ChunkRecord[] {
    const path = write.file.path;
    checkPath(path);
    write.chunks.forEach((c, i) => {
      if (!Number.isInteger(c.startLine) || !Number.isInteger(c.endLine) || c.startLine < 1 || c.endLine < c.startLine) {
        throw new Error(`chunk ${i} of ${path} has invalid lines ${c.startLine}-${c.endLine}`);
      }
    });
    for (const item of [...write.entities, ...write.relations]) {
      if (item.file !== path) throw new Error(`an entity or relation of ${path} names another file (${item.file})`);
    }
    const chunks: ChunkRecord[] = write.chunks
      .map((c) => ({ ...c, id: this.nextChunkId++, file: path }))
      .sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
    const file: IndexedFile = { ...write.file, chunkCount: chunks.length, indexedAt: this.now() };
    this.files.set(path, { file, chunks, entities: write.entities.map((e) => ({ ...e })), relations: write.relations.map((r) => ({ ...r })) });
    this.rev++;
    return chunks.map((c) => ({ ...c }));
  }

  getFile(path: string): IndexedFile | undefined {
    const stored = this.files.get(path);
    return stored ? { ...stored.file } : undefined;
  }

  listFiles(): IndexedFile[] {
    return this.sorted().map((s) => ({ ...s.file }));
  }

  removeFile(path: string): boolean {
    const removed = this.files.delete(path);
    if (removed) this.rev++;
    return removed;
  }

  chunks(path?: string): ChunkRecord[] {
    return this.pick(path).flatMap((s) => s.chunks.map((c) => ({ ...c })));
  }

  entities(path?: string): Entity[] {
    return this.pick(path).flatMap((s) => s.entities.map((e) => ({ ...e })));
  }

  relations(path?: string): Relation[] {
    return this.pick(path).flatMap((s) => s.relations.map((r) => ({ ...r })));
  }

  private pick(path: string | undefined): StoredFile[] {
    if (path === undefined) return this.sorted();
    const stored = this.files.get(path);
    return stored ? [stored] : [];
  }

  private sorted(): StoredFile[] {
    return [...this.files.values()].sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
  }
}

function checkPath(path: string): void {
  if (path === '' || path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\') || path.split('/').includes('..')) {
    throw new Error(`"${path}" is not a workspace-relative, '/'-separated path`);
  }
}

/** sha256 hex of a chunk's text, as the indexer stores it. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A KnowledgeWrite for a file cut into the given chunks (embed mode unless said otherwise). */
export function knowledgeWrite(
  path: string,
  content: string,
  chunks: KnowledgeWrite['chunks'] extends Array<infer C> ? Array<Omit<C, 'hash'>> : never,
  extra: { entities?: Entity[]; relations?: Relation[]; summary?: string; embedModel?: string; mode?: IndexedFile['mode'] } = {},
): KnowledgeWrite {
  return {
    file: {
      path,
      hash: textHash(content),
      mode: extra.mode ?? (extra.summary !== undefined ? 'full' : 'embed'),
      state: 'indexed',
      language: path.endsWith('.md') ? 'markdown' : 'typescript',
      lines: content.split('\n').length,
      bytes: Buffer.byteLength(content),
      embedModel: extra.embedModel ?? '',
      ...(extra.summary !== undefined && { summary: extra.summary }),
    },
    chunks: chunks.map((c) => ({ ...c, hash: textHash(c.text) })),
    entities: extra.entities ?? [],
    relations: extra.relations ?? [],
  };
}
