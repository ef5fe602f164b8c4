// Planner/executor bench (issue 11): the 12-file header task (add a line at the top of 12 files: read, edit each)
// orchestrated — a slow planner plans and answers, a fast executor does the tool calls — vs the single-model loop
// on the planner model alone. Scripted OpenAI-compatible servers (tool-call arguments stream token by token) with
// per-token latencies of a 30B model and a 1–3B model on a laptop; the weak scripted models of the tests.
// Model time = time spent inside model calls (first byte to last), summed; wall = the whole turn.
// Run: node --import tsx bench/orchestrator.bench.ts [--strict]   (--strict: exit 1 unless orchestrated is faster)
import path from 'node:path';
import { builtSession } from '../test/helpers/builtSession';
import { EventBus } from '../src/core/agent/events';
import { ApprovalGate } from '../src/core/approval/gate';
import { ContextTracker } from '../src/core/workingContext/tracker';
import type { ChatProvider, ChatRequest, StreamDelta } from '../src/core/provider';
import { ToolRegistry } from '../src/core/tools/registry';
import { registerBuiltinTools } from '../src/core/tools/builtin/index';
import { WorkspaceRoots } from '../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../src/node/nodeProcessRunner';
import { OpenAICompatibleProvider } from '../src/providers/openaiCompatible';
import { startFakeOpenAIServer, type ChatBody, type ScriptedReply } from '../test/helpers/fakeLlm';
import { headerCounts, headerTaskText, headerWorkspace } from '../test/helpers/weakModels/headerTask';
import { plannerModel } from '../test/helpers/weakModels/plannerModel';
import { executorModel } from '../test/helpers/weakModels/executorModel';

const STRICT = process.argv.includes('--strict');
const FILES = 12;
/** ~4 characters a token; one streamed piece per token. */
const CHARS_PER_TOKEN = 4;
const PLANNER = { name: 'planner (30B-class)', msPerToken: 30, firstByteMs: 400 };
const EXECUTOR = { name: 'executor (1–3B-class)', msPerToken: 3, firstByteMs: 40 };

type Latency = typeof PLANNER;

function paced(model: (request: ChatBody) => ScriptedReply, latency: Latency): (request: ChatBody) => ScriptedReply {
  return (request) => ({ ...model(request), chunkSize: CHARS_PER_TOKEN, chunkDelayMs: latency.msPerToken, delayMs: latency.firstByteMs });
}

/** Counts the time spent in model calls (request sent → stream ended) and the calls. */
class TimedProvider implements ChatProvider {
  ms = 0;
  calls = 0;
  constructor(private readonly inner: ChatProvider) {}
  get id() {
    return this.inner.id;
  }
  get baseUrl() {
    return this.inner.baseUrl;
  }
  get capabilities() {
    return this.inner.capabilities;
  }
  async *chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    const started = performance.now();
    this.calls++;
    try {
      yield* this.inner.chat(request);
    } finally {
      this.ms += performance.now() - started;
    }
  }
  listModels(signal: AbortSignal) {
    return this.inner.listModels(signal);
  }
  modelInfo(model: string, signal: AbortSignal) {
    return this.inner.modelInfo(model, signal);
  }
}

interface Result {
  label: string;
  wallMs: number;
  plannerMs: number;
  executorMs: number;
  plannerCalls: number;
  executorCalls: number;
  correct: boolean;
  reason: string;
}

async function runOnce(orchestrated: boolean): Promise<Result> {
  const { ws, files } = headerWorkspace(FILES);
  // The planner model's server answers plans, syntheses and (single-model loop) ordinary agent requests.
  const plannerServer = await startFakeOpenAIServer(paced(plannerModel({ plan: 'good' }), PLANNER), { name: 'bench planner' });
  const executorServer = await startFakeOpenAIServer(paced(executorModel(), EXECUTOR), { name: 'bench executor' });
  try {
    const planner = new TimedProvider(new OpenAICompatibleProvider({ baseUrl: plannerServer.url }));
    const executor = new TimedProvider(new OpenAICompatibleProvider({ baseUrl: executorServer.url }));
    const registry = new ToolRegistry();
    registerBuiltinTools(registry);
    const fs = new NodeFileSystem();
    const session = builtSession(
      {
        provider: planner,
        model: 'planner-model',
        registry,
        gate: new ApprovalGate({ policy: { autoApprove: ['read', 'write'], rules: [] } }),
        tracker: new ContextTracker(),
        roots: new WorkspaceRoots([{ name: path.basename(ws), path: ws }], fs),
        fs,
        runner: new NodeProcessRunner(),
        bus: new EventBus(),
        systemInfo: { os: 'Linux', shell: '/bin/sh', workspaceFolders: [ws] },
      },
      // The scripted servers do not list the models: the window is the user's setting, as they would set it.
      { agent: { toolProtocol: 'native' }, maxRounds: FILES * 3, configuredWindow: 32_768 },
      orchestrated ? { orchestrator: { planner: { provider: planner, model: 'planner-model' }, executor: { provider: executor, model: 'executor-model' } } } : {},
    );
    const started = performance.now();
    const outcome = await session.send(headerTaskText(FILES), new AbortController().signal);
    const wallMs = performance.now() - started;
    return {
      label: orchestrated ? 'orchestrated (planner + executor)' : 'single-model loop (planner model)',
      wallMs,
      plannerMs: planner.ms,
      executorMs: executor.ms,
      plannerCalls: planner.calls,
      executorCalls: executor.calls,
      correct: headerCounts(ws, files).every((n) => n === 1),
      reason: outcome.reason,
    };
  } finally {
    await Promise.all([plannerServer.close(), executorServer.close()]);
  }
}

async function main(): Promise<void> {
  console.log(`# Planner/executor: the ${FILES}-file header task (read + edit each file), OpenAI-compatible wire`);
  console.log(`# ${PLANNER.name}: ${PLANNER.msPerToken} ms/token, ${PLANNER.firstByteMs} ms to first byte; ${EXECUTOR.name}: ${EXECUTOR.msPerToken} ms/token, ${EXECUTOR.firstByteMs} ms to first byte`);
  const single = await runOnce(false);
  const orchestrated = await runOnce(true);
  const s = (ms: number) => (ms / 1000).toFixed(2).padStart(7);
  console.log('\n| run | model time s | planner s (calls) | executor s (calls) | wall s | files right | end |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of [single, orchestrated]) {
    console.log(
      `| ${r.label} | ${s(r.plannerMs + r.executorMs)} | ${s(r.plannerMs)} (${r.plannerCalls}) | ${s(r.executorMs)} (${r.executorCalls}) | ${s(r.wallMs)} | ${r.correct ? 'yes' : 'NO'} | ${r.reason} |`,
    );
  }
  const singleModel = single.plannerMs + single.executorMs;
  const orchestratedModel = orchestrated.plannerMs + orchestrated.executorMs;
  console.log(`\nmodel time orchestrated / single-model: ${(orchestratedModel / singleModel).toFixed(2)}x (${s(orchestratedModel).trim()} s vs ${s(singleModel).trim()} s)`);
  const ok = single.correct && orchestrated.correct && orchestratedModel < singleModel;
  if (!ok) console.log('TARGET MISSED: the orchestrated run must finish the task with less model time');
  if (STRICT && !ok) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
