// Index-summaries bench (issue 10): does compressing file contents to their index summaries send fewer tokens
// than compressing without them? Two measurements, each run with and without summaries:
//
// 1. Replay: the scripted 200-message agent session of the compression bench (many read_file results of long
//    files, 8k window), one prepare per model call as the turn runner does, the LLM pass run by the scripted
//    capable compression model. The files it read are written to a temp folder and indexed (a summary and one
//    chunk per function); a file the session later rewrites is stale on disk, so it gets no summary. Counts
//    every prompt token sent: the work calls and the compression model's calls (reference tokenizer proxy).
// 2. End to end: a real AgentSession against the fake Ollama server, the weak reader model listing the
//    functions of long modules in a small window (test/helpers/knowledge/readerRun.ts); counts every request
//    the server got and its proxy tokens (characters / 3.5).
//
// Run: node --import tsx bench/indexSummaries.bench.ts
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContextManager } from '../src/core/compression/contextManager';
import type { CompressionReport } from '../src/core/compression/compressor';
import { parseArguments } from '../src/core/compression/marker';
import type { ChatMessage } from '../src/core/messages';
import { CompressingModel } from '../test/helpers/compression/compressionModels';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../test/helpers/compression/sessionFixture';
import { referencePromptTokens } from '../test/helpers/tokens/referenceTokenizer';
import { MemorySummaries } from '../test/helpers/knowledge/memorySummaries';
import { runReader } from '../test/helpers/knowledge/readerRun';
import { proxyPromptTokens } from '../test/helpers/fakeLlm/windowedScript';

const WINDOW = 8192;
const MESSAGES = 200;
const FILE_CHARS = 3000;
const fmt = (n: number) => n.toLocaleString('en-US');

interface ReplayResult {
  label: string;
  workCalls: number;
  compressionCalls: number;
  workTokens: number;
  compressionTokens: number;
  reports: CompressionReport[];
  maxSent: number;
}

/** The files the session read, on disk as read and indexed; rewritten afterwards when the session wrote them. */
async function indexSession(history: readonly ChatMessage[]): Promise<{ summaries: MemorySummaries; indexed: number; stale: number }> {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-bench-index-'));
  const summaries = new MemorySummaries(root);
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  const reads = new Map<string, string>();
  const written = new Map<string, string>();
  for (const m of history) {
    for (const call of m.toolCalls ?? []) {
      const args = parseArguments(call.arguments);
      if (call.name === 'write_file' && typeof args?.path === 'string' && typeof args.content === 'string') written.set(args.path, args.content);
    }
    const header = m.role === 'tool' && m.toolName === 'read_file' ? /^(\S+) \(\d+ lines\):\n/.exec(m.content) : null;
    if (header && !reads.has(header[1]!)) reads.set(header[1]!, m.content.slice(header[0].length));
  }
  for (const [rel, body] of reads) {
    write(rel, body);
    await summaries.index(rel, fileSummary(rel, body), chunks(body));
  }
  let stale = 0;
  for (const [rel, body] of written) {
    if (reads.has(rel)) stale++;
    write(rel, body);
  }
  return { summaries, indexed: reads.size, stale };
}

/** What a model's file summary says, in about as many words. */
function fileSummary(rel: string, body: string): string {
  const names = [...body.matchAll(/function (\w+)/g)].map((m) => m[1]!);
  return `${rel} exports ${names.length} async functions (${names.join(', ')}) that validate their arguments, retry the calls they make and update arrays in place.`;
}

/** One chunk per function, with a short summary. */
function chunks(body: string): Array<{ startLine: number; endLine: number; name?: string; summary: string }> {
  const lines = body.split('\n');
  const out: Array<{ startLine: number; endLine: number; name?: string; summary: string }> = [];
  lines.forEach((line, i) => {
    const name = /^export function (\w+)/.exec(line)?.[1];
    if (name) out.push({ startLine: i + 1, endLine: i + 1, name, summary: `${name}: checks its inputs, then retries and updates` });
    else if (out.length) out.at(-1)!.endLine = i + 1;
  });
  return out;
}

