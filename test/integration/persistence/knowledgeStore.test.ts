// The knowledge graph store on real sql.js files: files, chunks, entities and relations replaced as a whole,
// chunk ids that survive journal replay, folds and reopening, an upgrade from schema 4, a damaged journal, a
// read-only reader, refusals that write nothing, a 2,000-chunk file, and two workspaces in one database that never
// see each other's files.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { ChunkKind, KnowledgeWrite } from '../../../src/core/knowledge/types';
import { PersistenceError } from '../../../src/persistence/errors';
import { journalPathFor } from '../../../src/persistence/journaledDatabase';
import { latestVersion, migrate, readUserVersion } from '../../../src/persistence/migrations';
import { SESSION_MIGRATIONS } from '../../../src/persistence/schema';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { loadSqlJs } from '../../../src/persistence/sqlJsLoader';
import type { StoreNotice } from '../../../src/persistence/types';
import { ManualClock, counterIds, tempDir } from './helpers';

/** The workspace whose index most tests store (an absolute folder; the store never reads it). */
const WS = path.resolve(tmpdir(), 'lh-workspace-a');
const WS_B = path.resolve(tmpdir(), 'lh-workspace-b');

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function open(file: string, options: { clock?: ManualClock; heard?: StoreNotice[] } = {}) {
  return SessionStore.open(file, {
    clock: options.clock ?? new ManualClock(),
    newId: counterIds(),
    foldIdleMs: 0,
    onNotice: (n) => options.heard?.push(n),
  });
}

/** A realistic write: a TS module with two functions, entities and relations between them. */
function parserWrite(path = 'src/config/parser.ts', version = 1): KnowledgeWrite {
  const chunk1 = `import { readFileSync } from 'node:fs';\nimport { z } from 'zod';`;
  const chunk2 = `export function parseConfig(text: string): Config {\n  return schema.parse(JSON.parse(text)); // v${version}\n}`;
  const chunk3 = `export function loadConfig(file: string): Config {\n  return parseConfig(readFileSync(file, 'utf8'));\n}`;
  return {
    file: {
      path,
      hash: sha(chunk1 + chunk2 + chunk3 + version),
      mode: 'full',
      state: 'indexed',
      language: 'typescript',
      lines: 10,
      bytes: 200,
      summary: `Parses and loads the configuration file (v${version}).`,
      embedModel: 'nomic-embed-text',
    },
    chunks: [
      { startLine: 1, endLine: 2, kind: 'block', name: 'imports', text: chunk1, hash: sha(chunk1) },
      { startLine: 4, endLine: 6, kind: 'function', name: 'parseConfig', text: chunk2, hash: sha(chunk2), summary: 'Validates JSON text as a Config.' },
      { startLine: 8, endLine: 10, kind: 'function', name: 'loadConfig', text: chunk3, hash: sha(chunk3), summary: 'Reads a file and parses it.' },
    ],
    entities: [
      { name: 'parseConfig', kind: 'function', file: path, line: 4 },
      { name: 'loadConfig', kind: 'function', file: path, line: 8 },
      { name: 'zod', kind: 'module', file: path, line: 2 },
    ],
    relations: [
      { from: 'loadConfig', kind: 'calls', to: 'parseConfig', file: path, line: 9 },
      { from: 'parseConfig', kind: 'uses', to: 'zod', file: path },
    ],
  };
}

function readmeWrite(): KnowledgeWrite {
  const text = '# Project\n\nHow to build it.';
  return {
    file: { path: 'README.md', hash: sha(text), mode: 'embed', state: 'indexed', language: 'markdown', lines: 3, bytes: text.length, embedModel: 'nomic-embed-text' },
    chunks: [{ startLine: 1, endLine: 3, kind: 'section', name: 'Project', text, hash: sha(text) }],
    entities: [],
    relations: [],
  };
}

const openStores = new WeakMap<TestContext, SessionStore[]>();

