// The embedding vector cache on real sql.js files: exact bytes back, across a fold and reopen, from the
// journal after kill -9 (vectors travel as hex through the JSON journal), an upgrade from schema 3, and
// refusals that leave nothing behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { PersistenceError } from '../../../src/persistence/errors';
import { journalPathFor } from '../../../src/persistence/journaledDatabase';
import { latestVersion, migrate, readUserVersion } from '../../../src/persistence/migrations';
import { SESSION_MIGRATIONS } from '../../../src/persistence/schema';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { loadSqlJs } from '../../../src/persistence/sqlJsLoader';
import { SqlVectorCache, decodeVector, encodeVectorHex } from '../../../src/persistence/vectorCache';
import { testVector, TEST_DIMS } from './fixtures/vectorData';
import { ManualClock, tempDir } from './helpers';

const CHILD = path.join(__dirname, 'fixtures', 'vectorChild.ts');

function sameBytes(a: Float32Array | undefined, b: Float32Array, label: string): void {
  assert.ok(a, `${label}: missing`);
  assert.equal(Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)), 0, `${label}: bytes differ`);
}

async function rawRows(file: string): Promise<Array<{ model: string; hash: string; dims: number; kind: string; bytes: number }>> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    const result = db.exec('SELECT model, hash, dims, typeof(vector), length(vector) FROM embeddings ORDER BY model, hash')[0];
    return (result?.values ?? []).map(([model, hash, dims, kind, bytes]) => ({
      model: String(model),
      hash: String(hash),
      dims: Number(dims),
      kind: String(kind),
      bytes: Number(bytes),
    }));
  } finally {
    db.close();
  }
}

test('hex encoding round-trips every float32 bit pattern we store', () => {
  const v = testVector(3);
  const hex = encodeVectorHex(v);
  assert.equal(hex.length, TEST_DIMS * 8);
  sameBytes(decodeVector(Buffer.from(hex, 'hex'), TEST_DIMS), v, 'decoded');
  assert.equal(decodeVector(Buffer.from(hex, 'hex'), TEST_DIMS + 1), undefined, 'a length mismatch is no vector');
  assert.equal(decodeVector('not bytes', 1), undefined);
});

test('put and get: exact vectors per model and hash, missing hashes absent, stored as real BLOBs', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await SessionStore.open(file, { clock: new ManualClock(), foldIdleMs: 0 });
  const cache = store.vectors;
  await cache.put('nomic', [
    { hash: 'a', vector: testVector(1) },
    { hash: 'b', vector: testVector(2) },
  ]);
  await cache.put('other-model', [{ hash: 'a', vector: testVector(9, 8) }]);
  const got = await cache.get('nomic', ['a', 'b', 'zzz', 'a']);
  assert.deepEqual([...got.keys()].sort(), ['a', 'b']);
  sameBytes(got.get('a'), testVector(1), 'a');
  sameBytes(got.get('b'), testVector(2), 'b');
  sameBytes((await cache.get('other-model', ['a'])).get('a'), testVector(9, 8), 'other model');
  assert.equal((await cache.get('unknown', ['a'])).size, 0);
  assert.equal((cache as SqlVectorCache).count(), 3);
  assert.equal((cache as SqlVectorCache).count('nomic'), 2);

  // Replacing a vector keeps one row.
  await cache.put('nomic', [{ hash: 'a', vector: testVector(5) }]);
  sameBytes((await cache.get('nomic', ['a'])).get('a'), testVector(5), 'replaced');
  assert.equal((cache as SqlVectorCache).count('nomic'), 2);

  // The journal carries hex text (JSON cannot carry bytes); the file gets BLOBs.
  const journal = readFileSync(journalPathFor(file), 'utf8');
  assert.match(journal, /unhex\(\?\)/);
  assert.ok(journal.includes(encodeVectorHex(testVector(5))));
  await store.close();
  assert.deepEqual(
    (await rawRows(file)).map((r) => [r.model, r.hash, r.dims, r.kind, r.bytes]),
    [
      ['nomic', 'a', TEST_DIMS, 'blob', TEST_DIMS * 4],
      ['nomic', 'b', TEST_DIMS, 'blob', TEST_DIMS * 4],
      ['other-model', 'a', 8, 'blob', 32],
    ],
  );
});

