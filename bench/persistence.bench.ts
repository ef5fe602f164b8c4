// How much does saving one message cost as the database grows? Builds databases holding 100, 10,000
// and 100,000 messages, then times appendMessage (durable: journal write + fsync) into each.
// Targets: median < 2 ms, and the 100,000 / 100 ratio < 1.5 (saving must not grow with the database).
// Run: node --import tsx bench/persistence.bench.ts [--saves 200] [--strict]
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FsyncTimingJournalFs } from '../test/helpers/persistence/realJournalFs';
import { migrate } from '../src/persistence/migrations';
import { SESSION_MIGRATIONS } from '../src/persistence/schema';
import { SessionStore } from '../src/persistence/sessionStore';
import { loadSqlJs } from '../src/persistence/sqlJsLoader';

const SIZES = [100, 10_000, 100_000];
const args = process.argv.slice(2);
const SAVES = Number(args[args.indexOf('--saves') + 1]) || 200;
const WARMUP = 20;
const STRICT = args.includes('--strict');
const SESSION = 'bench-session';
const TEXT = 'The function parses the config, validates it against the schema and returns the typed result. ';

/** A database file holding `count` messages, built in one transaction and exported once. */
async function buildDatabase(file: string, count: number): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  migrate(db, SESSION_MIGRATIONS);
  db.run('BEGIN');
  db.run("INSERT INTO sessions (id, title, model, provider, created_at, updated_at) VALUES (?, 'Bench', 'm', 'p', 0, 0)", [SESSION]);
  const insert = db.prepare(
    'INSERT INTO messages (id, session_id, seq, role, content, prompt_tokens, completion_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (let i = 1; i <= count; i++) {
    insert.run([i, SESSION, i, i % 2 ? 'user' : 'assistant', `${i}: ${TEXT.repeat(1 + (i % 4))}`, 100 + i, 20, i]);
  }
  insert.free();
  db.run('COMMIT');
  // fsync here, or the first saves' fsyncs would pay for flushing this file (ext4 commits dirty data with the journal).
  const fd = openSync(file, 'w');
  writeSync(fd, db.export());
  fsyncSync(fd);
  closeSync(fd);
  db.close();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

interface Row {
  size: number;
  fileMb: number;
  openMs: number;
  medianMs: number;
  p95Ms: number;
  /** Median save time without its fsync: the cost that depends on us, not on the disk. */
  medianCpuMs: number;
  foldMs: number;
}

interface Subject {
  size: number;
  file: string;
  store: SessionStore;
  disk: FsyncTimingJournalFs;
  openMs: number;
  times: number[];
  cpuTimes: number[];
}

async function openSubject(dir: string, size: number): Promise<Subject> {
  const file = path.join(dir, `sessions-${size}.db`);
  await buildDatabase(file, size);
  const disk = new FsyncTimingJournalFs();
  const start = performance.now();
  // No idle fold during the run: we time saves, and report the fold on its own below.
  const store = await SessionStore.open(file, { foldIdleMs: 0, journalFs: disk });
  return { size, file, store, disk, openMs: performance.now() - start, times: [], cpuTimes: [] };
}

async function save(subject: Subject, i: number, record: boolean): Promise<void> {
  const syncBefore = subject.disk.syncMs;
  const start = performance.now();
  await subject.store.appendMessage(SESSION, { role: 'assistant', content: `save ${i}: ${TEXT}`, tokens: { prompt: 1000, completion: 50 } });
  const elapsed = performance.now() - start;
  if (!record) return;
  subject.times.push(elapsed);
  subject.cpuTimes.push(elapsed - (subject.disk.syncMs - syncBefore));
}

async function finish(subject: Subject): Promise<Row> {
  const fileMb = statSync(subject.file).size / 1024 / 1024;
  const foldStart = performance.now();
  await subject.store.flush();
  const foldMs = performance.now() - foldStart;
  await subject.store.close();
  const times = [...subject.times].sort((a, b) => a - b);
  const cpu = [...subject.cpuTimes].sort((a, b) => a - b);
  return {
    size: subject.size,
    fileMb,
    openMs: subject.openMs,
    medianMs: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    medianCpuMs: percentile(cpu, 0.5),
    foldMs,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-bench-persist-'));
  const started = performance.now();
  try {
    const subjects: Subject[] = [];
    for (const size of SIZES) subjects.push(await openSubject(dir, size));
    // Round-robin, so a noisy neighbour on the machine slows every size alike and the ratio stays fair.
    for (let i = 0; i < WARMUP + SAVES; i++) for (const subject of subjects) await save(subject, i, i >= WARMUP);
    const rows: Row[] = [];
    for (const subject of subjects) rows.push(await finish(subject));
    const fmt = (n: number, digits = 3) => n.toFixed(digits).padStart(9);
    console.log(`\nSave one message (appendMessage, durable), ${SAVES} saves per size after ${WARMUP} warm-up, interleaved:\n`);
    console.log('  messages   file MB    open ms  median ms     p95 ms  no-fsync ms    fold ms');
    for (const r of rows) {
      console.log(
        `${String(r.size).padStart(10)} ${fmt(r.fileMb, 1)} ${fmt(r.openMs, 1)} ${fmt(r.medianMs)} ${fmt(r.p95Ms)}    ${fmt(r.medianCpuMs)} ${fmt(r.foldMs, 1)}`,
      );
    }
    const small = rows[0]!;
    const large = rows[rows.length - 1]!;
    const ratio = large.medianMs / small.medianMs;
    const worstMedian = Math.max(...rows.map((r) => r.medianMs));
    const ok = ratio < 1.5 && worstMedian < 2;
    console.log(`\nratio median ${large.size}/${small.size}: ${ratio.toFixed(2)} (target < 1.5)`);
    console.log(`worst median: ${worstMedian.toFixed(3)} ms (target < 2 ms)`);
    const cpuRatio = large.medianCpuMs / small.medianCpuMs;
    console.log(`without the fsync: ratio ${cpuRatio.toFixed(2)}, worst median ${Math.max(...rows.map((r) => r.medianCpuMs)).toFixed(3)} ms (fsync time is the disk's)`);
    console.log(`fold = export + write temp + fsync + rename; it runs in the background once the journal reaches 25% of the file.`);
    console.log(`${ok ? 'PASS' : 'MISS'} (total ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    if (STRICT && !ok) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