/** A fresh temp directory whose cleanup first closes the stores registered with closeLater (closing folds into it). */
function storeDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-knowledge-'));
  openStores.set(t, []);
  t.after(async () => {
    for (const store of openStores.get(t) ?? []) await store.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function closeLater(t: TestContext, store: SessionStore): void {
  const list = openStores.get(t);
  assert.ok(list, 'closeLater needs storeDir(t) first');
  list.push(store);
}

function isCode(code: PersistenceError['code']) {
  return (e: unknown) => e instanceof PersistenceError && e.code === code;
}

/** Copies the database and journal as they are on disk right now: what a kill -9 would leave behind. */
function snapshot(t: TestContext, file: string): string {
  const copy = path.join(tempDir(t), path.basename(file));
  copyFileSync(file, copy);
  if (existsSync(journalPathFor(file))) copyFileSync(journalPathFor(file), journalPathFor(copy));
  return copy;
}

async function rawRows(file: string, sql: string): Promise<unknown[][]> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    return db.exec(sql)[0]?.values ?? [];
  } finally {
    db.close();
  }
}

test('put, get, list and remove files; chunks come back with ids, in line order', async (t) => {
  const clock = new ManualClock();
  const store = await open(path.join(storeDir(t), 'sessions.db'), { clock });
  closeLater(t, store);
  const kg = store.knowledgeFor(WS);
  assert.equal(store.knowledgeFor(WS + path.sep), kg, 'one store per workspace root, with or without a trailing separator');
  assert.equal(store.knowledgeFor(path.join(WS, 'src', '..')), kg, 'the root is resolved');
  assert.equal(kg.workspace, WS);
  assert.deepEqual(kg.listFiles(), []);
  const revision0 = kg.revision;

  const write = parserWrite();
  const records = kg.putFile(write);
  assert.deepEqual(
    records.map((r) => [r.id, r.file, r.startLine, r.endLine, r.kind, r.name, r.summary]),
    [
      [1, 'src/config/parser.ts', 1, 2, 'block', 'imports', undefined],
      [2, 'src/config/parser.ts', 4, 6, 'function', 'parseConfig', 'Validates JSON text as a Config.'],
      [3, 'src/config/parser.ts', 8, 10, 'function', 'loadConfig', 'Reads a file and parses it.'],
    ],
  );
  assert.ok(!('summary' in records[0]!), 'no summary key when there is none');
  assert.equal(records[1]!.text, write.chunks[1]!.text);
  assert.equal(records[1]!.hash, write.chunks[1]!.hash);
  assert.ok(kg.revision > revision0);

  clock.advance(5000);
  kg.putFile(readmeWrite());
  const file = kg.getFile('src/config/parser.ts');
  assert.deepEqual(file, {
    path: 'src/config/parser.ts',
    hash: write.file.hash,
    mode: 'full',
    state: 'indexed',
    language: 'typescript',
    lines: 10,
    bytes: 200,
    summary: 'Parses and loads the configuration file (v1).',
    chunkCount: 3,
    embedModel: 'nomic-embed-text',
    indexedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
  });
  assert.deepEqual(
    kg.listFiles().map((f) => [f.path, f.chunkCount, f.mode, f.indexedAt]),
    [
      ['README.md', 1, 'embed', Date.UTC(2025, 0, 2, 3, 4, 10)],
      ['src/config/parser.ts', 3, 'full', Date.UTC(2025, 0, 2, 3, 4, 5)],
    ],
  );
  assert.equal(kg.getFile('src/other.ts'), undefined);

  assert.deepEqual(kg.chunks().map((c) => [c.file, c.startLine]), [
    ['README.md', 1],
    ['src/config/parser.ts', 1],
    ['src/config/parser.ts', 4],
    ['src/config/parser.ts', 8],
  ]);
  assert.deepEqual(kg.chunks('README.md').map((c) => c.id), [4]);
  assert.deepEqual(kg.entities('src/config/parser.ts'), write.entities);
  assert.deepEqual(kg.relations('src/config/parser.ts'), write.relations);
  assert.deepEqual(kg.entities('README.md'), []);
  assert.equal(kg.entities().length, 3);
  assert.equal(kg.relations().length, 2);

  const beforeRemove = kg.revision;
  assert.equal(kg.removeFile('src/config/parser.ts'), true);
  assert.ok(kg.revision > beforeRemove);
  assert.equal(kg.removeFile('src/config/parser.ts'), false, 'already gone');
  assert.equal(kg.getFile('src/config/parser.ts'), undefined);
  assert.deepEqual(kg.chunks().map((c) => c.file), ['README.md']);
  assert.deepEqual(kg.entities(), []);
  assert.deepEqual(kg.relations(), []);
});

