// `localharness run`: one turn of the agent on a workspace, from the command line.
import { cliImages } from './cliImages';
import os from 'node:os';
import path from 'node:path';
import { existsSync, statSync } from 'node:fs';
import type { SessionKnowledge } from '../core/session/agentSession';
import { buildSession } from '../session/buildSession';
import { EventBus, type AgentEvent } from '../core/agent/events';
import { ApprovalGate } from '../core/approval/gate';
import { ContextTracker } from '../core/context/tracker';
import { ProviderError, type ChatProvider } from '../core/provider';
import { ToolRegistry } from '../core/tools/registry';
import { WorkspaceRoots } from '../core/workspace/workspaceRoots';
import { registerBuiltinTools } from '../core/tools/builtin/index';
import { createWorkerSearchEngine } from '../node/workerSearchEngine';
import { NodeFileSystem } from '../node/nodeFileSystem';
import { createProvider } from '../providers/index';
import { CheckpointingFileSystem } from '../core/checkpoints/checkpointingFileSystem';
import { openCliSession, type CliSession } from './cliPersistence';
import { savedRunOf, unfinishedRun } from '../persistence/planRuns';
import type { SavedRun } from '../core/orchestrator';
import { defaultDbPath } from './dbPath';
import { loadCliConfig } from './cliConfig';
import { autoApproved, UsageError, type RunOptions } from './args';
import { jsonRenderer, textRenderer } from './render';
import { ttyApprovalAsker } from './ttyApproval';
import { AGENT_RAN } from './codeCache';
import { createCliSandbox } from './cliSandbox';
import { firstChatModel } from '../core/modelNames';

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

