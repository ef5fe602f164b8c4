// What does checkpointing a turn cost? A turn edits 20 files of 50 KB through the checkpointing file system (each
// file's bytes before the edit and a hash of what it left go to the session database, durable before the edit
// returns); the same edits through the plain file system are the baseline. Also: how much the database grows per turn.
// Target: recording a turn's checkpoints < 50 ms (median) on a quiet machine. On a loaded one, wall times swell with
// the load, so the bench also prints each turn's recording against the same turn's plain writes (the ratio), and
// the CPU time the process spent (all threads: the file reads and writes run in libuv's pool).
// Run: node --import tsx bench/checkpoints.bench.ts [--turns 15] [--strict]
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheckpointingFileSystem } from '../src/core/checkpoints/checkpointingFileSystem';
import { NodeFileSystem } from '../src/node/nodeFileSystem';
import { FsyncTimingJournalFs } from '../test/helpers/persistence/realJournalFs';
import { startRecording } from '../src/persistence/sessionRecorder';
import { SessionStore } from '../src/persistence/sessionStore';

const args = process.argv.slice(2);
const TURNS = Number(args[args.indexOf('--turns') + 1]) || 15;
const STRICT = args.includes('--strict');
const FILES = 20;
const SIZE = 50 * 1024;
const TARGET_MS = 50;

const WORDS = ['config', 'parse', 'result', 'value', 'items', 'user', 'request', 'index', 'cache', 'token', 'render', 'schema', 'error', 'stream', 'count'];

/** 50 KB of source-like text that compresses about as much as real code does (not one repeated line). */
function content(file: number, turn: number): string {
  let seed = file * 7919 + turn * 104_729 + 1;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const word = () => WORDS[Math.floor(next() * WORDS.length)]!;
  let text = '';
  while (text.length < SIZE) {
    const indent = ' '.repeat(2 * Math.floor(next() * 4));
    text += `${indent}const ${word()}${Math.floor(next() * 1000)} = ${word()}.${word()}(${word()}, ${Math.floor(next() * 100_000)}); // ${word()} ${word()}\n`;
  }
  return text.slice(0, SIZE);
}