test('entities are linked to the chunk holding their line', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await open(file);
  const [, parse, load] = store.knowledgeFor(WS).putFile(parserWrite());
  await store.close();
  assert.deepEqual(await rawRows(file, 'SELECT name, chunk_id FROM kg_entities ORDER BY rowid'), [
    ['parseConfig', parse!.id],
    ['loadConfig', load!.id],
    ['zod', 1],
  ]);
});

test('putting a file again replaces its chunks, entities and relations, and leaves other files alone', async (t) => {
  const store = await open(path.join(storeDir(t), 'sessions.db'));
  closeLater(t, store);
  const kg = store.knowledgeFor(WS);
  const first = kg.putFile(parserWrite('src/a.ts', 1));
  kg.putFile(parserWrite('src/b.ts', 1));

  const second = parserWrite('src/a.ts', 2);
  second.chunks = second.chunks.slice(1); // the imports chunk is gone
  second.entities = [{ name: 'parseConfig', kind: 'function', file: 'src/a.ts', line: 4 }];
  second.relations = [{ from: 'parseConfig', kind: 'references', to: 'Config', file: 'src/a.ts', line: 4 }];
  delete second.file.summary;
  second.file.state = 'metadata';
  second.file.note = 'the model JSON was invalid twice; indexed with metadata only';
  second.file.range = { startLine: 3, endLine: 10 };
  const replaced = kg.putFile(second);

  const maxOld = Math.max(...first.map((r) => r.id), ...kg.chunks('src/b.ts').map((c) => c.id));
  assert.ok(replaced.every((r) => r.id > maxOld), 'new ids, never reused');
  assert.deepEqual(kg.chunks('src/a.ts'), replaced);
  assert.match(kg.chunks('src/a.ts')[0]!.text, /v2/);
  assert.deepEqual(kg.entities('src/a.ts'), second.entities);
  assert.deepEqual(kg.relations('src/a.ts'), second.relations);
  const file = kg.getFile('src/a.ts')!;
  assert.equal(file.summary, undefined);
  assert.equal(file.state, 'metadata');
  assert.equal(file.note, second.file.note);
  assert.deepEqual(file.range, { startLine: 3, endLine: 10 });
  assert.equal(file.chunkCount, 2);
  // src/b.ts is untouched.
  assert.equal(kg.chunks('src/b.ts').length, 3);
  assert.deepEqual(kg.entities('src/b.ts'), parserWrite('src/b.ts', 1).entities);
  assert.equal(kg.relations('src/b.ts').length, 2);

  // A file indexed with metadata only has no chunks at all.
  kg.putFile({ ...parserWrite('src/a.ts', 3), chunks: [], entities: [], relations: [] });
  assert.equal(kg.getFile('src/a.ts')?.chunkCount, 0);
  assert.deepEqual(kg.chunks('src/a.ts'), []);
});

test('chunk ids are the same after journal replay (kill -9), after a fold, and keep growing after reopening', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await open(file);
  const kg = store.knowledgeFor(WS);
  kg.putFile(parserWrite('src/a.ts'));
  kg.putFile(readmeWrite());
  kg.putFile(parserWrite('src/a.ts', 2)); // replaced: ids 1–3 are gone, 5–7 are new
  const expected = kg.chunks();
  const expectedFiles = kg.listFiles();
  const expectedRevision = kg.revision;
  // The journal holds the changes; the file does not yet.
  assert.ok(readFileSync(journalPathFor(file), 'utf8').includes('kg_chunks'));
  const crashed = snapshot(t, file);
  await store.flush();
  const folded = snapshot(t, file);
  await store.close();

  for (const [label, copy] of [
    ['journal replay', crashed],
    ['folded file', folded],
    ['closed file', file],
  ] as const) {
    const reopened = await open(copy);
    try {
      assert.deepEqual(reopened.notices, [], label);
      assert.deepEqual(reopened.knowledgeFor(WS).chunks(), expected, label);
      assert.deepEqual(reopened.knowledgeFor(WS).listFiles(), expectedFiles, label);
      assert.equal(reopened.knowledgeFor(WS).revision, expectedRevision, label);
      // The next id continues after the highest ever handed out, also when the newest chunks were deleted.
      reopened.knowledgeFor(WS).removeFile('src/a.ts');
      const next = reopened.knowledgeFor(WS).putFile(parserWrite('src/c.ts'));
      assert.deepEqual(next.map((c) => c.id), [8, 9, 10], label);
    } finally {
      await reopened.close();
    }
  }
  assert.deepEqual(expected.map((c) => c.id), [4, 5, 6, 7]);
});