test('vectors survive closing and reopening the store', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const first = await SessionStore.open(file, { foldIdleMs: 0 });
  const entries = Array.from({ length: 300 }, (_, i) => ({ hash: `h${i}`, vector: testVector(i) }));
  await first.vectors.put('m', entries); // more than one transaction's worth
  await first.close();
  const second = await SessionStore.open(file, { foldIdleMs: 0 });
  t.after(() => second.close());
  const got = await second.vectors.get('m', entries.map((e) => e.hash));
  assert.equal(got.size, 300);
  for (const e of entries) sameBytes(got.get(e.hash), e.vector, e.hash);
});

test('after kill -9 every acknowledged vector is back from the journal, byte for byte', { timeout: 60_000 }, async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const acked = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let last = -1;
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [kind, n] = line.split(' ');
      if (kind !== 'ack') return;
      last = Number(n);
      if (last === 60) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(last) : reject(new Error(`child exited on its own (${code}): ${stderr}`))));
  });
  assert.ok(acked >= 60);
  const store = await SessionStore.open(file, { foldIdleMs: 0 });
  t.after(() => store.close());
  assert.deepEqual(store.notices.filter((n) => n.kind !== 'journal-torn-tail'), []);
  const hashes = Array.from({ length: (acked + 1) * 4 }, (_, k) => `h${Math.floor(k / 4)}-${k % 4}`);
  const got = await store.vectors.get('child-model', hashes);
  assert.equal(got.size, hashes.length, 'every acknowledged vector');
  hashes.forEach((hash, k) => sameBytes(got.get(hash), testVector(k), hash));
});

test('a schema-3 database upgrades and gets the embeddings table', async (t) => {
  const file = path.join(tempDir(t), 'old.db');
  const SQL = await loadSqlJs();
  const old = new SQL.Database();
  migrate(old, SESSION_MIGRATIONS, 3);
  writeFileSync(file, old.export());
  old.close();
  const store = await SessionStore.open(file, { foldIdleMs: 0 });
  await store.vectors.put('m', [{ hash: 'x', vector: testVector(1) }]);
  await store.close();
  const db = new SQL.Database(readFileSync(file));
  assert.equal(readUserVersion(db), latestVersion(SESSION_MIGRATIONS));
  db.close();
  assert.equal((await rawRows(file)).length, 1);
});

test('bad vectors are refused and nothing of the batch is written', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = await SessionStore.open(file, { foldIdleMs: 0 });
  t.after(() => store.close());
  const bad = Float32Array.from([1, Number.NaN]);
  const cases: Array<[string, unknown[]]> = [
    ['', [{ hash: 'a', vector: testVector(1) }]],
    ['m', [{ hash: 'ok', vector: testVector(1) }, { hash: 'nan', vector: bad }]],
    ['m', [{ hash: 'empty', vector: new Float32Array(0) }]],
    ['m', [{ hash: 'array', vector: [1, 2, 3] }]],
    ['m', [{ hash: '', vector: testVector(1) }]],
  ];
  for (const [model, entries] of cases) {
    assert.throws(
      () => store.vectors.put(model, entries as never),
      (e: unknown) => e instanceof PersistenceError && e.code === 'invalid-input',
      JSON.stringify(entries.map((e) => (e as { hash: string }).hash)),
    );
  }
  assert.equal((store.vectors as SqlVectorCache).count(), 0);
});

test('a read-only store reads vectors and quietly keeps no new ones (it is only a cache)', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const writer = await SessionStore.open(file, { foldIdleMs: 0 });
  await writer.vectors.put('m', [{ hash: 'a', vector: testVector(1) }]);
  await writer.close();
  const reader = await SessionStore.open(file, { readOnly: true });
  t.after(() => reader.close());
  sameBytes((await reader.vectors.get('m', ['a'])).get('a'), testVector(1), 'a');
  await reader.vectors.put('m', [{ hash: 'b', vector: testVector(2) }]);
  assert.equal((await reader.vectors.get('m', ['b'])).size, 0);
});
