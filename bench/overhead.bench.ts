// Harness overhead: our CLI vs. a minimal agent loop (bench/minimal-loop.mjs) doing the same 12-request file task
// against a near-zero-latency scripted server. Runs alternate A/B in one process; whole processes are timed.
// Run: npm run build && node --import tsx bench/overhead.bench.ts [iterations]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

// Async spawn: the scripted server lives in this process and must keep answering while the child runs.
async function timeRun(cmd: string[], ws: string): Promise<number> {
  const start = process.hrtime.bigint();
  const res = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, cmd, { cwd: ws, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const renamed = readdirSync(ws).filter((n) => n.startsWith('done-')).length;
  if (res.status !== 0 || renamed !== FILES) {
    throw new Error(`run failed (exit ${res.status}, ${renamed}/${FILES} renamed): ${res.stderr}\n${res.stdout.slice(-500)}`);
  }
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  const server = await startFakeOpenAIServer((request) => reply(request), { name: 'overhead bench' });
  const task = 'Rename every fileN.txt to done-N.txt after reading it.';
  const ours = (ws: string) => [path.join(root, 'dist/cli.js'), 'run', '--provider', 'openai', '--base-url', server.url, '--model', 'bench', '--workspace', ws, '--approve', 'all', task];
  const minimal = (ws: string) => [path.join(root, 'bench/minimal-loop.mjs'), server.url, 'bench', ws, task];
  const a: number[] = [];
  const b: number[] = [];
  try {
    for (let i = -2; i < iterations; i++) {
      // Alternate which goes first so drift in machine load hits both equally.
      const order = i % 2 === 0 ? (['ours', 'minimal'] as const) : (['minimal', 'ours'] as const);
      for (const which of order) {
        const ws = workspace();
        const before = server.requests.length;
        const ms = await timeRun(which === 'ours' ? ours(ws) : minimal(ws), ws);
        const requests = server.requests.length - before;
        if (requests !== FILES * 2 + 2) throw new Error(`${which} made ${requests} requests, expected ${FILES * 2 + 2}`);
        rmSync(ws, { recursive: true, force: true });
        if (i >= 0) (which === 'ours' ? a : b).push(ms);
      }
    }
  } finally {
    await server.close();
  }
  const ratio = median(a) / median(b);
  console.log(`harness overhead: ${FILES * 2 + 2} model requests per run, ${iterations} runs each, alternated`);
  console.log(`  localharness CLI   median ${median(a).toFixed(1)} ms  (min ${Math.min(...a).toFixed(1)})`);
  console.log(`  minimal loop       median ${median(b).toFixed(1)} ms  (min ${Math.min(...b).toFixed(1)})`);
  console.log(`  ratio ours/minimal ${ratio.toFixed(2)}x  (target ≤ 1.25x)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