test('a schema-4 database upgrades to the knowledge tables and keeps its sessions and vectors', async (t) => {
  const file = path.join(tempDir(t), 'old.db');
  const SQL = await loadSqlJs();
  const old = new SQL.Database();
  migrate(old, SESSION_MIGRATIONS.slice(0, 4));
  assert.equal(readUserVersion(old), 4);
  old.run("INSERT INTO sessions (id, title, model, provider, created_at, updated_at) VALUES ('s', 'From v4', 'm', 'p', 1, 1)");
  old.run("INSERT INTO embeddings (model, hash, dims, vector, created_at) VALUES ('m', 'h', 1, x'0000803f', 1)");
  writeFileSync(file, old.export());
  old.close();

  const store = await open(file);
  try {
    assert.deepEqual(store.notices, []);
    assert.equal((await store.getSession('s'))?.title, 'From v4');
    assert.deepEqual([...((await store.vectors.get('m', ['h'])).get('h') ?? [])], [1]);
    assert.deepEqual(store.knowledgeFor(WS).listFiles(), []);
    assert.equal(store.knowledgeFor(WS).revision, 0);
    store.knowledgeFor(WS).putFile(parserWrite());
  } finally {
    await store.close();
  }
  const upgraded = new SQL.Database(readFileSync(file));
  assert.equal(readUserVersion(upgraded), latestVersion(SESSION_MIGRATIONS));
  assert.ok(latestVersion(SESSION_MIGRATIONS) >= 5);
  upgraded.close();
  assert.deepEqual(await rawRows(file, 'SELECT COUNT(*) FROM kg_chunks'), [[3]]);
});

test('a damaged journal line: the knowledge writes before it are recovered, the journal is kept aside', async (t) => {
  const live = path.join(tempDir(t), 'sessions.db');
  const store = await open(live);
  store.knowledgeFor(WS).putFile(parserWrite('src/a.ts'));
  store.knowledgeFor(WS).putFile(readmeWrite());
  store.knowledgeFor(WS).putFile(parserWrite('src/b.ts'));
  const copy = snapshot(t, live);
  await store.close();

  const journal = journalPathFor(copy);
  const lines = readFileSync(journal, 'utf8').split('\n');
  assert.equal(lines.filter(Boolean).length, 3, 'one journal line per putFile');
  lines[1] = lines[1]!.slice(0, 40) + ' garbage'; // damage README.md's write
  writeFileSync(journal, lines.join('\n'));

  const heard: StoreNotice[] = [];
  const recovered = await open(copy, { heard });
  try {
    assert.deepEqual(heard.map((n) => n.kind), ['journal-moved-aside']);
    assert.match(heard[0]!.message, /damaged at line 2/);
    assert.match(heard[0]!.message, /1 change\(s\) before it were recovered/);
    assert.deepEqual(recovered.knowledgeFor(WS).listFiles().map((f) => f.path), ['src/a.ts']);
    assert.deepEqual(recovered.knowledgeFor(WS).chunks().map((c) => c.id), [1, 2, 3]);
    // Writing goes on from there.
    assert.deepEqual(recovered.knowledgeFor(WS).putFile(readmeWrite()).map((c) => c.id), [4]);
  } finally {
    await recovered.close();
  }
});

