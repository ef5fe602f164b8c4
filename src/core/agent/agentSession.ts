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
import { WorkingContextTail } from '../context/workingContext';
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
import { ToolSelector } from '../tools/selection/toolSelector';
import { StableToolSet } from '../tools/selection/stableToolSet';
import { renderToolList } from '../toolProtocol/textPrompt';
import { ToolIndex } from '../toolProtocol/toolIndex';
import { toTextProtocolMessages } from '../toolProtocol/textMessages';

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
  /** Offers only the most relevant tools when they would not fit the window (many MCP tools, small windows). */
  toolSelector?: ToolSelector;
  /** The workspace index: retrieval and compression by summaries. */
  knowledge?: SessionKnowledge;
  /** Two models per turn: a planner plans and answers, an executor runs each step's tools (src/core/orchestrator). */
  orchestrator?: OrchestratorOptions;
  onMessage?: (message: ChatMessage) => void | Promise<void>;
  /** The working context was added to a message already passed to onMessage (just before it was first sent). */
  onMessageContext?: (message: ChatMessage) => void | Promise<void>;
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
  private readonly toolSet: StableToolSet | undefined;
  private readonly tail = new WorkingContextTail();

  constructor(private readonly options: AgentSessionOptions) {
    this.history = options.history ? [...options.history] : [];
    const o = options;
    if (o.toolSelector) this.toolSet = new StableToolSet(o.toolSelector);
    if (o.context) {
      const manager = createContextManager({
        // The compression pass continues the conversation as the server holds it: same options, same request form.
        compressionModel: {
          provider: o.provider,
          model: o.model,
          ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
          ...(o.think !== undefined && { think: o.think }),
          toRequest: (messages) => (this.protocol === 'xml' ? toTextProtocolMessages(messages) : messages),
        },
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
      handOverTools: (names) => this.handOverTools(names),
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
    // The working context goes with the newest message, which no request has carried yet: at the start of a turn
    // the user's message (with the code retrieved for it), later only a changed todo list. Retrieval runs here,
    // inside the turn (after turn_start) and before its first model call.
    const turn = this.turn;
    if (turn) {
      let block: string | undefined;
      if (!turn.started) {
        turn.started = true;
        if (this.options.knowledge?.retriever) await this.retrieve(turn.text, signal);
        block = this.tail.turnStart(this.options.tracker.snapshot(), this.retrievedContext);
      } else {
        block = this.tail.update(this.options.tracker.snapshot());
      }
      if (block) await this.attachContext(block);
    }
    if (!this.context) return messages;
    // In xml mode the tool list travels inside the system prompt, not as definitions.
    const prepared = await this.context.prepareMessages(messages, signal, this.protocol === 'xml' ? [] : tools);
    const status = this.context.status();
    this.options.bus.emit({ type: 'context', used: status.used, window: status.window });
    return prepared;
  };

  /** Adds `block` to the newest message (never sent yet, never measured yet) and records it with the message. */
  private async attachContext(block: string): Promise<void> {
    const newest = this.history[this.history.length - 1];
    if (!newest || newest.role === 'system') return;
    newest.context = newest.context ? `${newest.context}\n\n${block}` : block;
    await this.options.onMessageContext?.(newest);
  }

  private readonly selectTools = async (state: ToolSelectionState, signal: AbortSignal): Promise<ToolDefinition[]> => {
    const window = this.context ? await this.context.windowTokens(signal) : 0;
    // Tools named outright count only in the user's request: a tool result may list every tool there is.
    const offer = await this.toolSet!.offer({ definitions: state.tools, query: selectionQuery(state), namedIn: state.userText, keep: state.usedInTurn, window, signal });
    if (offer.notice) this.options.bus.emit({ type: 'notice', message: offer.notice });
    const tools = offer.filtered ? offer.tools : offer.tools.filter((t) => t.name !== TOOL_SEARCH);
    if (offer.generation !== this.listed?.generation) this.listed = { generation: offer.generation, tools };
    else if (offer.added.length && this.protocol === 'xml') {
      // In xml mode the tool list is part of the system prompt, which must not change: new tools are described
      // at the tail instead, with the newest message.
      const added = tools.filter((t) => offer.added.includes(t.name));
      await this.attachContext(`More tools you can call now (same <tool> format):\n${renderToolList(new ToolIndex(added))}`);
    }
    if (offer.filtered && offer.offered.join('\n') !== this.lastOfferKey) {
      // Said when the set is chosen or grows, not on every request: it holds still in between.
      this.lastOfferKey = offer.offered.join('\n');
      this.options.bus.emit({
        type: 'tools_offered',
        offered: offer.offered,
        total: offer.totalTools,
        tokensAll: offer.tokensAll,
        tokensOffered: offer.tokensOffered,
        ranking: offer.ranking,
      });
    }
    return tools;
  };
  private lastOfferKey: string | undefined;
  /** The tools the system prompt lists in xml mode: the set as chosen, without later additions. */
  private listed: { generation: number; tools: ToolDefinition[] } | undefined;

  /**
   * The registered tools a model asked for by another name or said it lacks: the same name, an MCP server's tool of
   * that name (`server__name`), or the best keyword match; offered from the next request on (added to the set).
   */
  private handOverTools(names: readonly string[]): string[] {
    const definitions = this.toolDefinitions().filter((d) => d.name !== TOOL_SEARCH);
    const searcher = this.options.toolSelector ?? (this.fallbackSearcher ??= new ToolSelector());
    const found = new Set<string>();
    for (const name of names) {
      const hit =
        definitions.find((d) => d.name === name) ??
        definitions.find((d) => d.name.endsWith(`__${name}`)) ??
        searcher.search(definitions, name.replace(/[_.-]+/g, ' '), 1).find((h) => h.score > 0)?.definition;
      if (hit) found.add(hit.name);
    }
    if (found.size) this.options.toolSelector?.requestTools(found);
    return [...found];
  }
  private fallbackSearcher: ToolSelector | undefined;

  get busy(): boolean {
    return this.running;
  }

  /**
   * The system prompt: the same bytes for every request of the session (the working context and retrieved code
   * travel at the tail, with the newest message), so a local server keeps it and the tools in its prompt cache.
   */
  systemPrompt(): string {
    const o = this.options;
    const window = this.context?.status().window;
    const budget = window ? Math.floor(window * SYSTEM_PROMPT_SHARE) : undefined;
    const built = composeSystemPrompt({
      system: o.systemInfo,
      loopBreakingTools: this.toolDefinitions().some((d) => d.name === 'task_completion'),
      toolProtocol: this.protocol,
      // In xml mode the tools are described in this prompt: the ones this request offers.
      tools: this.listed?.tools ?? this.toolDefinitions(),
      ...(this.rules && { rules: this.rules }),
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
  /** The running turn's request, and whether its first request was prepared (retrieval, the working context). */
  private turn: { text: string; started: boolean } | undefined;
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
      this.turn = { text, started: false };
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
