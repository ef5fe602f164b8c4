// Compression bench: a scripted 200-message agent session replayed against an 8k window, one prepare per
// model call (as the turn runner does). Prints tokens before/after each compression, the LLM pass's calls, and
// whether any request went over the window. Run: node --import tsx bench/compression.bench.ts
//
// The "model" behind the LLM pass is the scripted CompressingModel from the unit tests (it answers the pass's
// request with the JSON summaries it asks for, as a capable model would); the fallback run uses no model at all. Server counts come from the reference
// tokenizer proxy (test/unit/context/referenceTokenizer.ts), so calibration runs as it would against a server.
import { createContextManager } from '../src/core/compression/contextManager';
import type { CompressionReport } from '../src/core/compression/compressor';
import type { ChatProvider } from '../src/core/provider';
import { CompressingModel, GarbageModel } from '../test/helpers/compression/compressionModels';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../test/helpers/compression/sessionFixture';
import { referencePromptTokens } from '../test/helpers/tokens/referenceTokenizer';

const WINDOW = 8192;
const MESSAGES = 200;

interface RunResult {
  label: string;
  calls: number;
  reports: CompressionReport[];
  fullTokens: number;
  lastSent: number;
  maxSent: number;
  overWindow: number;
  ms: number;
}

async function replay(label: string, provider: ChatProvider, llm: boolean, callBudget = false): Promise<RunResult> {
  const history = scriptedSession({ messages: MESSAGES, seed: 2024, fileChars: 1800 }).slice(0, MESSAGES);
  const system = systemMessage();
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider,
    model: 'bench-model',
    window: WINDOW,
    tools: () => SESSION_TOOLS,
    settings: { llmCompression: llm },
    onCompression: (r) => reports.push(r),
    // As the agent session runs it: compression calls held to the work's own calls, per turn and per session.
    callBudget,
  });
  const signal = new AbortController().signal;
  let calls = 0;
  let maxSent = 0;
  let lastSent = 0;
  let overWindow = 0;
  const started = performance.now();
  for (let k = 1; k <= history.length; k++) {
    if (history[k]?.role !== 'assistant' && k !== history.length) continue; // a model call produces message k
    if (history[k - 1]?.role === 'user') manager.startTurn();
    const sent = await manager.prepareMessages([system, ...history.slice(0, k)], signal);
    calls++;
    const counted = referencePromptTokens(sent, SESSION_TOOLS);
    manager.recordUsage({ promptTokens: counted });
    lastSent = manager.status().used;
    maxSent = Math.max(maxSent, lastSent);
    if (counted > WINDOW - 1) overWindow++;
  }
  const full = createContextManager({ provider, model: 'x', window: 1 << 30, tools: () => SESSION_TOOLS, compressionModel: null });
  await full.prepareMessages([system, ...history], signal);
  return { label, calls, reports, fullTokens: full.status().used, lastSent, maxSent, overWindow, ms: performance.now() - started };
}

function print(r: RunResult): void {
  const fmt = (n: number) => n.toLocaleString('en-US');
  console.log(`\n## ${r.label}`);
  console.log(`model calls replayed: ${r.calls}; compressions: ${r.reports.length}; wall time ${r.ms.toFixed(0)} ms`);
  console.log(`whole session uncompressed: ${fmt(r.fullTokens)} tokens; last request sent: ${fmt(r.lastSent)}; largest request: ${fmt(r.maxSent)} (window ${fmt(WINDOW)}); requests over the window: ${r.overWindow}`);
  console.log('| # | reason | method | tokens before → after | target | messages | LLM rounds |');
  console.log('|---|---|---|---|---|---|---|');
  r.reports.forEach((rep, i) => {
    const rounds = rep.llm ? `${rep.llm.iterations}${rep.llm.failure ? ' (gave up)' : ''}` : '-';
    console.log(`| ${i + 1} | ${rep.reason} | ${rep.method} | ${fmt(rep.tokensBefore)} → ${fmt(rep.tokensAfter)} | ${fmt(rep.targetTokens)} | ${rep.messagesAffected} | ${rounds} |`);
  });
  const rounds = r.reports.reduce((n, rep) => n + (rep.llm?.iterations ?? 0), 0);
  console.log(`total LLM compression rounds: ${rounds}; compression calls per work call: ${(rounds / r.calls).toFixed(2)}`);
}

async function main(): Promise<void> {
  console.log(`# Compression bench: ${MESSAGES}-message scripted session, ${WINDOW}-token window, threshold 70%, target 40%`);
  print(await replay('LLM pass (scripted capable model)', new CompressingModel(), true));
  print(await replay('LLM pass within the agent’s call budget (as sessions run it)', new CompressingModel(), true, true));
  print(await replay('Model that returns garbage (LLM pass gives up → fallback)', new GarbageModel(), true));
  print(await replay('Deterministic only (llmCompression: false)', new GarbageModel(), false));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