test('a read-only store sees the index (and its revision) and refuses to change it', async (t) => {
  const file = path.join(storeDir(t), 'sessions.db');
  const writer = await open(file);
  writer.knowledgeFor(WS).putFile(parserWrite());
  writer.knowledgeFor(WS).putFile(readmeWrite());
  const revision = writer.knowledgeFor(WS).revision;
  // The writer is still open (and holds the lock); the reader sees file + journal.
  const reader = await SessionStore.open(file, { readOnly: true });
  closeLater(t, reader);
  try {
    assert.deepEqual(reader.knowledgeFor(WS).listFiles(), writer.knowledgeFor(WS).listFiles());
    assert.deepEqual(reader.knowledgeFor(WS).chunks(), writer.knowledgeFor(WS).chunks());
    assert.equal(reader.knowledgeFor(WS).revision, revision);
    assert.throws(() => reader.knowledgeFor(WS).putFile(parserWrite('src/new.ts')), isCode('read-only'));
    assert.throws(() => reader.knowledgeFor(WS).removeFile('README.md'), isCode('read-only'));
    assert.equal(reader.knowledgeFor(WS).removeFile('not/indexed.ts'), false);
    assert.equal(reader.knowledgeFor(WS).getFile('src/new.ts'), undefined);
    assert.equal(reader.knowledgeFor(WS).revision, revision);
  } finally {
    await writer.close();
  }
});

test('bad input is refused with a clear message and nothing is written', async (t) => {
  const store = await open(path.join(storeDir(t), 'sessions.db'));
  closeLater(t, store);
  const kg = store.knowledgeFor(WS);
  kg.putFile(readmeWrite());
  const revision = kg.revision;
  const chunksBefore = kg.chunks();

  const cases: Array<[string, (w: KnowledgeWrite) => void, RegExp]> = [
    ['absolute path', (w) => (w.file.path = '/home/me/a.ts'), /relative to the workspace/],
    ['windows path', (w) => (w.file.path = 'C:/work/a.ts'), /relative to the workspace/],
    ['backslashes', (w) => (w.file.path = 'src\\a.ts'), /'\/' separators/],
    ['parent dir', (w) => (w.file.path = 'src/../../etc/passwd'), /inside the workspace/],
    ['dot segment', (w) => (w.file.path = './src/a.ts'), /'\.' segment/],
    ['empty path', (w) => (w.file.path = ''), /non-empty/],
    ['unknown mode', (w) => ((w.file as { mode: string }).mode = 'everything'), /mode must be one of full, embed, metadata/],
    ['unknown state', (w) => ((w.file as { state: string }).state = 'done'), /state must be one of/],
    ['empty hash', (w) => (w.file.hash = ''), /hash cannot be empty/],
    ['negative lines', (w) => (w.file.lines = -1), /lines must be a whole number ≥ 0/],
    ['range backwards', (w) => (w.file.range = { startLine: 9, endLine: 3 }), /range ends before it starts \(lines 9–3\)/],
    ['line zero', (w) => (w.chunks[1]!.startLine = 0), /chunk 2 startLine must be a whole number ≥ 1 \(got 0\)/],
    ['fractional line', (w) => (w.chunks[1]!.endLine = 5.5), /chunk 2 endLine must be a whole number/],
    ['string line', (w) => ((w.chunks[0] as { startLine: unknown }).startLine = '1'), /chunk 1 startLine must be a whole number/],
    ['chunk backwards', (w) => (w.chunks[2]!.endLine = 7), /chunk 3 ends before it starts \(lines 8–7\)/],
    ['unknown chunk kind', (w) => ((w.chunks[0] as { kind: string }).kind = 'paragraph'), /chunk 1 kind must be one of/],
    ['chunk text missing', (w) => delete (w.chunks[0] as { text?: string }).text, /chunk 1 text must be a string/],
    ['chunk hash missing', (w) => (w.chunks[0]!.hash = ''), /chunk 1 hash cannot be empty/],
    ['entity of another file', (w) => (w.entities[0]!.file = 'src/elsewhere.ts'), /entity 1 belongs to "src\/elsewhere.ts"/],
    ['entity without a line', (w) => ((w.entities[1] as { line?: number }).line = undefined), /entity 2 line must be a whole number/],
    ['unknown relation kind', (w) => ((w.relations[0] as { kind: string }).kind = 'likes'), /relation 1 kind must be one of calls, imports/],
    ['relation without target', (w) => (w.relations[1]!.to = ''), /relation 2 to cannot be empty/],
    ['chunks not a list', (w) => ((w as { chunks: unknown }).chunks = { length: 1 }), /"chunks" must be a list/],
  ];
  for (const [label, spoil, message] of cases) {
    const write = parserWrite('src/a.ts');
    spoil(write);
    assert.throws(
      () => kg.putFile(write),
      (e: unknown) => isCode('invalid-input')(e) && message.test((e as Error).message),
      label,
    );
  }
  assert.throws(() => kg.putFile(null as never), isCode('invalid-input'));
  assert.throws(() => kg.getFile(42 as never), isCode('invalid-input'));
  assert.equal(kg.revision, revision, 'no change was made');
  assert.deepEqual(kg.listFiles().map((f) => f.path), ['README.md']);
  assert.deepEqual(kg.chunks(), chunksBefore);
  assert.deepEqual(kg.entities(), []);
});

