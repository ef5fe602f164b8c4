// Harness overhead: our CLI vs. a minimal agent loop (bench/minimal-loop.mjs) doing the same 12-request file task
// against a near-zero-latency scripted server. Runs alternate A/B in one process; whole processes are timed.
// Added time-to-first-token: the scripted server answers each request in the tick it arrives, so the time between
// two requests reaching it is the client's own work for one round (read the stream, run the tool, persist, build
// and send the next request). The same gap in the minimal loop, in the same run, is the baseline; the difference
// is what we add before every follow-up request's first token. Startup (spawn → first request) is reported apart.
// Run: npm run build && node --import tsx bench/overhead.bench.ts [iterations]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAIServer, type ChatBody, type ScriptedReply } from '../test/helpers/fakeLlm';

const FILES = 5;
const iterations = Number(process.argv[2] ?? 15);
const root = path.resolve(__dirname, '..');

/** Stateless script: the step is the number of tool results the request already carries. */
function reply(request: ChatBody): ScriptedReply {
  const step = (request.messages ?? []).filter((m) => m.role === 'tool').length;
  if (step === 0) return { toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] };
  if (step <= FILES) return { toolCalls: [{ name: 'read_file', arguments: { path: `file${step}.txt` } }] };
  if (step <= FILES * 2) {
    const n = step - FILES;
    return { toolCalls: [{ name: 'move_file', arguments: { source: `file${n}.txt`, destination: `done-${n}.txt` } }] };
  }
  // Our CLI offers task_completion (and reminds a model that forgets it); the minimal loop ends on plain text.
  const done = `Renamed all ${FILES} files.`;
  const tools = (request.tools as Array<{ function?: { name?: string } }> | undefined) ?? [];
  if (tools.some((t) => t.function?.name === 'task_completion')) {
    return { toolCalls: [{ name: 'task_completion', arguments: { result: done } }], usage: { prompt: 500, completion: 8 } };
  }
  return { text: done, usage: { prompt: 500, completion: 8 } };
}

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-bench-'));
  for (let i = 1; i <= FILES; i++) writeFileSync(path.join(dir, `file${i}.txt`), `File number ${i}\n`.repeat(40));
  return dir;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;
/** Arrival times (ms, this process's clock) of the chat requests of the run in progress. */
let arrivals: number[] = [];

interface Timing {
  total: number;
  /** Spawn → first chat request reaching the server. */
  startup: number;
  /** Mean time between consecutive chat requests reaching the server. */
  round: number;
  /** Last chat request → process exit. */
  teardown: number;
}

// Async spawn: the scripted server lives in this process and must keep answering while the child runs.
async function timeRun(cmd: string[], ws: string): Promise<Timing> {
  arrivals = [];
  const start = now();
  const res = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, cmd, { cwd: ws, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  const end = now();
  const renamed = readdirSync(ws).filter((n) => n.startsWith('done-')).length;
  if (res.status !== 0 || renamed !== FILES) {
    throw new Error(`run failed (exit ${res.status}, ${renamed}/${FILES} renamed): ${res.stderr}\n${res.stdout.slice(-500)}`);
  }
  const first = arrivals[0]!;
  const last = arrivals[arrivals.length - 1]!;
  return { total: end - start, startup: first - start, round: (last - first) / (arrivals.length - 1), teardown: end - last };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  const server = await startFakeOpenAIServer(
    (request) => {
      arrivals.push(now());
      return reply(request);
    },
    { name: 'overhead bench' },
  );
  const task = 'Rename every fileN.txt to done-N.txt after reading it.';
  const ours = (ws: string) => [path.join(root, 'dist/cli.js'), 'run', '--provider', 'openai', '--base-url', server.url, '--model', 'bench', '--workspace', ws, '--approve', 'all', task];
  const minimal = (ws: string) => [path.join(root, 'bench/minimal-loop.mjs'), server.url, 'bench', ws, task];
  const a: Timing[] = [];
  const b: Timing[] = [];
  try {
    for (let i = -2; i < iterations; i++) {
      // Alternate which goes first so drift in machine load hits both equally.
      const order = i % 2 === 0 ? (['ours', 'minimal'] as const) : (['minimal', 'ours'] as const);
      for (const which of order) {
        const ws = workspace();
        const before = server.requests.length;
        const timing = await timeRun(which === 'ours' ? ours(ws) : minimal(ws), ws);
        const requests = server.requests.length - before;
        if (requests !== FILES * 2 + 2) throw new Error(`${which} made ${requests} requests, expected ${FILES * 2 + 2}`);
        rmSync(ws, { recursive: true, force: true });
        if (i >= 0) (which === 'ours' ? a : b).push(timing);
      }
    }
  } finally {
    await server.close();
  }
  const med = (xs: Timing[], key: keyof Timing) => median(xs.map((t) => t[key]));
  const line = (label: string, xs: Timing[]) =>
    `  ${label} median ${med(xs, 'total').toFixed(1)} ms  (min ${Math.min(...xs.map((t) => t.total)).toFixed(1)})` +
    `  startup ${med(xs, 'startup').toFixed(1)} ms, per round ${med(xs, 'round').toFixed(2)} ms, teardown ${med(xs, 'teardown').toFixed(1)} ms`;
  const ratio = med(a, 'total') / med(b, 'total');
  const addedTtft = med(a, 'round') - med(b, 'round');
  console.log(`harness overhead: ${FILES * 2 + 2} model requests per run, ${iterations} runs each, alternated (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  console.log(line('localharness CLI  ', a));
  console.log(line('minimal loop      ', b));
  console.log(`  ratio ours/minimal ${ratio.toFixed(2)}x  (target ≤ 1.10x)`);
  console.log(`  added time to first token per follow-up request ${addedTtft.toFixed(2)} ms  (target ≤ 5 ms)`);
  console.log(`  added startup before the first request ${(med(a, 'startup') - med(b, 'startup')).toFixed(1)} ms`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
