// Startup of `localharness acp` until the `initialize` reply, as an editor sees it when it starts the agent:
// spawn `node dist/cli.js acp`, write the initialize request, time the reply line. Measured in the same run, A/B
// alternated: `node -e 0` (the floor: starting Node at all), a child that answers one line (Node plus a pipe
// round trip) and `localharness --version` (loading the CLI bundle at all). Target: under 300 ms to the reply. Run after `npm run build`:
//   node --import tsx bench/acpStartup.bench.ts [--runs 20] [--strict]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 20;
const WARMUP = 3;
const STRICT = args.includes('--strict');
const TARGET_MS = 300;
const CLI = path.resolve(__dirname, '../dist/cli.js');
if (!existsSync(CLI)) {
  console.error('acp startup bench: dist/cli.js is missing; run `npm run build` first');
  process.exit(2);
}
const cwd = mkdtempSync(path.join(tmpdir(), 'lh-bench-acp-'));
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } } }) + '\n';
const ECHO = "process.stdin.once('data', () => { process.stdout.write('{}\\n'); process.exit(0); })";

/** Milliseconds from spawn to the first stdout line (the reply); the child is then closed. */
function timeToFirstLine(argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // --model: startup must not depend on a model server; the agent lists models only for session/new.
    const child = spawn(process.execPath, argv, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!out.includes('\n')) return;
      const ms = performance.now() - started;
      if (!/"result"|^\{\}/.test(out)) reject(new Error(`unexpected reply: ${out}`));
      child.stdin.end();
      child.once('close', () => resolve(ms));
    });
    child.on('error', reject);
    child.stdin.write(INIT);
  });
}

function timeToExit(argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, argv, { cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

async function main(): Promise<void> {
  const acp: number[] = [];
  const bare: number[] = [];
  const echo: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const a = await timeToFirstLine([CLI, 'acp', '--model', 'bench-model']);
    const b = await timeToExit(['-e', '0']);
    const e = await timeToFirstLine(['-e', ECHO]);
    const v = await timeToExit([CLI, '--version']);
    if (i < WARMUP) continue;
    version.push(v);
    acp.push(a);
    bare.push(b);
    echo.push(e);
  }
  const row = (name: string, xs: number[]) => `${name.padEnd(38)} median ${median(xs).toFixed(0).padStart(4)} ms   p90 ${p90(xs).toFixed(0).padStart(4)} ms`;
  console.log(`ACP startup to the initialize reply (${RUNS} runs, A/B alternated, ${WARMUP} warm-up)`);
  console.log(row('node -e 0 (baseline: Node itself)', bare));
  console.log(row('node answering one line (Node + pipe)', echo));
  console.log(row('localharness --version (the CLI bundle)', version));
  console.log(row('localharness acp → initialize reply', acp));
  const overBaseline = median(acp) - median(echo);
  const ok = median(acp) < TARGET_MS;
  console.log(`harness cost over Node + pipe: ${overBaseline.toFixed(0)} ms; target < ${TARGET_MS} ms to the reply: ${ok ? 'met' : 'NOT met'}`);
  if (STRICT && !ok) process.exitCode = 1;
}

void main();
