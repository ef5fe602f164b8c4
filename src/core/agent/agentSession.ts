// One conversation: its history, tools, approval gate, context tracker and weak-model helpers, and a way to
// run turns on it. The CLI and the editor both build one of these; everything else is wiring.
import type { ChatMessage, ToolDefinition } from '../messages';
import type { ChatProvider } from '../provider';
import type { ApprovalGate } from '../approval/gate';
import type { ToolRegistry } from '../tools/registry';
import type { RiskLevel, Tool } from '../tools/tool';
import type { WorkspaceRoots } from '../tools/workspaceRoots';
import type { FileSystemPort, ProcessRunner } from '../ports';
import type { CommandSandboxPort } from '../sandbox/types';
import type { ContextTracker } from '../context/tracker';
import { renderHotContext } from '../context/hotContext';
import type { PromptPart } from '../prompt/parts';
import type { SystemInfo } from '../prompt/systemPrompt';
import { composeSystemPrompt } from '../prompt/promptBuilder';
import { loadWorkspaceRules } from '../prompt/rulesFiles';
import { createTurnHooks, type TurnHooksBundle } from '../resilience/turnHooks';
import type { TurnHooksSettingsInput } from '../resilience/settings';
import type { ModelEndpoint } from '../resilience/failureText';
import type { ToolProtocol } from '../toolProtocol/protocol';
import type { EventBus } from './events';
import { runTurn, type ToolSelectionState, type TurnConfig, type TurnOutcome } from './turnRunner';
import { errorText } from './toolExecutor';
import { createContextManager, type ContextManager, type ContextManagerOptions } from '../context/contextManager';
import type { IndexSummaryPort, KnowledgeRetriever, Retrieval } from '../knowledge/types';
import { renderRetrievedContext } from '../knowledge/renderRetrieval';
import { estimateTokens } from '../tokens';
import { createOrchestrator, type Orchestrator, type OrchestratorOptions, type SavedRun } from '../orchestrator';

/** Context-window options the session passes to its manager (provider, model and tools come from the session). */
export type SessionContextOptions = Omit<ContextManagerOptions, 'provider' | 'model' | 'tools' | 'contextSize'>;

/** The tool pre-filter as the session uses it (src/core/tools/selection/toolSelector.ts). */
export interface ToolPreFilter {
  startTurn(): void;
  select(input: {
    definitions: readonly ToolDefinition[];
    query: string;
    keep: ReadonlySet<string>;
    window: number;
    signal: AbortSignal;
  }): Promise<{ tools: ToolDefinition[]; filtered: boolean; totalTools: number; offered: string[]; tokensAll: number; tokensOffered: number; ranking: string; notice?: string }>;
}

/** The tool that asks the pre-filter for more tools; pointless when every tool is offered anyway. */
const TOOL_SEARCH = 'tool_search';

/** Share of the window the system prompt may take before its low-priority parts are dropped. */
const SYSTEM_PROMPT_SHARE = 0.3;
/** Share of the window the retrieved code may take, and a cap: a small window keeps room for the work itself. */
const RETRIEVAL_SHARE = 0.15;
const RETRIEVAL_MAX_TOKENS = 1500;

/** The workspace index as a session uses it (issue 10): retrieval before the model calls, summaries in compression. */
export interface SessionKnowledge {
  /** Asked once per turn with the user's request; its chunks become the "retrieved context" prompt part. */
  retriever?: KnowledgeRetriever;
  /** Compression replaces a long read_file result by its file's index summary before any LLM pass. */
  summaries?: IndexSummaryPort;
  /** Chunks to retrieve (the retriever's default when absent). */
  k?: number;
}

