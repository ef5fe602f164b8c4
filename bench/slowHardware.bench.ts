// Slow hardware (issue 31), through the real CLI against fake servers of both wire formats:
//  1. Compressions per task: the 12-note rename in a 4,096-token window, with a model that answers the compression
//     request with a tool call on a server that does not apply the response format (it ignores the request), one
//     that follows it on a server that does (llama.cpp and Ollama decode under the schema), and one that would
//     rather call a tool on a server that applies the format (it is held to the schema and writes the least).
//     Targets: at most 3, at most 2.
//  2. Thinking tokens per task: the same rename with a reasoning model that thinks 3,000 tokens before every step,
//     with the default thinking budget (2,000) and without one (--thinking-budget 0), and the wall time at a
//     laptop's generation speed (LH_BENCH_GEN_TPS, default 3,000 tokens/s here so the bench stays short: the ratio is
//     what matters).
// Run: npm run build && node --import tsx bench/slowHardware.bench.ts
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../test/helpers/fakeLlm';
import { isCompressionRequest } from '../test/helpers/weakModels';
import { APPLIES_FORMAT, MAX_COMPRESSIONS, notesWorkspace, renameInWindow } from '../test/helpers/weakModels/compressOnceTask';
import { reasoningModel } from '../test/helpers/weakModels/reasoningModel';
import { FILE_COUNT, FILE_TASK, renamed } from '../test/helpers/tasks/fileTask';
import { estimateTokens } from '../src/core/tokens';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const GEN_TPS = Number(process.env.LH_BENCH_GEN_TPS ?? 3000);
const WINDOW = 4096;

type Wire = 'openai' | 'ollama';

async function startServer(wire: Wire, reply: (r: ChatBody) => ScriptedReply, window: number | undefined, appliesResponseFormat = true): Promise<FakeServerHandle> {
  const promptCache = {};
  if (wire === 'openai') {
    return startFakeOpenAIServer(reply, { name: 'slow bench', promptCache, appliesResponseFormat, llamaCppContext: window ?? 32768, lmStudioApi: false, models: [{ id: 'tiny' }] });
  }
  return startFakeOllamaServer(reply, { name: 'slow bench', promptCache, appliesResponseFormat, models: [{ name: 'tiny', contextLength: 32768, capabilities: ['completion', 'tools', 'thinking'] }] });
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/cli.js', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

interface Outcome {
  seconds: number;
  requests: number;
  compressions: string[];
  /** Requests of the compression pass. */
  passCalls: number;
  thinkingTokens: number;
  renamed: number;
}

async function task(wire: Wire, reply: (r: ChatBody) => ScriptedReply, window: number | undefined, extra: string[], bytes = 0, appliesFormat = true): Promise<Outcome> {
  const ws = notesWorkspace(bytes);
  const server = await startServer(wire, reply, window, appliesFormat);
  try {
    const flags = wire === 'openai' ? ['--provider', 'openai', '--base-url', server.url] : ['--provider', 'ollama', '--base-url', server.url, '--num-ctx', String(window ?? 32768)];
    const out = await run(['run', ...flags, '--model', 'tiny', '--workspace', ws, '--approve', 'all', '--max-rounds', '60', '--json', ...extra, FILE_TASK]);
    if (out.code !== 0) throw new Error(`${wire} exited ${out.code}: ${out.stderr.slice(-1500)}`);
    const events = out.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const names = new Set(readdirSync(ws));
    return {
      seconds: out.seconds,
      requests: server.requests.length,
      compressions: events.filter((e) => e.type === 'compression').map((e) => `${String(e.method)}${e.targetMet ? '' : ' (target missed)'}`),
      passCalls: server.requests.filter((r) => isCompressionRequest(r)).length,
      thinkingTokens: events.filter((e) => e.type === 'thinking').reduce((n, e) => n + estimateTokens(String(e.text)), 0),
      renamed: Array.from({ length: FILE_COUNT }, (_, i) => i + 1).filter((n) => names.has(renamed(n))).length,
    };
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const part = process.env.LH_BENCH_PART ?? 'all';
  const misses: string[] = [];
  if (part !== 'thinking') await compressions(misses);
  if (part !== 'compression') await thinking();
  if (misses.length) {
    console.log(`\nMISSED: ${misses.join('; ')}`);
    process.exitCode = 1;
  }
}

async function compressions(misses: string[]): Promise<void> {
  console.log(`## Compressions per task: 12 notes renamed in a ${WINDOW}-token window\n`);
  console.log('| notes | wire | compression model | compressions | target | requests (pass) | renamed |');
  console.log('|---|---|---|---|---|---|---|');
  // One-line notes (the prompt-cache bench's), 600-byte ones (long enough for the LLM pass to be asked) and 2 KB
  // ones (the small-window acceptance test's). With 2 KB notes no compression can meet the targets in this window
  // (12 rounds of ~815 tokens through the ~3,000 that system prompt and tools leave: 4 fills at the least even with
  // no room kept for the answer; README, Slow hardware), so those rows are reported, not counted as misses.
  for (const bytes of [0, 600, 2000]) {
    for (const wire of ['openai', 'ollama'] as const) {
      for (const compression of ['ignores (tool call)', 'follows', 'tool call, format applied'] as const) {
        const o = await task(wire, renameInWindow(WINDOW, compression), WINDOW, [], bytes, APPLIES_FORMAT[compression]);
        const limit = MAX_COMPRESSIONS[compression];
        const label = bytes ? `${bytes} B` : 'one line';
        const reachable = bytes < 2000;
        if ((reachable && o.compressions.length > limit) || o.renamed !== FILE_COUNT) misses.push(`${label}, ${wire}, ${compression}: ${o.compressions.length} compressions, ${o.renamed} renamed`);
        console.log(`| ${label} | ${wire} | ${compression} | ${o.compressions.length} (${o.compressions.join(', ') || '-'}) | ${reachable ? `≤ ${limit}` : `(≤ ${limit}: out of reach)`} | ${o.requests} (${o.passCalls}) | ${o.renamed}/${FILE_COUNT} |`);
      }
    }
  }

}

async function thinking(): Promise<void> {
  console.log(`\n## Thinking tokens per task: a model that thinks 3,000 tokens before every step (generation ${GEN_TPS} tokens/s)\n`);
  console.log('| wire | thinking budget | thinking tokens | wall | requests | renamed |');
  console.log('|---|---|---|---|---|---|');
  for (const wire of ['openai', 'ollama'] as const) {
    for (const budget of ['2000', '0']) {
      const thinker = reasoningModel(renameInWindow(undefined, 'follows'), 3000);
      // Streamed at the generation speed, 10 tokens (~40 characters) a piece: a stopped reply stops costing time.
      const model = (r: ChatBody): ScriptedReply => ({ ...thinker(r), chunkSize: 40, ...(GEN_TPS > 0 && { chunkDelayMs: 10_000 / GEN_TPS }) });
      const o = await task(wire, model, undefined, ['--thinking-budget', budget]);
      console.log(`| ${wire} | ${budget === '0' ? 'none' : budget} | ${o.thinkingTokens.toLocaleString('en-US')} | ${o.seconds.toFixed(1)} s | ${o.requests} | ${o.renamed}/${FILE_COUNT} |`);
    }
  }
}

void main();
