// The CLI's composition root: the ports and settings a session is built from, made from the run flags and the
// config file. `localharness run` and `localharness acp` both use it, so the two command-line hosts build the same
// session (the editor has its own root); each host adds only what is its own (renderer, asker, file system).
import os from 'node:os';
import path from 'node:path';
import type { SessionKnowledge } from '../core/session/agentSession';
import type { SessionBuild } from '../builder/buildSession';
import type { EventBus } from '../core/agent/events';
import type { ApprovalGate } from '../core/approval/gate';
import { ContextTracker } from '../core/workingContext/tracker';
import { ProviderError, type ChatProvider } from '../core/provider';
import type { FileSystemPort } from '../core/ports';
import { ToolRegistry } from '../core/tools/registry';
import { WorkspaceRoots } from '../core/workspace/workspaceRoots';
import { registerBuiltinTools } from '../core/tools/builtin/index';
import { createWorkerSearchEngine } from '../node/workerSearchEngine';
import { createProvider } from '../providers/index';
import type { CliSession } from './cliPersistence';
import type { CliConfig } from './cliConfig';
import type { RunOptions } from './args';
import type { CliSandbox } from './cliSandbox';
import { firstChatModel } from '../core/modelNames';
import { maxReplyCharsFromEnv, requestWaits } from './requestWaits';
import { BoundedReplyProvider } from '../core/resilience/boundedReplies';

type Kind = 'ollama' | 'openai';

/**
 * The chat provider of the run flags, and a maker for the planner's and executor's (which may be elsewhere).
 * `onStatus` hears what a slow model-info or embedding request waits for.
 */
export function cliProviders(
  options: RunOptions,
  onStatus: (message: string) => void = () => undefined,
): { provider: ChatProvider; makeProvider: (baseUrl: string | undefined, kind?: Kind) => ChatProvider } {
  const maxReplyChars = maxReplyCharsFromEnv(process.env);
  // Replies over a share of the window are cut and repetition loops stopped while streaming (boundedReplies.ts).
  const makeProvider = (baseUrl: string | undefined, kind: Kind = options.provider): ChatProvider =>
    new BoundedReplyProvider(
      createProvider({
        provider: kind,
        firstByteTimeoutMs: options.firstByteTimeoutMs,
        ...(baseUrl && { baseUrl }),
        ...(options.apiKey && { apiKey: options.apiKey }),
        ...requestWaits(process.env, onStatus),
      }),
      maxReplyChars === undefined ? {} : { maxReplyChars },
    );
  const planned = options.orchestrator;
  // Without --model, the planner model (on its server) is also the single-model loop a planned turn falls back to.
  const plannerServes = !options.model && planned !== undefined && (planned.plannerBaseUrl !== undefined || planned.plannerProvider !== undefined);
  const provider: ChatProvider = plannerServes ? makeProvider(endpointUrl(options, planned.plannerBaseUrl, planned.plannerProvider), planned.plannerProvider) : makeProvider(options.baseUrl);
  return { provider, makeProvider };
}

/** A planner or executor on another kind of server without its own URL uses that kind's default address. */
function endpointUrl(options: RunOptions, url: string | undefined, kind: Kind | undefined): string | undefined {
  return url ?? (kind !== undefined && kind !== options.provider ? undefined : options.baseUrl);
}

/** --model, the planner model, or the first chat model the server lists; `error` says why there is none. */
export async function chooseModel(options: RunOptions, provider: ChatProvider, signal: AbortSignal): Promise<{ model: string } | { error: string }> {
  const model = options.model ?? options.orchestrator?.plannerModel;
  if (model) return { model };
  let listed: string | undefined;
  try {
    const models = await provider.listModels(signal);
    // The first that can chat, as the editor and the setup check choose (an embedding model may be listed first).
    listed = (firstChatModel(models) ?? models[0])?.name;
  } catch (e) {
    return { error: e instanceof ProviderError ? e.message : `could not list models: ${(e as Error).message}` };
  }
  if (!listed) return { error: `the server at ${provider.baseUrl} has no models; pass --model NAME or load a model first` };
  return { model: listed };
}