export interface AgentSessionOptions {
  provider: ChatProvider;
  model: string;
  registry: ToolRegistry;
  gate: ApprovalGate;
  tracker: ContextTracker;
  roots: WorkspaceRoots;
  fs: FileSystemPort;
  runner: ProcessRunner;
  /** Confines run_command (absent: commands run unconfined, as before). */
  sandbox?: CommandSandboxPort;
  bus: EventBus;
  systemInfo: SystemInfo;
  userInstructions?: string;
  /** Host-specific prompt parts (e.g. the editor's Restricted Mode note). */
  extraParts?: readonly PromptPart[];
  maxRounds?: number;
  allowedRisks?: readonly RiskLevel[];
  think?: boolean;
  contextSize?: number;
  /** Weak-model behaviour (tool protocol, nudges, retries); see src/core/resilience/settings.ts. */
  agentSettings?: TurnHooksSettingsInput;
  fallbacks?: readonly ModelEndpoint[];
  /** Compression, eviction and the budget gate (issue: context window truth). */
  context?: SessionContextOptions;
  /** Offers each request only the most relevant tools when they would not fit (many MCP tools, small windows). */
  toolSelector?: ToolPreFilter;
  /** The workspace index: retrieval and compression by summaries. */
  knowledge?: SessionKnowledge;
  /** Two models per turn: a planner plans and answers, an executor runs each step's tools (src/core/orchestrator). */
  orchestrator?: OrchestratorOptions;
  onMessage?: (message: ChatMessage) => void | Promise<void>;
  history?: ChatMessage[];
  /** Injected for tests (retry backoff). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export class AgentSession {
  readonly history: ChatMessage[];
  private running = false;
  private readonly hooks: TurnHooksBundle;
  private rules = '';
  private protocol: ToolProtocol = 'native';
  /** The context-window manager: status for the meter, compressNow for the command. */
  readonly context: ContextManager | undefined;
  private readonly orchestrator: Orchestrator | undefined;

  constructor(private readonly options: AgentSessionOptions) {
    this.history = options.history ? [...options.history] : [];
    const o = options;
    if (o.context) {
      const manager = createContextManager({
        ...o.context,
        provider: o.provider,
        model: o.model,
        ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
        ...(o.knowledge?.summaries && { summaries: o.knowledge.summaries }),
        // In xml mode the tool list lives in the system prompt, not in the request.
        tools: () => (this.protocol === 'xml' ? [] : this.toolDefinitions()),
        callBudget: true,
        onWindowChange: (change) => o.bus.emit({ type: 'context_window', ...change }),
        onCompression: (report) => {
          o.bus.emit({
            type: 'compression',
            method: report.method,
            reason: report.reason,
            tokensBefore: report.tokensBefore,
            tokensAfter: report.tokensAfter,
            messagesAffected: report.messagesAffected,
            window: report.window,
            targetMet: report.targetMet,
            modelCalls: report.modelCalls ?? 0,
            budget: report.budget ?? { used: report.modelCalls ?? 0, limit: 0 },
            ...(report.skipped && { skipped: report.skipped }),
            ...(report.indexSummaries && { indexTokensSaved: report.indexSummaries.tokensSaved }),
          });
          o.context?.onCompression?.(report);
        },
      });
      this.context = manager;
      o.bus.on((e) => {
        if (e.type === 'usage') manager.recordUsage(e);
      });
    }
    this.hooks = createTurnHooks({
      provider: o.provider,
      model: o.model,
      registry: o.registry,
      bus: o.bus,
      ...(o.fallbacks && { fallbacks: o.fallbacks }),
      ...(o.allowedRisks && { allowedRisks: o.allowedRisks }),
      ...(o.agentSettings && { settings: o.agentSettings }),
      ...(o.think !== undefined && { think: o.think }),
      ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
      ...((this.context || o.knowledge?.retriever) && { prepareMessages: this.prepareMessages }),
      ...(o.toolSelector && { selectTools: this.selectTools }),
      ...(o.sleep && { sleep: o.sleep }),
      openTodos: () => o.tracker.todos().filter((t) => t.status !== 'done').map((t) => t.text),
    });
    if (o.orchestrator) {
      this.orchestrator = createOrchestrator(
        o.orchestrator,
        {
          tracker: o.tracker,
          ...(o.agentSettings && { agentSettings: o.agentSettings }),
          ...(o.toolSelector && { toolFilter: o.toolSelector }),
          ...(o.think !== undefined && { think: o.think }),
          ...(o.sleep && { sleep: o.sleep }),
        },
        o.bus,
        o.registry,
        o.allowedRisks,
      );
    }
  }

  private readonly prepareMessages = async (messages: ChatMessage[], signal: AbortSignal, tools: readonly ToolDefinition[]): Promise<ChatMessage[]> => {
    // Retrieval runs here, inside the turn (after turn_start) and before its first model call; the system
    // prompt that was just built is rebuilt once with the retrieved code in it.
    if (this.turn && !this.turn.retrieved && this.options.knowledge?.retriever) {
      this.turn.retrieved = true;
      if ((await this.retrieve(this.turn.text, signal)) && messages[0]?.role === 'system') {
        messages = [{ ...messages[0], content: this.systemPrompt() }, ...messages.slice(1)];
      }
    }
    if (!this.context) return messages;
    // In xml mode the tool list travels inside the system prompt, not as definitions.
    const prepared = await this.context!.prepareMessages(messages, signal, this.protocol === 'xml' ? [] : tools);
    const status = this.context!.status();
    this.options.bus.emit({ type: 'context', used: status.used, window: status.window });
    return prepared;
  };