test('a 2,000-chunk file is written in one transaction and read back whole', async (t) => {
  const file = path.join(storeDir(t), 'sessions.db');
  const store = await open(file);
  const kinds: ChunkKind[] = ['function', 'class', 'method', 'block'];
  const chunks = Array.from({ length: 2000 }, (_, i) => {
    const text = `export function handler${i}(input: Request): Response {\n  // ${'x'.repeat(i % 50)}\n  return route(${i}, input);\n}`;
    return { startLine: i * 5 + 1, endLine: i * 5 + 4, kind: kinds[i % 4]!, name: `handler${i}`, text, hash: sha(text), summary: `Handles route ${i}.` };
  });
  const path_ = 'src/generated/routes.ts';
  const write: KnowledgeWrite = {
    file: { path: path_, hash: sha('routes'), mode: 'full', state: 'indexed', language: 'typescript', lines: 10_000, bytes: 500_000, embedModel: 'm' },
    chunks,
    entities: chunks.map((c) => ({ name: c.name, kind: 'function', file: path_, line: c.startLine })),
    relations: chunks.slice(1).map((c, i) => ({ from: c.name, kind: 'calls' as const, to: `handler${i}`, file: path_, line: c.startLine + 2 })),
  };

  const started = performance.now();
  const records = store.knowledgeFor(WS).putFile(write);
  const wrote = performance.now();
  const back = store.knowledgeFor(WS).chunks(path_);
  const read = performance.now();
  t.diagnostic(`2,000 chunks: write ${(wrote - started).toFixed(0)} ms, read ${(read - wrote).toFixed(0)} ms`);

  assert.equal(records.length, 2000);
  assert.deepEqual(back, records);
  assert.equal(store.knowledgeFor(WS).getFile(path_)?.chunkCount, 2000);
  assert.equal(store.knowledgeFor(WS).entities(path_).length, 2000);
  assert.equal(store.knowledgeFor(WS).relations(path_).length, 1999);
  assert.equal(readFileSync(journalPathFor(file), 'utf8').trim().split('\n').length, 1, 'one journal line');
  await store.close();

  const reopened = await open(file);
  closeLater(t, reopened);
  assert.deepEqual(reopened.knowledgeFor(WS).chunks(path_), records);
});

