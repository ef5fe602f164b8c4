// How much the model server has to read again: the 12-file rename through the real CLI against fake servers that
// behave like llama.cpp, Ollama and LM Studio — one cached prompt (the KV cache of one slot), only what follows
// the longest common prefix of the rendered request is read, at a set speed — next to a minimal append-only loop
// (bench/minimal-loop*.mjs) on the same server in the same run. Both wire formats; then the same task in a
// 4,096-token window, where compression has to rewrite the conversation now and then.
//
// Printed per run: wall time, requests, prompt tokens the server re-read, tokens new since the previous request,
// and their ratio. Targets (issue 19): re-read / new ≤ 1.2; wall ≤ 1.5× the minimal loop at 1,000 prompt tokens/s;
// in 4,096 tokens: re-read ≤ new + compressions × half the window, with fewer than 7 compressions.
// Speeds: LH_BENCH_PROMPT_TPS (default 1000), LH_BENCH_GEN_TPS (default 60, a 7B model on a mid-range GPU; 0 = free).
// LH_BENCH_CLI: another build of the CLI to measure (default dist/cli.js).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../test/helpers/fakeLlm';
import type { PromptProcessing } from '../test/helpers/fakeLlm/promptCache';
import { followsCompression, isCompressionRequest, renameTaskModel } from '../test/helpers/weakModels';
import { offeredTools } from '../test/helpers/weakModels/requestView';
import { FILE_COUNT, FILE_TASK, kindOf, noteName, renamed } from '../test/helpers/tasks/fileTask';
import { roughPromptTokens } from '../test/helpers/fakeLlm/script';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const PROMPT_TPS = Number(process.env.LH_BENCH_PROMPT_TPS ?? 1000);
const GEN_TPS = Number(process.env.LH_BENCH_GEN_TPS ?? 60);
/** Another build of the CLI to measure (e.g. an older commit's dist/cli.js, for a before/after). */
const CLI = process.env.LH_BENCH_CLI ?? 'dist/cli.js';

type Wire = 'openai' | 'ollama';
type Runner = 'harness' | 'minimal';

interface Result {
  label: string;
  wall: number;
  requests: number;
  reread: number;
  fresh: number;
  prompt: number;
  compressions: number;
  renamed: number;
  largest: number;
  over: number;
}

/** Twelve short notes: the fixed part of every request (system prompt, tools) weighs most, as in the issue. */
function workspace(): string {
  const ws = path.join(mkdtempSync(path.join(tmpdir(), 'lh-cache-bench-')), 'ws');
  mkdirSync(ws);
  for (let n = 1; n <= FILE_COUNT; n++) writeFileSync(path.join(ws, noteName(n)), `Note ${n}\nDocument kind: ${kindOf(n)}.\n`);
  return ws;
}

/** The weak rename model; it answers the compression pass too, and reports in text where it has no task_completion. */
function model(window: number | undefined): (request: ChatBody) => ScriptedReply {
  const agent = renameTaskModel({ trustsTrimmed: false });
  return (request) => {
    const tokens = roughPromptTokens(request);
    if (window && tokens > window) return { fault: 'http500', status: 400, errorMessage: `the request exceeds the available context size (${tokens} tokens > ${window})` };
    if (isCompressionRequest(request)) return followsCompression(request);
    const reply = agent(request);
    const call = reply.toolCalls?.[0];
    if (call?.name === 'task_completion' && !offeredTools(request).some((t) => t.name === 'task_completion')) {
      return { text: String((call.arguments as { result?: unknown }).result ?? 'Done.') };
    }
    return reply;
  };
}

async function startServer(wire: Wire, window: number | undefined, reply: (r: ChatBody) => ScriptedReply): Promise<FakeServerHandle> {
  const promptCache = { promptTokensPerSecond: PROMPT_TPS, ...(GEN_TPS > 0 && { generatedTokensPerSecond: GEN_TPS }) };
  if (wire === 'openai') {
    const ctx = window ?? 32768;
    return startFakeOpenAIServer((r) => reply(r), { name: 'cache bench', promptCache, models: [{ id: 'tiny', maxContextLength: 32768, loadedContextLength: ctx }] });
  }
  return startFakeOllamaServer((r) => reply(r), { name: 'cache bench', promptCache, models: [{ name: 'tiny', contextLength: 32768, capabilities: ['completion', 'tools'] }] });
}

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

