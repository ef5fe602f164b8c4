// Loading sql.js: not before it is needed, and from wherever its wasm file is.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PersistenceError } from '../../../src/persistence/errors';
import { loadSqlJs, resolveWasmPath, wasmCandidates } from '../../../src/persistence/sqlJsLoader';
// Importing the store must not load sql.js (the CLI pays for it only when it opens a database).
import '../../../src/persistence/sessionStore';

const sqlJsLoaded = () => Object.keys(require.cache).some((key) => key.includes(`${path.sep}sql.js${path.sep}`));

test('importing the store does not load sql.js; opening a database does', async () => {
  assert.equal(sqlJsLoaded(), false);
  await loadSqlJs();
  assert.equal(sqlJsLoaded(), true);
});

test('without an explicit path the wasm is found in node_modules/sql.js', () => {
  const found = resolveWasmPath();
  assert.equal(path.basename(found), 'sql-wasm.wasm');
  assert.ok(wasmCandidates().some((candidate) => candidate.endsWith(path.join('sql.js', 'dist', 'sql-wasm.wasm'))));
});

test('an explicit wasm path is used as given', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-wasm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const wasm = path.join(dir, 'sql-wasm.wasm');
  copyFileSync(resolveWasmPath(), wasm);
  assert.deepEqual(wasmCandidates(wasm), [wasm]);
  const SQL = await loadSqlJs(wasm);
  const db = new SQL.Database();
  assert.deepEqual(db.exec('SELECT 40 + 2 AS answer')[0]?.values, [[42]]);
  db.close();
});

test('a missing explicit wasm path is a clear error, and a later call can still succeed', async () => {
  const missing = path.join(tmpdir(), 'no-such-dir', 'sql-wasm.wasm');
  assert.throws(
    () => loadSqlJs(missing),
    (err: unknown) => err instanceof PersistenceError && err.code === 'io' && err.message === `sql.js WebAssembly file not found at ${missing}`,
  );
  assert.ok(await loadSqlJs());
});