async function replay(label: string, summaries: MemorySummaries | undefined): Promise<ReplayResult> {
  const history = scriptedSession({ messages: MESSAGES, seed: 2024, fileChars: FILE_CHARS }).slice(0, MESSAGES);
  const system = systemMessage();
  const model = new CompressingModel();
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: model,
    model: 'bench-model',
    window: WINDOW,
    tools: () => SESSION_TOOLS,
    ...(summaries && { summaries }),
    onCompression: (r) => reports.push(r),
    callBudget: true, // as the agent session runs it
  });
  const signal = new AbortController().signal;
  let workCalls = 0;
  let workTokens = 0;
  let maxSent = 0;
  for (let k = 1; k <= history.length; k++) {
    if (history[k]?.role !== 'assistant' && k !== history.length) continue; // a model call produces message k
    if (history[k - 1]?.role === 'user') manager.startTurn();
    const sent = await manager.prepareMessages([system, ...history.slice(0, k)], signal);
    const counted = referencePromptTokens(sent, SESSION_TOOLS);
    manager.recordUsage({ promptTokens: counted });
    workCalls++;
    workTokens += counted;
    maxSent = Math.max(maxSent, counted);
  }
  const compressionTokens = model.requests.reduce((n, r) => n + referencePromptTokens(r.messages, r.tools), 0);
  return { label, workCalls, compressionCalls: model.requests.length, workTokens, compressionTokens, reports, maxSent };
}

function printReplay(r: ReplayResult): void {
  const saved = r.reports.reduce((n, rep) => n + (rep.indexSummaries?.tokensSaved ?? 0), 0);
  const methods = new Map<string, number>();
  for (const rep of r.reports) methods.set(rep.method, (methods.get(rep.method) ?? 0) + 1);
  console.log(
    `| ${r.label} | ${r.workCalls} + ${r.compressionCalls} = ${r.workCalls + r.compressionCalls} | ${fmt(r.workTokens)} + ${fmt(r.compressionTokens)} = ${fmt(r.workTokens + r.compressionTokens)} | ` +
      `${r.reports.length} (${[...methods].map(([m, n]) => `${m} ${n}`).join(', ')}) | ${saved ? fmt(saved) : '-'} | ${fmt(r.maxSent)} |`,
  );
}

async function main(): Promise<void> {
  console.log(`# Index-summaries bench`);
  console.log(`\n## 1. Replay: ${MESSAGES}-message scripted session, ~${fmt(FILE_CHARS)}-character files, ${fmt(WINDOW)}-token window, LLM pass on\n`);
  const history = scriptedSession({ messages: MESSAGES, seed: 2024, fileChars: FILE_CHARS }).slice(0, MESSAGES);
  const index = await indexSession(history);
  console.log(`${index.indexed} files read and indexed; ${index.stale} of them rewritten later by the session (stale: no summary)\n`);
  console.log('| run | model calls (work + compression) | prompt tokens sent (work + compression) | compressions | tokens saved by summaries | largest request |');
  console.log('|---|---|---|---|---|---|');
  const without = await replay('without summaries', undefined);
  const withIndex = await replay('with index summaries', index.summaries);
  printReplay(without);
  printReplay(withIndex);
  const replayRatio = (withIndex.workTokens + withIndex.compressionTokens) / (without.workTokens + without.compressionTokens);
  console.log(`\nwith / without: prompt tokens ${replayRatio.toFixed(3)}; model calls ${((withIndex.workCalls + withIndex.compressionCalls) / (without.workCalls + without.compressionCalls)).toFixed(3)}`);

  console.log('\n## 2. End to end: the weak reader lists the functions of long modules (AgentSession, fake Ollama server)\n');
  console.log('| window | modules | run | outcome | requests (agent + compression) | proxy prompt tokens sent | compressions |');
  console.log('|---|---|---|---|---|---|---|');
  const ratios: number[] = [];
  for (const config of [
    { window: 4096, count: 5, functions: 3 },
    { window: 8192, count: 10, functions: 3 },
  ]) {
    const totals: number[] = [];
    for (const summaries of [false, true]) {
      const run = await runReader({ ...config, summaries });
      const compressionRequests = run.windowed.measured.filter((m) => m.compression).length;
      const tokens = run.requests.reduce((n, b) => n + proxyPromptTokens(b), 0);
      totals.push(tokens);
      const compressions = run.events.flatMap((e) => (e.type === 'compression' ? [e.method] : []));
      console.log(
        `| ${fmt(config.window)} | ${config.count} × ${config.functions} functions | ${summaries ? 'with index summaries' : 'without summaries'} | ${run.outcome.reason} | ` +
          `${run.requests.length - compressionRequests} + ${compressionRequests} | ${fmt(tokens)} | ${compressions.join(', ') || '-'} |`,
      );
    }
    ratios.push(totals[1]! / totals[0]!);
  }
  console.log(`\nwith / without: proxy prompt tokens ${ratios.map((r) => r.toFixed(3)).join(', ')}`);

  const ok = replayRatio < 1 && ratios.every((r) => r < 1);
  console.log(`\nDone-when target (a session compressed with index summaries uses fewer tokens): ${ok ? 'met' : 'NOT met'}`);
  if (!ok) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
