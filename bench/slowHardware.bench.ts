// Slow hardware (issue 31), through the real CLI against fake servers of both wire formats:
//  1. Compressions per task: the 12-note rename in a 4,096-token window, with a model that answers the compression
//     request with a tool call (it ignores it) and one that follows it. Targets: at most 3 and at most 2.
//  2. Thinking tokens per task: the same rename with a reasoning model that thinks 3,000 tokens before every step,
//     with the default thinking budget (2,000) and without one (--thinking-budget 0), and the wall time at a
//     laptop's generation speed (LH_BENCH_GEN_TPS, default 3,000 tokens/s here so the bench stays short: the ratio is
//     what matters).
// Run: npm run build && node --import tsx bench/slowHardware.bench.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../test/helpers/fakeLlm';
import { followsCompression, isCompressionRequest, renameTaskModel } from '../test/helpers/weakModels';
import { offeredTools } from '../test/helpers/weakModels/requestView';
import { reasoningModel } from '../test/helpers/weakModels/reasoningModel';
import { FILE_COUNT, FILE_TASK, kindOf, noteName, noteText, renamed } from '../test/helpers/tasks/fileTask';
import { roughPromptTokens } from '../test/helpers/fakeLlm/script';
import { estimateTokens } from '../src/core/tokens';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const GEN_TPS = Number(process.env.LH_BENCH_GEN_TPS ?? 3000);
const WINDOW = 4096;

type Wire = 'openai' | 'ollama';
type Compression = 'ignores (tool call)' | 'follows';

/** Notes of one line (as in the prompt-cache bench), or of `bytes` bytes of prose around the kind. */
function workspace(bytes = 0): string {
  const ws = path.join(mkdtempSync(path.join(tmpdir(), 'lh-slow-bench-')), 'ws');
  mkdirSync(ws);
  for (let n = 1; n <= FILE_COUNT; n++) writeFileSync(path.join(ws, noteName(n)), bytes ? noteText(n, bytes) : `Note ${n}\nDocument kind: ${kindOf(n)}.\n`);
  return ws;
}

/** The weak rename model; the compression request is followed, or answered with the next tool call of the task. */
function renameModel(window: number | undefined, compression: Compression): (request: ChatBody) => ScriptedReply {
  const agent = renameTaskModel({ trustsTrimmed: false });
  return (request) => {
    const tokens = roughPromptTokens(request);
    if (window && tokens > window) return { fault: 'http500', status: 400, errorMessage: `the request exceeds the available context size (${tokens} tokens > ${window})` };
    if (isCompressionRequest(request) && compression === 'follows') return followsCompression(request);
    const reply = agent(request);
    const call = reply.toolCalls?.[0];
    if (call?.name === 'task_completion' && !offeredTools(request).some((t) => t.name === 'task_completion')) {
      return { text: String((call.arguments as { result?: unknown }).result ?? 'Done.') };
    }
    return reply;
  };
}

async function startServer(wire: Wire, reply: (r: ChatBody) => ScriptedReply, window: number | undefined): Promise<FakeServerHandle> {
  const promptCache = {};
  if (wire === 'openai') {
    return startFakeOpenAIServer(reply, { name: 'slow bench', promptCache, llamaCppContext: window ?? 32768, lmStudioApi: false, models: [{ id: 'tiny' }] });
  }
  return startFakeOllamaServer(reply, { name: 'slow bench', promptCache, models: [{ name: 'tiny', contextLength: 32768, capabilities: ['completion', 'tools', 'thinking'] }] });
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
  thinkingTokens: number;
  renamed: number;
}

async function task(wire: Wire, reply: (r: ChatBody) => ScriptedReply, window: number | undefined, extra: string[], bytes = 0): Promise<Outcome> {
  const ws = workspace(bytes);
  const server = await startServer(wire, reply, window);
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
  console.log('| notes | wire | compression model | compressions | target | requests | renamed |');
  console.log('|---|---|---|---|---|---|---|');
  // One-line notes (the prompt-cache bench's), and 600-byte ones: long enough for the LLM pass to be asked.
  for (const bytes of [0, 600]) {
    for (const wire of ['openai', 'ollama'] as const) {
      for (const compression of ['ignores (tool call)', 'follows'] as const) {
        const o = await task(wire, renameModel(WINDOW, compression), WINDOW, [], bytes);
        const limit = compression === 'follows' ? 2 : 3;
        const label = bytes ? `${bytes} B` : 'one line';
        if (o.compressions.length > limit || o.renamed !== FILE_COUNT) misses.push(`${label}, ${wire}, ${compression}: ${o.compressions.length} compressions, ${o.renamed} renamed`);
        console.log(`| ${label} | ${wire} | ${compression} | ${o.compressions.length} (${o.compressions.join(', ') || '-'}) | ≤ ${limit} | ${o.requests} | ${o.renamed}/${FILE_COUNT} |`);
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
      const thinker = reasoningModel(renameModel(undefined, 'follows'), 3000);
      // Streamed at the generation speed, 10 tokens (~40 characters) a piece: a stopped reply stops costing time.
      const model = (r: ChatBody): ScriptedReply => ({ ...thinker(r), chunkSize: 40, ...(GEN_TPS > 0 && { chunkDelayMs: 10_000 / GEN_TPS }) });
      const o = await task(wire, model, undefined, ['--thinking-budget', budget]);
      console.log(`| ${wire} | ${budget === '0' ? 'none' : budget} | ${o.thinkingTokens.toLocaleString('en-US')} | ${o.seconds.toFixed(1)} s | ${o.requests} | ${o.renamed}/${FILE_COUNT} |`);
    }
  }
}

void main();