/** The built-in tools; MCP servers add theirs to the same registry. */
export function cliRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  // Regexes run in a worker with a deadline: a backtracking pattern cannot freeze the host.
  registerBuiltinTools(registry, { searchFiles: { engine: createWorkerSearchEngine() } });
  return registry;
}

/**
 * The workspace index of the same database (`localharness index`): retrieval before each model call,
 * summaries in compression. Loaded only when there is one.
 */
export async function cliKnowledge(
  options: RunOptions,
  stored: CliSession | undefined,
  workspace: string,
  provider: ChatProvider,
  fs: FileSystemPort,
  bus: EventBus,
): Promise<SessionKnowledge | undefined> {
  const indexed = stored?.knowledgeFor(workspace);
  if (!stored || !indexed || indexed.listFiles().length === 0) return undefined;
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
  return { retriever: index.retriever, summaries: index.summaries };
}

export interface CliBuildInput {
  options: RunOptions;
  config: CliConfig;
  workspace: string;
  provider: ChatProvider;
  makeProvider: (baseUrl: string | undefined, kind?: Kind) => ChatProvider;
  model: string;
  registry: ToolRegistry;
  gate: ApprovalGate;
  fs: FileSystemPort;
  confined: CliSandbox;
  bus: EventBus;
  stored?: CliSession;
  knowledge?: SessionKnowledge;
}

/** Everything buildSession needs, from the flags, the config file and the host's own ports. */
export function cliSessionBuild(input: CliBuildInput): SessionBuild {
  const { options, config, workspace, provider, makeProvider, model, registry, gate, fs, confined, bus, stored, knowledge } = input;
  const planned = options.orchestrator;
  const roots = new WorkspaceRoots([{ name: path.basename(workspace), path: workspace }], fs);
  const notice = (message: string) => bus.emit({ type: 'notice', message });
  return {
    ports: {
      provider,
      model,
      registry,
      gate,
      tracker: new ContextTracker(),
      roots,
      fs,
      // --command-env names join the allow-listed environment commands see.
      runner: confined.runner.withPassEnv(options.commandEnv ?? []),
      ...(confined.sandbox && { sandbox: confined.sandbox }),
      bus,
      systemInfo: { os: `${os.type()} ${os.release()}`, shell: process.env.SHELL ?? '/bin/sh', workspaceFolders: [workspace] },
    },
    settings: {
      maxRounds: options.maxRounds,
      ...(options.think !== undefined && { think: options.think }),
      ...(options.thinkingBudget !== undefined && { thinkingBudget: options.thinkingBudget }),
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
      skills: { userFolder: path.join(os.homedir(), '.localharness', 'skills') },
    },
    ...(stored && {
      history: stored.history,
      recording: stored,
      // A model the setup check (`doctor --db`) found not calling tools natively starts with text-based calls.
      setupChecks: stored.kv,
      ...(stored.contextState && { contextState: stored.contextState }),
      onCompression: (report, built) => stored.onCompression(report, built.context?.state()),
    }),
    ...(knowledge && { knowledge }),
    ...(planned && {
      orchestrator: {
        planner: { provider: makeProvider(endpointUrl(options, planned.plannerBaseUrl, planned.plannerProvider), planned.plannerProvider), model: planned.plannerModel, ...(options.numCtx !== undefined && { contextSize: options.numCtx }) },
        executor: { provider: makeProvider(endpointUrl(options, planned.executorBaseUrl, planned.executorProvider), planned.executorProvider), model: planned.executorModel, ...(options.numCtx !== undefined && { contextSize: options.numCtx }) },
      },
    }),
    notice,
    status: (message) => bus.emit({ type: 'status', message }),
  };
}
