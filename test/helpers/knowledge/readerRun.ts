// One reading task run end to end for the compression-by-summaries test and bench: an AgentSession (read-only
// tools, as in Restricted Mode) against a fake Ollama server in a small window, the weak reader model asked to
// list the functions of `count` long feature modules, with or without their index summaries. Everything the
// server was sent is measured with the windowed server's token proxy.
import path from 'node:path';
import type { AgentSession, SessionKnowledge } from '../../../src/core/session/agentSession';
import { builtSession } from '../builtSession';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import type { TurnOutcome } from '../../../src/core/agent/turnRunner';
import { ApprovalGate } from '../../../src/core/approval/gate';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { OllamaProvider } from '../../../src/providers/ollama';
import { WindowedScript } from '../fakeLlm/windowedScript';
import { startFakeOllamaServer, type ChatBody } from '../fakeLlm';
import { compressionModel } from '../weakModels';
import { readerModel, readerTask } from '../weakModels/readerModel';
import { featureWorkspace, moduleName } from './featureModules';

export interface ReaderRunOptions {
  window: number;
  count: number;
  functions: number;
  /** The folder to write the modules into (default: a new temp folder). */
  root?: string;
  /** Give the session the modules' index summaries. */
  summaries: boolean;
  /** Also give it a retriever. */
  retriever?: SessionKnowledge['retriever'];
  /** Chunks to retrieve. */
  k?: number;
  maxRounds?: number;
}

export interface ReaderSetup {
  root: string;
  files: string[];
  session: AgentSession;
  events: AgentEvent[];
  reports: CompressionReport[];
  /** Every chat request the server got (agent and compression agent), as sent. */
  requests: ChatBody[];
  windowed: WindowedScript;
  /** What the reader logged as going wrong. */
  failures: readonly string[];
  close(): Promise<void>;
}

export interface ReaderRun extends Omit<ReaderSetup, 'session' | 'close'> {
  outcome: TurnOutcome;
}

/** The session and its server, for tests that run several turns (close() when done). */
export async function startReader(options: ReaderRunOptions): Promise<ReaderSetup> {
  const { root, summaries } = await featureWorkspace({
    count: options.count,
    functions: options.functions,
    indexed: Array.from({ length: options.count }, (_, i) => i + 1),
    ...(options.root && { root: options.root }),
  });
  const files = Array.from({ length: options.count }, (_, i) => moduleName(i + 1));
  const reader = readerModel();
  const windowed = new WindowedScript({ window: options.window });
  const server = await startFakeOllamaServer(windowed.script(reader, compressionModel('follows')), { name: `reader (${options.summaries ? 'with' : 'without'} summaries)` });
  const bus = new EventBus();
  const events: AgentEvent[] = [];
  bus.on((e) => events.push(e));
  const reports: CompressionReport[] = [];
  const registry = new ToolRegistry();
  registerBuiltinTools(registry);
  const fs = new NodeFileSystem();
  const knowledge: SessionKnowledge = {
    ...(options.summaries && { summaries }),
    ...(options.retriever && { retriever: options.retriever }),
    ...(options.k !== undefined && { k: options.k }),
  };
  const session = builtSession(
    {
      provider: new OllamaProvider({ host: server.url }),
      model: 'test-model',
      registry,
      gate: new ApprovalGate({ policy: { autoApprove: ['read'], rules: [] } }),
      tracker: new ContextTracker(),
      roots: new WorkspaceRoots([{ name: path.basename(root), path: root }], fs),
      fs,
      runner: new NodeProcessRunner(),
      bus,
      systemInfo: { os: 'Linux', shell: '/bin/sh', workspaceFolders: [root] },
    },
    { allowedRisks: ['read'], contextSize: options.window, maxRounds: options.maxRounds ?? options.count * 3 },
    {
      onCompression: (r) => reports.push(r),
      ...((knowledge.summaries || knowledge.retriever) && { knowledge }),
    },
  );
  return { root, files, session, events, reports, requests: server.requests, windowed, failures: reader.failures, close: () => server.close() };
}

/** One turn: the reader lists the functions of every module. */
export async function runReader(options: ReaderRunOptions): Promise<ReaderRun> {
  const setup = await startReader(options);
  try {
    const outcome = await setup.session.send(readerTask(setup.files), new AbortController().signal);
    const { session: _session, close: _close, ...rest } = setup;
    return { ...rest, outcome };
  } finally {
    await setup.close();
  }
}
