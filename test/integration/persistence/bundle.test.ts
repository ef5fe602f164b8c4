// The shipped extension is an esbuild bundle with sql-wasm.wasm copied beside it and no node_modules.
// Build a small bundle the same way and run it from a directory where sql.js cannot be resolved.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as esbuild from 'esbuild';
import { resolveWasmPath } from '../../../src/persistence/sqlJsLoader';
import { tempDir } from './helpers';

const STORE = path.resolve(__dirname, '../../../src/persistence/sessionStore.ts');

test('a bundled store finds sql-wasm.wasm next to the bundle, and says where it looked when it is missing', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const entry = path.join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `import { SessionStore } from ${JSON.stringify(STORE)};
     (async () => {
       const store = await SessionStore.open(process.argv[2]!);
       const s = await store.createSession({ title: 'bundled', model: 'm', provider: 'p' });
       await store.appendMessage(s.id, { role: 'user', content: 'hi' });
       console.log(JSON.stringify(await store.listSessions()));
       await store.close();
     })().catch((err) => { console.error(err.message); process.exit(3); });`,
  );
  const dist = path.join(dir, 'dist');
  mkdirSync(dist);
  await esbuild.build({ entryPoints: [entry], outfile: path.join(dist, 'app.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });

  const run = () => spawnSync(process.execPath, [path.join(dist, 'app.js'), path.join(dir, 'data', 'sessions.db')], { cwd: dir, encoding: 'utf8' });

  const missing = run();
  assert.equal(missing.status, 3, missing.stderr);
  assert.match(missing.stderr, /sql-wasm\.wasm\) not found; looked in: .*dist.sql-wasm\.wasm/);

  copyFileSync(resolveWasmPath(), path.join(dist, 'sql-wasm.wasm'));
  const ok = run();
  assert.equal(ok.status, 0, ok.stderr);
  const sessions = JSON.parse(ok.stdout) as Array<{ title: string; messageCount: number }>;
  assert.deepEqual(sessions.map((s) => [s.title, s.messageCount]), [['bundled', 1]]);
});
