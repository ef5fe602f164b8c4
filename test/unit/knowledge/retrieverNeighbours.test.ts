// The chunk graph behind 1-hop neighbours: entities belong to the innermost chunk holding their line; a relation
// links the chunk where it happens to the chunks defining its target, read from both ends; names resolve in the
// same file first, then by their last segment ("Config.parse" → parse); `defines` and self-links are not links.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChunkRecord, Entity, Relation } from '../../../src/core/knowledge/types';
import { ChunkGraph } from '../../../src/indexing/graphNeighbours';

let nextId = 1;
function chunk(file: string, startLine: number, endLine: number, name?: string): ChunkRecord {
  return { id: nextId++, file, startLine, endLine, kind: name ? 'function' : 'block', ...(name && { name }), text: `lines ${startLine}-${endLine}`, hash: `h${nextId}` };
}
const entity = (name: string, file: string, line: number): Entity => ({ name, kind: 'function', file, line });
const rel = (from: string, kind: Relation['kind'], to: string, file: string, line?: number): Relation => ({ from, kind, to, file, ...(line !== undefined && { line }) });

describe('ChunkGraph', () => {
  // a.ts: class Server (1-40) holding method start (10-20) and method stop (22-30); b.ts: helpers.
  const chunks = [
    chunk('a.ts', 1, 40, 'Server'),
    chunk('a.ts', 10, 20),
    chunk('a.ts', 22, 30),
    chunk('b.ts', 1, 8, 'listen'),
    chunk('b.ts', 10, 15),
    chunk('c.ts', 1, 5, 'listen'),
    chunk('c.ts', 7, 12, 'main'),
  ];
  const entities = [entity('Server.start', 'a.ts', 10), entity('Server.stop', 'a.ts', 22), entity('closeSockets', 'b.ts', 11), entity('Server', 'a.ts', 1)];

  it('puts an entity in the innermost chunk holding its line and links both ends with the relation wording', () => {
    const graph = ChunkGraph.build(chunks, entities, [rel('Server.stop', 'calls', 'closeSockets', 'a.ts', 25)]);
    assert.deepEqual(graph.neighbours(2, 5), [{ chunk: 4, relation: 'calls closeSockets' }]);
    assert.deepEqual(graph.neighbours(4, 5), [{ chunk: 2, relation: 'called by Server.stop' }]);
    assert.deepEqual(graph.neighbours(0, 5), [], 'the enclosing class is not the one calling');
  });

  it('without a line, the relation starts where `from` is defined in that file; names resolve by their last segment', () => {
    const graph = ChunkGraph.build(chunks, entities, [rel('start', 'calls', 'Server.stop', 'a.ts'), rel('main', 'calls', 'Server.start', 'c.ts')]);
    assert.deepEqual(graph.neighbours(1, 5), [
      { chunk: 2, relation: 'calls Server.stop' },
      { chunk: 6, relation: 'called by main' },
    ]);
  });

  it('prefers the definition in the same file; falls back to every file defining the name', () => {
    const local = ChunkGraph.build(chunks, entities, [rel('main', 'calls', 'listen', 'c.ts', 8)]);
    assert.deepEqual(local.neighbours(6, 5), [{ chunk: 5, relation: 'calls listen' }], 'c.ts has its own listen');
    const remote = ChunkGraph.build(chunks, entities, [rel('Server.start', 'calls', 'listen', 'a.ts', 12)]);
    assert.deepEqual(remote.neighbours(1, 5), [
      { chunk: 3, relation: 'calls listen' },
      { chunk: 5, relation: 'calls listen' },
    ]);
  });

  it('reads every relation kind from both ends, ignores `defines`, self-links and names nowhere in the index', () => {
    const kinds: Array<[Relation['kind'], string, string]> = [
      ['imports', 'imports', 'imported by'],
      ['uses', 'uses', 'used by'],
      ['extends', 'extends', 'extended by'],
      ['implements', 'implements', 'implemented by'],
      ['references', 'references', 'referenced by'],
    ];
    for (const [kind, out, inward] of kinds) {
      const graph = ChunkGraph.build(chunks, entities, [rel('main', kind, 'closeSockets', 'c.ts', 9)]);
      assert.deepEqual(graph.neighbours(6, 5), [{ chunk: 4, relation: `${out} closeSockets` }]);
      assert.deepEqual(graph.neighbours(4, 5), [{ chunk: 6, relation: `${inward} main` }]);
    }
    const none = ChunkGraph.build(chunks, entities, [
      rel('Server', 'defines', 'Server.start', 'a.ts', 1),
      rel('Server.start', 'calls', 'Server.start', 'a.ts', 15),
      rel('main', 'imports', 'node:fs', 'c.ts', 7),
      rel('ghost', 'calls', 'listen', 'c.ts'),
    ]);
    for (let i = 0; i < chunks.length; i++) assert.deepEqual(none.neighbours(i, 5), [], `chunk ${i}`);
  });

  it('dedupes a neighbour reached twice (keeps the first relation) and caps the list, outgoing first', () => {
    const graph = ChunkGraph.build(chunks, entities, [
      rel('main', 'calls', 'closeSockets', 'c.ts', 8),
      rel('main', 'uses', 'closeSockets', 'c.ts', 9),
      rel('main', 'calls', 'listen', 'c.ts', 10),
      rel('Server.stop', 'calls', 'main', 'a.ts', 23),
    ]);
    assert.deepEqual(graph.neighbours(6, 5), [
      { chunk: 4, relation: 'calls closeSockets' },
      { chunk: 5, relation: 'calls listen' },
      { chunk: 2, relation: 'called by Server.stop' },
    ]);
    assert.deepEqual(graph.neighbours(6, 2).map((n) => n.chunk), [4, 5]);
    assert.deepEqual(graph.neighbours(6, 0), []);
  });
});