/** Returns the process exit code: 0 normal end, 1 failure. */
export async function runCommand(options: RunOptions, io: CliIo, signal: AbortSignal): Promise<number> {
  const workspace = path.resolve(options.workspace);
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);

  const config = loadCliConfig(options.config);
  const bus = new EventBus();
  const out = { write: (s: string) => void io.stdout.write(s) };
  const err = { write: (s: string) => void io.stderr.write(s) };
  // `stored` is opened below, before any turn starts.
  bus.on(options.json ? jsonRenderer(out, () => stored?.id) : textRenderer(out, err, !!io.stdout.isTTY));
  let lastError: string | undefined;
  bus.on((e: AgentEvent) => {
    if (e.type === 'error') lastError = e.message;
  });

  const makeProvider = (baseUrl: string | undefined, kind: 'ollama' | 'openai' = options.provider): ChatProvider =>
    createProvider({
      provider: kind,
      firstByteTimeoutMs: options.firstByteTimeoutMs,
      ...(baseUrl && { baseUrl }),
      ...(options.apiKey && { apiKey: options.apiKey }),
    });
  const planned = options.orchestrator;
  // A planner or executor on another kind of server without its own URL uses that kind's default address.
  const endpointUrl = (url: string | undefined, kind: 'ollama' | 'openai' | undefined): string | undefined =>
    url ?? (kind !== undefined && kind !== options.provider ? undefined : options.baseUrl);
  // Without --model, the planner model (on its server) is also the single-model loop a planned turn falls back to.
  const plannerServes = !options.model && planned !== undefined && (planned.plannerBaseUrl !== undefined || planned.plannerProvider !== undefined);
  const provider: ChatProvider = plannerServes ? makeProvider(endpointUrl(planned.plannerBaseUrl, planned.plannerProvider), planned.plannerProvider) : makeProvider(options.baseUrl);

  let model = options.model ?? planned?.plannerModel;
  if (!model) {
    try {
      const models = await provider.listModels(signal);
      // The first that can chat, as the editor and the setup check choose (an embedding model may be listed first).
      model = (firstChatModel(models) ?? models[0])?.name;
    } catch (e) {
      return fail(e instanceof ProviderError ? e.message : `could not list models: ${(e as Error).message}`);
    }
    if (!model) return fail(`the server at ${provider.baseUrl} has no models; pass --model NAME or load a model first`);
  }

  const dbPath = options.db ?? defaultDbPath(process.env);
  let stored: CliSession | undefined;
  if (dbPath) {
    stored = await openCliSession(dbPath, options.session, { title: options.task, model, provider: options.provider }, (m) =>
      io.stderr.write(`localharness: ${m}\n`),
    );
    bus.on((e) => stored!.onEvent(e));
    io.stderr.write(`localharness: session ${stored.id}\n`);
  } else if (options.session) {
    throw new UsageError('--session needs --db FILE (or LOCALHARNESS_DB)');
  }

  const nodeFs = new NodeFileSystem();
  const fs = stored ? new CheckpointingFileSystem(nodeFs, stored.checkpoints) : nodeFs;
  const roots = new WorkspaceRoots([{ name: path.basename(workspace), path: workspace }], fs);
  const registry = new ToolRegistry();
  // Regexes run in a worker with a deadline: a backtracking pattern cannot freeze the host.
  registerBuiltinTools(registry, { searchFiles: { engine: createWorkerSearchEngine() } });
  const warn = (m: string) => io.stderr.write(`localharness: ${m}\n`);
  let mcp: { dispose(interrupted?: boolean): Promise<void> } | undefined;
  if (options.mcpConfig) {
    const [{ startCliMcp, runFeatures }, { canSignInHere }] = await Promise.all([import('./cliMcp'), import('./cliAuth')]);
    const features = await runFeatures({
      workspace,
      input: io.stdin,
      output: io.stderr,
      allowSampling: options.allowSampling,
      provider,
      model,
      notice: warn,
      signal,
    });
    mcp = await startCliMcp(options.mcpConfig, workspace, {
      registry,
      warn,
      features,
      signal,
      interactive: canSignInHere(io.stdin, io.stderr, process.env),
      output: io.stderr,
      env: process.env,
    });
  }
  // The workspace index of the same database (`localharness index`): retrieval before each model call,
  // summaries in compression. Loaded only when there is one.
  let knowledge: SessionKnowledge | undefined;
  const indexed = stored?.knowledgeFor(workspace);
  if (stored && indexed && indexed.listFiles().length > 0) {
    const { createKnowledge, indexEmbedModel } = await import('../indexing/knowledge');
    const index = createKnowledge({
      store: indexed,
      vectors: stored.vectors,
      provider,
      // run never indexes, so no summarizer; the vectors were made with the index's embedding model.
      model: '',
      embedModel: indexEmbedModel(indexed) || options.embedModel || '',
      fs,
      workspace,
      onNotice: (message) => bus.emit({ type: 'notice', message }),
    });
    knowledge = { retriever: index.retriever, summaries: index.summaries };
  }
  const tracker = new ContextTracker();
  const asker = ttyApprovalAsker(io.stdin, io.stderr);
  const gate = new ApprovalGate({
    policy: { autoApprove: autoApproved(options.approve), rules: [] },
    ...(asker && { ask: asker }),
    allowSensitive: options.allowSensitive,
    onSensitiveDenied: (request) =>
      warn(
        `denied a change to ${request.description.sensitive?.paths.join(', ')} (a sensitive file): it is always asked, and there is no terminal to ask on. ` +
          'Run on a terminal to approve it, or pass --approve all --allow-sensitive to allow such changes.',
      ),
  });

  const confined = createCliSandbox(options.sandbox, (message) => bus.emit({ type: 'notice', message }));
  const notice = (message: string) => bus.emit({ type: 'notice', message });
  const session = buildSession({
    ports: {
      provider,
      model,
      registry,
      gate,
      tracker,
      roots,
      fs,
      runner: confined.runner,
      ...(confined.sandbox && { sandbox: confined.sandbox }),
      bus,
      systemInfo: { os: `${os.type()} ${os.release()}`, shell: process.env.SHELL ?? '/bin/sh', workspaceFolders: [workspace] },
    },
    settings: {
      maxRounds: options.maxRounds,
      ...(options.think !== undefined && { think: options.think }),
      ...(options.numCtx !== undefined && { contextSize: options.numCtx, configuredWindow: options.numCtx }),
      agent: {
        ...config.agent,
        ...(options.toolProtocol && { toolProtocol: options.toolProtocol }),
        ...(options.retryBackoffMs !== undefined && { retry: { ...config.agent.retry, backoffBaseMs: options.retryBackoffMs } }),
      },
      context: config.context,
      ...(config.instructions && { instructions: config.instructions }),
      fallbackModels: options.fallbackModels,
      ...(options.maxTools !== undefined && { maxOfferedTools: options.maxTools }),
      ...(options.embedModel && { embeddingModel: options.embedModel }),
    },
    ...(stored && {
      history: stored.history,
      recording: stored,
      // A model the setup check (`doctor --db`) found not calling tools natively starts with text-based calls.
      setupChecks: stored.kv,
      ...(stored.contextState && { contextState: stored.contextState }),
      onCompression: (report, built) => stored!.onCompression(report, built.context?.state()),
    }),
    ...(knowledge && { knowledge }),
    ...(planned && {
      orchestrator: {
        planner: { provider: makeProvider(endpointUrl(planned.plannerBaseUrl, planned.plannerProvider), planned.plannerProvider), model: planned.plannerModel, ...(options.numCtx !== undefined && { contextSize: options.numCtx }) },
        executor: { provider: makeProvider(endpointUrl(planned.executorBaseUrl, planned.executorProvider), planned.executorProvider), model: planned.executorModel, ...(options.numCtx !== undefined && { contextSize: options.numCtx }) },
      },
    }),
    notice,
    status: (message) => bus.emit({ type: 'status', message }),
  });

  let outcome;
  try {
    // --resume: the stored run, not a new request (args made sure --session and the planner flags are there).
    let resumable: SavedRun | undefined;
    if (options.resume) {
      const run = stored && unfinishedRun(stored.planRuns);
      if (!run) return fail(`session ${stored?.id ?? options.session} has no unfinished planned run to resume`);
      io.stderr.write(`localharness: resuming the planned run at step ${run.steps.findIndex((st) => !run.records.some((r) => r.stepId === st.id)) + 1} of ${run.steps.length}\n`);
      resumable = savedRunOf(run);
    }
    const seen = await cliImages(options.images ?? [], process.cwd(), provider, model, options.vision ?? 'auto', signal);
    if (!seen.ok) return fail(seen.message);
    await stored?.beginTurn();
    outcome = resumable ? await session.resumePlan(resumable, signal) : await session.send(options.task, signal, undefined, seen);
    // The code cache written at exit now holds the whole round path (see codeCache.ts).
    (globalThis as Record<symbol, unknown>)[AGENT_RAN] = true;
    await stored?.endTurn();
  } finally {
    confined.dispose();
    await mcp?.dispose(signal.aborted);
    await stored?.close();
  }
  if (outcome.reason === 'completed' || outcome.reason === 'task_completion' || outcome.reason === 'ask_question') return 0;
  // The text renderer already printed error events; JSON mode (and a silent cancel) still owe stderr one line.
  if (options.json || lastError === undefined) io.stderr.write(`${oneLine(outcome.error ?? lastError ?? `turn ended: ${outcome.reason}`)}\n`);
  return 1;

  function fail(message: string): number {
    bus.emit({ type: 'error', message });
    if (options.json) io.stderr.write(oneLine(message) + '\n');
    return 1;
  }
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