  private readonly selectTools = async (state: ToolSelectionState, signal: AbortSignal): Promise<ToolDefinition[]> => {
    const selector = this.options.toolSelector!;
    const window = this.context ? (await this.context.windowTokens(signal)) : 0;
    const selection = await selector.select({ definitions: state.tools, query: selectionQuery(state), keep: state.usedInTurn, window, signal });
    if (selection.notice) this.options.bus.emit({ type: 'notice', message: selection.notice });
    if (!selection.filtered) {
      this.offeredTools = selection.tools.filter((t) => t.name !== TOOL_SEARCH);
      return this.offeredTools;
    }
    this.offeredTools = selection.tools;
    this.options.bus.emit({
      type: 'tools_offered',
      offered: selection.offered,
      total: selection.totalTools,
      tokensAll: selection.tokensAll,
      tokensOffered: selection.tokensOffered,
      ranking: selection.ranking,
    });
    return selection.tools;
  };

  get busy(): boolean {
    return this.running;
  }

  /** The system prompt as the next model call would see it (the panel's "what the model knows"). */
  systemPrompt(): string {
    const o = this.options;
    const window = this.context?.status().window;
    const budget = window ? Math.floor(window * SYSTEM_PROMPT_SHARE) : undefined;
    const built = composeSystemPrompt({
      system: o.systemInfo,
      loopBreakingTools: this.toolDefinitions().some((d) => d.name === 'task_completion'),
      toolProtocol: this.protocol,
      // In xml mode the tools are described in this prompt: the ones this request offers.
      tools: this.offeredTools ?? this.toolDefinitions(),
      hotContext: renderHotContext(o.tracker.snapshot()),
      ...(this.rules && { rules: this.rules }),
      ...(this.retrievedContext && { retrievedContext: this.retrievedContext }),
      ...(o.userInstructions && { userInstructions: o.userInstructions }),
      ...(o.extraParts && { extraParts: o.extraParts }),
      ...(budget !== undefined && { budgetTokens: budget }),
    });
    if (built.notice && built.notice !== this.lastPromptNotice) {
      this.lastPromptNotice = built.notice;
      o.bus.emit({ type: 'notice', message: built.notice });
    }
    return built.text;
  }
  private lastPromptNotice: string | undefined;

  /**
   * The registry's definitions (of the allowed risks), as the same array for as long as the registry holds the
   * same tools: the context manager's meter caches the tools' token estimate by array identity, and a fresh
   * array every round re-estimated every definition before every request. Read-only for callers.
   */
  private toolDefinitions(): ToolDefinition[] {
    const o = this.options;
    const tools = o.registry.list((t) => !o.allowedRisks || o.allowedRisks.includes(t.risk));
    const cached = this.definitionsFor;
    if (cached && cached.tools.length === tools.length && cached.tools.every((t, i) => t === tools[i])) return cached.definitions;
    const definitions = o.registry.definitions(o.allowedRisks);
    this.definitionsFor = { tools, definitions };
    return definitions;
  }
  private definitionsFor: { tools: readonly Tool[]; definitions: ToolDefinition[] } | undefined;
  /** What the pre-filter chose for the next request (the prompt describes these in xml mode). */
  private offeredTools: ToolDefinition[] | undefined;
  /** The running turn's request, and whether the index was asked for it (once per turn). */
  private turn: { text: string; retrieved: boolean } | undefined;
  /** The retrieved-context part as rendered for the latest turn (kept for the panel between turns). */
  private retrievedContext: string | undefined;
  /** Retriever notices already shown ("retrieval uses keywords" is news once, not every turn). */
  private readonly saidNotices = new Set<string>();

