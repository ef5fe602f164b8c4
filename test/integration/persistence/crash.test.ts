// kill -9 in the middle of writing: a child process appends messages and reports each durable one;
// we SIGKILL it, reopen the database and check that every acknowledged message is there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { loadSqlJs } from '../../../src/persistence/sqlJsLoader';
import { tempDir } from './helpers';

const CHILD = path.join(__dirname, 'fixtures', 'crashChild.ts');

interface ChildRun {
  sessionId: string;
  /** n → message id, for every append the child reported as done. */
  acked: Map<number, number>;
}

/** Runs the child until it has acknowledged `killAfter` new messages, then SIGKILLs it. */
function runAndKill(file: string, killAfter: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const run: ChildRun = { sessionId: '', acked: new Map() };
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [kind, a, b] = line.split(' ');
      if (kind === 'session') run.sessionId = a!;
      if (kind === 'ack') {
        run.acked.set(Number(b), Number(a));
        if (run.acked.size >= killAfter && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(run);
      else reject(new Error(`child exited on its own (code ${code}): ${stderr}`));
    });
  });
}

async function checkFileIsValid(file: string): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    assert.equal(db.exec('PRAGMA integrity_check')[0]?.values[0]?.[0], 'ok');
  } finally {
    db.close();
  }
}

test('after kill -9 every acknowledged message is still there and the database file is valid', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'sessions.db');
  const acked = new Map<number, number>();
  let sessionId = '';
  // Several kills at different points, each run continuing the same conversation.
  for (const killAfter of [40, 173, 97]) {
    const run = await runAndKill(file, killAfter);
    sessionId ||= run.sessionId;
    assert.equal(run.sessionId, sessionId);
    for (const [n, id] of run.acked) acked.set(n, id);
    await checkFileIsValid(file);

    const store = await SessionStore.open(file, { foldIdleMs: 0 });
    try {
      // Torn tails are expected after a kill; anything worse is not.
      assert.deepEqual(store.notices.filter((n) => n.kind !== 'journal-torn-tail' && n.kind !== 'sessions-interrupted'), []);
      assert.deepEqual(store.interruptedOnOpen.map((s) => s.id), [sessionId], 'the killed turn shows as interrupted');
      const messages = await store.loadMessages(sessionId);
      const byN = new Map(messages.map((m) => [Number(m.content.split(' ')[1]), m]));
      for (const [n, id] of acked) {
        const message = byN.get(n);
        assert.ok(message, `acknowledged message ${n} is missing`);
        assert.equal(message.id, id);
      }
      // Nothing beyond the acknowledged ones except, at most, the one in flight; and no gaps or doubles.
      const ns = messages.map((m) => Number(m.content.split(' ')[1]));
      assert.deepEqual(ns, ns.map((_, i) => i + 1));
      assert.ok(ns.length - acked.size <= 1, `${ns.length} stored, ${acked.size} acknowledged`);
      for (const n of ns) if (!acked.has(n)) acked.set(n, byN.get(n)!.id);
    } finally {
      await store.close();
    }
  }
  assert.ok(acked.size >= 310);
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('corrupt') || f.includes('.tmp')), []);
});