test('two workspaces in one database keep their own files, chunks, entities and relations, also after replay', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await open(file);
  const a = store.knowledgeFor(WS);
  const b = store.knowledgeFor(WS_B);
  assert.notEqual(a, b);

  // The same relative path in both, with different content.
  const aWrite = parserWrite('src/index.ts', 1);
  const bWrite = parserWrite('src/index.ts', 2);
  const aChunks = a.putFile(aWrite);
  a.putFile(readmeWrite());
  const revision = a.revision;
  const bChunks = b.putFile(bWrite);
  assert.ok(b.revision > revision && a.revision === b.revision, 'one revision for the database, grown by either workspace');

  const ids = [...a.chunks(), ...b.chunks()].map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'chunk ids are unique across workspaces');
  assert.deepEqual(a.listFiles().map((f) => [f.path, f.hash, f.chunkCount]), [
    ['README.md', readmeWrite().file.hash, 1],
    ['src/index.ts', aWrite.file.hash, 3],
  ]);
  assert.deepEqual(b.listFiles().map((f) => [f.path, f.hash, f.chunkCount]), [['src/index.ts', bWrite.file.hash, 3]]);
  assert.equal(b.getFile('README.md'), undefined);
  assert.deepEqual(a.chunks('src/index.ts'), aChunks);
  assert.deepEqual(b.chunks(), bChunks);
  assert.match(b.chunks('src/index.ts')[1]!.text, /v2/);
  assert.deepEqual(a.entities(), aWrite.entities);
  assert.deepEqual(b.entities('src/index.ts'), bWrite.entities);
  assert.deepEqual(a.relations('src/index.ts'), aWrite.relations);
  assert.deepEqual(b.relations(), bWrite.relations);

  // Re-putting the file in B replaces B's rows only.
  const bAgain = b.putFile(parserWrite('src/index.ts', 3));
  assert.deepEqual(a.chunks('src/index.ts'), aChunks);
  assert.deepEqual(a.entities('src/index.ts'), aWrite.entities);
  assert.deepEqual(b.chunks(), bAgain);
  assert.equal(b.entities().length, 3);

  // Removing in one leaves the other alone; a file only the other has is not there to remove.
  assert.equal(b.removeFile('README.md'), false);
  assert.equal(a.getFile('README.md')?.chunkCount, 1);
  assert.equal(a.removeFile('src/index.ts'), true);
  assert.equal(a.getFile('src/index.ts'), undefined);
  assert.deepEqual(a.chunks().map((c) => c.file), ['README.md']);
  assert.deepEqual(a.entities(), []);
  assert.deepEqual(a.relations(), []);
  assert.deepEqual(b.chunks('src/index.ts'), bAgain);
  assert.equal(b.getFile('src/index.ts')?.hash, parserWrite('src/index.ts', 3).file.hash);
  assert.equal(b.relations('src/index.ts').length, 2);

  const expected = {
    a: { files: a.listFiles(), chunks: a.chunks(), entities: a.entities(), relations: a.relations() },
    b: { files: b.listFiles(), chunks: b.chunks(), entities: b.entities(), relations: b.relations() },
  };
  const crashed = snapshot(t, file);
  await store.close();
  assert.deepEqual(await rawRows(file, 'SELECT workspace, path FROM kg_files ORDER BY workspace, path'), [
    [WS, 'README.md'],
    [WS_B, 'src/index.ts'],
  ]);

  for (const [label, copy] of [
    ['journal replay', crashed],
    ['closed file', file],
  ] as const) {
    const reopened = await open(copy);
    try {
      assert.deepEqual(reopened.notices, [], label);
      for (const [root, want] of [
        [WS, expected.a],
        [WS_B, expected.b],
      ] as const) {
        const kg = reopened.knowledgeFor(root);
        assert.deepEqual(
          { files: kg.listFiles(), chunks: kg.chunks(), entities: kg.entities(), relations: kg.relations() },
          want,
          `${label}: ${root}`,
        );
      }
      assert.deepEqual(reopened.knowledgeFor(path.resolve(tmpdir(), 'lh-workspace-c')).listFiles(), [], `${label}: a third workspace is empty`);
    } finally {
      await reopened.close();
    }
  }
});

test('a knowledge store needs an absolute workspace root', async (t) => {
  const store = await open(path.join(storeDir(t), 'sessions.db'));
  closeLater(t, store);
  for (const [root, message] of [
    ['', /non-empty absolute path/],
    ['   ', /non-empty absolute path/],
    ['relative/ws', /"relative\/ws" must be an absolute path/],
    ['.', /must be an absolute path/],
    [42, /non-empty absolute path/],
    [undefined, /non-empty absolute path/],
  ] as const) {
    assert.throws(
      () => store.knowledgeFor(root as string),
      (e: unknown) => isCode('invalid-input')(e) && message.test((e as Error).message),
      String(root),
    );
  }
});
