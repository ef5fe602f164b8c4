// A CLI whose reader goes away (`localharness sessions | head -1`) exits quietly: no EPIPE stack trace, exit 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SessionStore } from '../../../src/persistence/sessionStore';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

test('`sessions | head -1` on a long list: one line out, nothing on stderr, exit 0', async () => {
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'lh-pipe-')), 'sessions.db');
  const store = await SessionStore.open(db);
  try {
    // Far more than a pipe buffer (64 KiB) of listing, so the CLI is still writing when head exits.
    for (let i = 0; i < 1500; i++) await store.createSession({ title: `Session ${i} ${'x'.repeat(80)}`, model: 'qwen3:8b', provider: 'ollama' });
  } finally {
    await store.close();
  }
  const run = spawnSync('bash', ['-o', 'pipefail', '-c', `node "${CLI}" sessions --db "${db}" | head -1`], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.stdout.trim().split('\n').length, 1, run.stdout.slice(0, 500));
  assert.doesNotMatch(run.stderr, /EPIPE|Error/, run.stderr);
  assert.equal(run.status, 0, `exit ${run.status}: ${run.stderr}`);
});