async function measure(wire: Wire, runner: Runner, window?: number): Promise<Result> {
  const ws = workspace();
  const server = await startServer(wire, window, model(window));
  const label = `${runner === 'harness' ? 'Local Harness' : 'minimal loop'}, ${wire === 'openai' ? 'OpenAI-compatible' : 'Ollama'}${window ? `, ${window} window` : ''}`;
  try {
    let outcome;
    if (runner === 'minimal') {
      const script = wire === 'openai' ? 'bench/minimal-loop.mjs' : 'bench/minimal-loop-ollama.mjs';
      outcome = await run(process.execPath, [script, server.url, 'tiny', ws, FILE_TASK]);
    } else {
      const flags = wire === 'openai' ? ['--provider', 'openai', '--base-url', server.url] : ['--provider', 'ollama', '--base-url', server.url, '--num-ctx', String(window ?? 32768)];
      outcome = await run(process.execPath, [CLI, 'run', ...flags, '--model', 'tiny', '--workspace', ws, '--approve', 'all', '--max-rounds', '60', '--json', FILE_TASK]);
    }
    if (outcome.code !== 0) throw new Error(`${label} exited ${outcome.code}: ${outcome.stderr.slice(-2000)}`);
    const names = new Set(readdirSync(ws));
    const done = Array.from({ length: FILE_COUNT }, (_, i) => i + 1).filter((n) => names.has(renamed(n))).length;
    const log = server.promptCache!.stats.log;
    const compressions = outcome.stdout.split('\n').filter((l) => l.includes('"type":"compression"')).length;
    return { label, wall: outcome.seconds, requests: log.length, ...tally(log), compressions, renamed: done, largest: Math.max(...log.map((p) => p.promptTokens)), over: window ? log.filter((p) => p.promptTokens > window).length : 0 };
  } finally {
    await server.close();
  }
}

/** Re-read: what the server processed. New: how much each prompt grew over the one before it (all of the first). */
function tally(log: readonly PromptProcessing[]): { reread: number; fresh: number; prompt: number } {
  const sum = (pick: (p: PromptProcessing) => number) => log.reduce((n, p) => n + pick(p), 0);
  return { reread: sum((p) => p.processedTokens), fresh: sum((p) => p.newTokens), prompt: sum((p) => p.promptTokens) };
}

function row(r: Result): string {
  const ratio = r.fresh ? (r.reread / r.fresh).toFixed(2) : '-';
  return `${r.label.padEnd(48)} ${r.wall.toFixed(1).padStart(6)} s ${String(r.requests).padStart(4)} req ${String(r.reread).padStart(7)} re-read ${String(r.fresh).padStart(7)} new  ${ratio.padStart(5)}×  ${r.compressions} compressions  ${r.renamed}/${FILE_COUNT} renamed`;
}

async function main(): Promise<void> {
console.log(`prompt ${PROMPT_TPS} tokens/s, generation ${GEN_TPS || '∞'} tokens/s, one cache slot\n`);
const targets: string[] = [];
for (const wire of ['openai', 'ollama'] as const) {
  const minimal = await measure(wire, 'minimal');
  const harness = await measure(wire, 'harness');
  console.log(row(minimal));
  console.log(row(harness));
  const wallRatio = harness.wall / minimal.wall;
  console.log(`  wall ${wallRatio.toFixed(2)}× the minimal loop; re-read / new ${(harness.reread / harness.fresh).toFixed(2)}\n`);
  targets.push(`${wire}: re-read/new ${(harness.reread / harness.fresh).toFixed(2)} (≤ 1.2), wall ${wallRatio.toFixed(2)}× (≤ 1.5)`);
  if (harness.renamed !== FILE_COUNT) throw new Error(`${harness.label}: only ${harness.renamed} of ${FILE_COUNT} renamed`);
}
for (const wire of ['openai', 'ollama'] as const) {
  const small = await measure(wire, 'harness', 4096);
  console.log(row(small));
  const allowance = small.fresh + small.compressions * 2048;
  console.log(`  largest request ${small.largest} of 4096 (${small.over} over); re-read ${small.reread} ≤ new + compressions × 2,048 = ${allowance}\n`);
  targets.push(`${wire} 4k: re-read ${small.reread} vs allowance ${allowance}, ${small.compressions} compressions (< 7), ${small.over} over the window`);
  if (small.renamed !== FILE_COUNT) throw new Error(`${small.label}: only ${small.renamed} of ${FILE_COUNT} renamed`);
}
console.log(targets.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