  /** Asks the index for the request; true when there is retrieved context to add. Never fails the turn. */
  private async retrieve(query: string, signal: AbortSignal): Promise<boolean> {
    const knowledge = this.options.knowledge!;
    const bus = this.options.bus;
    this.retrievedContext = undefined;
    let retrieval: Retrieval;
    try {
      retrieval = await knowledge.retriever!.retrieve(query, { ...(knowledge.k !== undefined && { k: knowledge.k }), signal });
    } catch (err) {
      if (signal.aborted) throw err;
      bus.emit({ type: 'notice', message: `The workspace index could not be searched (${errorText(err)}); this turn goes on without retrieved code.` });
      return false;
    }
    const text = retrieval.items.length ? renderRetrievedContext(retrieval, await this.retrievalBudget(signal)).trim() : '';
    if (text) this.retrievedContext = text;
    const notice = retrieval.notice && !this.saidNotices.has(retrieval.notice) ? retrieval.notice : undefined;
    if (notice) this.saidNotices.add(notice);
    if (retrieval.items.length || notice) {
      bus.emit({
        type: 'retrieval',
        query: retrieval.query,
        method: retrieval.method,
        items: retrieval.items.map((c) => ({
          rank: c.rank,
          file: c.file,
          startLine: c.startLine,
          endLine: c.endLine,
          score: c.score,
          why: c.why,
          ...(c.name !== undefined && { name: c.name }),
          neighbours: c.neighbours.length,
        })),
        tokens: text ? estimateTokens(text) : 0,
        ...(notice && { notice }),
      });
    }
    return text !== '';
  }

  private async retrievalBudget(signal: AbortSignal): Promise<number> {
    const window = this.context ? await this.context.windowTokens(signal).catch(() => 0) : (this.options.contextSize ?? 0);
    return window > 0 ? Math.min(RETRIEVAL_MAX_TOKENS, Math.floor(window * RETRIEVAL_SHARE)) : RETRIEVAL_MAX_TOKENS;
  }

  async send(text: string, signal: AbortSignal): Promise<TurnOutcome> {
    return this.runTurnWith(text, signal, undefined);
  }

  /** Turns are planned and executed by two models (the orchestrator option). */
  get planned(): boolean {
    return this.orchestrator !== undefined;
  }

  /** Continues a stored planned run at its first unfinished step (the session must have an orchestrator). */
  async resumePlan(run: SavedRun, signal: AbortSignal): Promise<TurnOutcome> {
    if (!this.orchestrator) throw new Error('this session has no planner and executor configured, so a planned run cannot continue');
    return this.runTurnWith(run.request, signal, run);
  }

  private async runTurnWith(text: string, signal: AbortSignal, resume: SavedRun | undefined): Promise<TurnOutcome> {
    if (this.running) throw new Error('a turn is already running in this session');
    this.running = true;
    try {
      const o = this.options;
      // Rules files may change between turns; the protocol is settled once per session.
      this.rules = (await loadWorkspaceRules(o.fs, o.roots.folders, signal).catch(() => ({ text: '' }))).text;
      this.protocol = await this.hooks.resolveToolProtocol(signal).catch(() => 'native' as const);
      this.context?.startTurn();
      this.offeredTools = undefined;
      this.turn = { text, retrieved: false };
      this.retrievedContext = undefined; // the last turn's code is not this request's
      o.toolSelector?.startTurn();
      // Orchestrated: same history and config; the normal turn is its fallback.
      const orchestrator = this.orchestrator;
      const turn: (history: ChatMessage[], text: string, config: TurnConfig, signal: AbortSignal) => Promise<TurnOutcome> =
        resume && orchestrator ? (h, _t, c, s) => orchestrator.resume(h, resume, c, s) : orchestrator ? orchestrator.run : runTurn;
      return await turn(
        this.history,
        text,
        {
          provider: o.provider,
          model: o.model,
          registry: o.registry,
          gate: o.gate,
          bus: o.bus,
          toolContext: { roots: o.roots, fs: o.fs, runner: o.runner, tracker: o.tracker, ...(o.sandbox && { sandbox: o.sandbox }) },
          buildSystemPrompt: () => this.systemPrompt(),
          hooks: this.hooks,
          ...(o.maxRounds !== undefined && { maxRounds: o.maxRounds }),
          ...(o.allowedRisks && { allowedRisks: o.allowedRisks }),
          ...(o.think !== undefined && { think: o.think }),
          ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
          ...(o.onMessage && { onMessage: o.onMessage }),
        },
        signal,
      );
    } finally {
      this.running = false;
      this.turn = undefined;
    }
  }
}

/** What the pre-filter ranks tools against: the user's request and the latest messages (briefly). */
function selectionQuery(state: ToolSelectionState): string {
  const recent = state.history
    .slice(-3)
    .filter((m) => m.role !== 'system')
    .map((m) => [m.content.slice(0, 400), ...(m.toolCalls ?? []).map((c) => c.name)].join(' '));
  return [state.userText, ...recent].join('\n');
}