/** CPU milliseconds this process has used so far (user + system, every thread). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-bench-ckpt-'));
  try {
    const ws = path.join(dir, 'ws');
    mkdirSync(ws);
    const files = Array.from({ length: FILES }, (_, i) => path.join(ws, `file${i}.ts`));
    files.forEach((f, i) => writeFileSync(f, content(i, 0)));
    const dbFile = path.join(dir, 'sessions.db');
    // No background folds during the timed turns: the growth is measured at explicit flushes.
    const disk = new FsyncTimingJournalFs();
    const store = await SessionStore.open(dbFile, { foldIdleMs: 0, foldMinBytes: 1 << 30, journalFs: disk });
    const recorder = await startRecording(store, { meta: { title: 'bench', model: 'm', provider: 'ollama' }, warn: (m) => console.warn(m), checkpointLimitBytes: 1 << 30 });
    const node = new NodeFileSystem();
    const wrapped = new CheckpointingFileSystem(node, recorder.checkpoints);

    const plainMs: number[] = [];
    const checkpointedMs: number[] = [];
    const endTurnMs: number[] = [];
    const plainCpu: number[] = [];
    const recordingCpu: number[] = [];
    const syncMs: number[] = [];
    const syncs: number[] = [];
    const growth: number[] = [];
    const stored: number[] = [];
    await store.flush();
    let size = statSync(dbFile).size;
    for (let turn = 1; turn <= TURNS; turn++) {
      // Baseline: the same 20 writes without checkpoints.
      const texts = files.map((_, i) => [content(i, turn + 1000), content(i, turn)] as const);
      let start = performance.now();
      let cpu = cpuMs();
      for (let i = 0; i < FILES; i++) await node.writeFile(files[i]!, texts[i]![0]);
      plainMs.push(performance.now() - start);
      plainCpu.push(cpuMs() - cpu);

      await recorder.beginTurn();
      await recorder.onMessage({ role: 'user', content: `turn ${turn}: edit every file` });
      const [syncMsBefore, syncsBefore] = [disk.syncMs, disk.syncs];
      start = performance.now();
      cpu = cpuMs();
      for (let i = 0; i < FILES; i++) await wrapped.writeFile(files[i]!, texts[i]![1]);
      checkpointedMs.push(performance.now() - start);
      start = performance.now();
      await recorder.endTurn(); // the turn's result hashes in one transaction, and the size-bound check
      endTurnMs.push(performance.now() - start);
      recordingCpu.push(cpuMs() - cpu - plainCpu[plainCpu.length - 1]!);
      syncMs.push(disk.syncMs - syncMsBefore);
      syncs.push(disk.syncs - syncsBefore);
      await store.flush();
      const next = statSync(dbFile).size;
      growth.push(next - size);
      size = next;
      stored.push(store.checkpointHistory.storedBytes() - stored.reduce((a, b) => a + b, 0));
    }
    // run_command: the listing before and after a command that changes nothing, in a workspace of 500 files.
    for (let i = 0; i < 480; i++) writeFileSync(path.join(ws, `small${i}.ts`), content(i + 100, 0).slice(0, 2000));
    const commandMs: number[] = [];
    for (let i = 0; i < 11; i++) {
      const start = performance.now();
      await wrapped.checkpointCommand([ws], async () => undefined);
      commandMs.push(performance.now() - start);
    }
    await recorder.settle();
    await store.close();

    // Recording = the checkpointed writes minus the same writes without checkpoints, plus the end of the turn.
    const overhead = checkpointedMs.map((ms, i) => ms - plainMs[i]! + endTurnMs[i]!);
    const cpu = overhead.map((ms, i) => ms - syncMs[i]!);
    const ratio = overhead.map((ms, i) => ms / plainMs[i]!);
    const cpuRatio = recordingCpu.map((ms, i) => ms / plainCpu[i]!);
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    console.log(`checkpoints: ${TURNS} turns, each editing ${FILES} files of ${SIZE / 1024} KB (${kb(FILES * SIZE)} of edits per turn)`);
    console.log(`  20 writes, plain file system        median ${median(plainMs).toFixed(1)} ms`);
    console.log(`  20 writes, checkpointed              median ${median(checkpointedMs).toFixed(1)} ms`);
    console.log(`  recording the checkpoints (the difference)  median ${median(overhead).toFixed(1)} ms, max ${Math.max(...overhead).toFixed(1)} ms  (target < ${TARGET_MS} ms)`);
    // The journal's fsyncs run while the edit's own temp file syncs (NodeFileSystem.writeAfter), so the two lines below
    // overlap the plain writes: they no longer add up to the difference.
    console.log(`    the journal's fsyncs (overlapping the edits' own)  median ${median(syncMs).toFixed(1)} ms (${median(syncs)} fsyncs: one per file before its edit, one at the end of the turn)`);
    console.log(`    the difference minus those fsyncs    median ${median(cpu).toFixed(1)} ms`);
    console.log(`  recording / the same turn's plain writes  median ${median(ratio).toFixed(2)}× wall time, ${median(cpuRatio).toFixed(2)}× CPU time`);
    console.log(`  CPU time, all threads: plain writes median ${median(plainCpu).toFixed(1)} ms, recording median ${median(recordingCpu).toFixed(1)} ms`);
    console.log(`  end of turn (results, size bound)    median ${median(endTurnMs).toFixed(1)} ms`);
    console.log(`  database growth per turn             median ${kb(median(growth))} (file ${kb(size)} after ${TURNS} turns; the checkpoints' compressed bytes ${kb(median(stored))} of it)`);
    console.log(`  run_command around a no-op command, 500 files: first ${commandMs[0]!.toFixed(1)} ms (reads them), then median ${median(commandMs.slice(1)).toFixed(1)} ms`);
    if (STRICT && median(cpu) >= TARGET_MS) {
      console.error(`checkpoints: recording took ${median(overhead).toFixed(1)} ms per turn, over the ${TARGET_MS} ms target`);
      process.exit(1);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
