// One conversation: its history, tools, approval gate, context tracker and weak-model helpers, and a way to run
// turns on it. It composes the loop (src/core/agent) with what shapes each request: the fixed system prompt, the
// tools that hold still, the working context at the tail, retrieval, the context-window manager, the weak-model
// hooks and, when configured, the planner and executor. Built by src/builder/buildSession.ts for the CLI and the editor.
import type { ImagePart } from '../images/imagePart';
import type { ChatMessage, MessageAttachment, ToolDefinition } from '../messages';
import { modeNote, modeRefusal, modeRisks, onlyRefusal, type ChatMode } from '../modes/chatMode';
import { SessionSkills } from '../skills/sessionSkills';
import { LOAD_SKILL } from '../skills/loadSkillTool';
import { WorkingContextTail } from '../workingContext/workingContext';
import type { ContextManager } from '../compression/contextManagerApi';
import { composeSystemPrompt } from '../prompt/systemPromptBuilder';
import { loadWorkspaceRules } from '../prompt/rulesFiles';
import { attachToTail, requestTools, tailBlock } from '../prompt/requestLayout';
import { createTurnHooks, type TurnHooksBundle } from '../resilience/turnHooks';
import type { ToolProtocol } from '../toolProtocol/protocolSetting';
import { runTurn, type ToolSelectionState, type TurnConfig, type TurnOutcome } from '../agent/turnRunner';
import { createOrchestrator, type Orchestrator, type SavedRun } from '../orchestrator';
import type { AgentSessionOptions } from './sessionOptions';
import { createSessionContext } from './sessionContext';
import { SessionRetrieval } from './sessionRetrieval';
import { SessionTools } from './sessionTools';

/** What a send carries besides text and attached code: the user's images, and whether the model sees them. */
export interface TurnInputExtras {
  images?: readonly ImagePart[];
  /** The host checked the model sees images (read_file then returns pictures). */
  vision?: boolean;
}

export type { AgentSessionOptions, SessionContextOptions, SessionKnowledge } from './sessionOptions';

/** Share of the window the system prompt may take before its low-priority parts are dropped. */
const SYSTEM_PROMPT_SHARE = 0.3;

export class AgentSession {
  readonly history: ChatMessage[];
  /** The context-window manager: status for the meter, compressNow for the command. */
  readonly context: ContextManager | undefined;
  private running = false;
  private readonly hooks: TurnHooksBundle;
  private rules = '';
  private protocol: ToolProtocol = 'native';
  private readonly orchestrator: Orchestrator | undefined;
  private readonly tools: SessionTools;
  private readonly retrieval: SessionRetrieval | undefined;
  private readonly tail = new WorkingContextTail();
  /** The running turn's request, and whether its first request was prepared (retrieval, the working context). */
  private turn: { text: string; started: boolean; mode: ChatMode; note: string | undefined } | undefined;
  /** The mode of the last turn (Agent after Plan or Ask is said once). */
  private lastMode: ChatMode | undefined;
  private readonly skills: SessionSkills | undefined;
  private modeListed: { base: readonly ToolDefinition[]; mode: ChatMode; tools: readonly ToolDefinition[] } | undefined;
  private lastPromptNotice: string | undefined;
  /** The last system prompt and what it was built from (the other inputs are fixed for the session). */
  private builtPrompt: { key: readonly unknown[]; text: string } | undefined;

  constructor(private readonly options: AgentSessionOptions) {
    const o = options;
    this.history = o.history ? [...o.history] : [];
    this.tools = new SessionTools({ registry: o.registry, bus: o.bus, ...(o.allowedRisks && { allowedRisks: o.allowedRisks }), ...(o.toolSelector && { toolSelector: o.toolSelector }) });
    if (o.skills) this.skills = new SessionSkills(o.registry, o.skills);
    this.context = createSessionContext(o, () => this.protocol, () => this.tools.definitions());
    if (o.knowledge?.retriever) {
      this.retrieval = new SessionRetrieval(o.knowledge, o.bus, (signal) => (this.context ? this.context.windowTokens(signal) : Promise.resolve(o.contextSize ?? 0)));
    }
    this.hooks = createTurnHooks({
      provider: o.provider,
      model: o.model,
      registry: o.registry,
      bus: o.bus,
      ...(o.fallbacks && { fallbacks: o.fallbacks }),
      ...(o.allowedRisks && { allowedRisks: o.allowedRisks }),
      ...(o.agentSettings && { settings: o.agentSettings }),
      ...(o.checkedProtocol && { checkedProtocol: o.checkedProtocol }),
      ...(o.think !== undefined && { think: o.think }),
      ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
      ...(this.context && { replyRoom: () => this.context?.status().free }),
      prepareMessages: (m, s, t) => this.prepareMessages(m, s, t),
      ...(this.tools.filters && { selectTools: (state, signal) => this.selectTools(state, signal) }),
      handOverTools: (names) => this.tools.handOver(names),
      ...(o.sleep && { sleep: o.sleep }),
      openTodos: () => o.tracker.todos().filter((t) => t.status !== 'done').map((t) => t.text),
    });
    if (o.orchestrator) {
      const deps = {
        tracker: o.tracker,
        ...(o.agentSettings && { agentSettings: o.agentSettings }),
        ...(o.checkedProtocol && { checkedProtocol: o.checkedProtocol }),
        ...(o.toolSelector && { toolFilter: o.toolSelector }),
        ...(o.think !== undefined && { think: o.think }),
        ...(o.sleep && { sleep: o.sleep }),
      };
      this.orchestrator = createOrchestrator(o.orchestrator, deps, o.bus, o.registry, o.allowedRisks);
    }
  }

  get busy(): boolean {
    return this.running;
  }

  /** Turns are planned and executed by two models (the orchestrator option). */
  get planned(): boolean {
    return this.orchestrator !== undefined;
  }

  /**
   * The system prompt: the same bytes for every request of the session (the working context and retrieved code
   * travel at the tail, with the newest message), so a local server keeps it and the tools in its prompt cache.
   */
  systemPrompt(): string {
    const o = this.options;
    const window = this.context?.status().window;
    const budget = window ? Math.floor(window * SYSTEM_PROMPT_SHARE) : undefined;
    const definitions = this.tools.definitions();
    // In xml mode the tools are described in this prompt: the set as chosen, of the turn's mode (a user's switch).
    const listed = this.listedFor(this.turn?.mode ?? this.lastMode ?? 'agent');
    const skills = this.skills?.list ?? '';
    // Built again only when one of its inputs changed (tool lists by identity: the same array while the same).
    const key = [this.rules, this.protocol, definitions, listed, budget, skills];
    const last = this.builtPrompt;
    if (last && key.every((v, i) => v === last.key[i])) return last.text;
    const built = composeSystemPrompt({
      system: o.systemInfo,
      loopBreakingTools: definitions.some((d) => d.name === 'task_completion'),
      toolProtocol: this.protocol,
      tools: listed,
      ...(this.rules && { rules: this.rules }),
      ...(skills && { skills }),
      ...(o.userInstructions && { userInstructions: o.userInstructions }),
      ...(o.extraParts && { extraParts: o.extraParts }),
      ...(budget !== undefined && { budgetTokens: budget }),
    });
    if (built.notice && built.notice !== this.lastPromptNotice) {
      this.lastPromptNotice = built.notice;
      o.bus.emit({ type: 'notice', message: built.notice });
    }
    this.builtPrompt = { key, text: built.text };
    return built.text;
  }

  /**
   * `attachments`: code (or MCP resources) the user attached, read just now; they travel on the user message.
   * `mode`: Plan (read tools only) or Ask (no tools) for this turn; Agent when absent.
   * `onlyTools`: a prompt file's `tools`: the only tools this turn offers and runs (besides task_completion and ask_question).
   * `input`: images the user attached and whether the model sees them.
   */
  async send(
    text: string,
    signal: AbortSignal,
    attachments?: readonly MessageAttachment[],
    mode: ChatMode = 'agent',
    onlyTools?: readonly string[],
    input?: TurnInputExtras,
  ): Promise<TurnOutcome> {
    this.extras = input;
    try {
      return await this.runTurnWith(text, signal, undefined, attachments, mode, onlyTools);
    } finally {
      this.extras = undefined;
    }
  }
  /** The current send's images and whether its model sees (read by turnConfig). */
  private extras: TurnInputExtras | undefined;

  /** Continues a stored planned run at its first unfinished step (the session must have an orchestrator). */
  async resumePlan(run: SavedRun, signal: AbortSignal): Promise<TurnOutcome> {
    if (!this.orchestrator) throw new Error('this session has no planner and executor configured, so a planned run cannot continue');
    return this.runTurnWith(run.request, signal, run);
  }

  private async prepareMessages(messages: ChatMessage[], signal: AbortSignal, tools: readonly ToolDefinition[]): Promise<ChatMessage[]> {
    // The tail (src/core/prompt/requestLayout.ts): the working context goes with the newest message, which no
    // request has carried yet: at the start of a turn the user's message (with the code retrieved for it), later
    // only what changed. Retrieval runs here, inside the turn (after turn_start) and before its first model call.
    // The mode's note goes first, with the user's message: the system prompt stays the same bytes.
    const turn = this.turn;
    const tail = this.context !== undefined || this.retrieval !== undefined;
    if (turn) {
      let block: string | undefined;
      if (!turn.started) {
        turn.started = true;
        const retrieved = this.retrieval ? await this.retrieval.forRequest(turn.text, signal) : undefined;
        const working = tail ? this.tail.turnStart(this.options.tracker.snapshot(), retrieved) : undefined;
        block = tailBlock([turn.note, working]);
      } else if (tail) {
        block = this.tail.update(this.options.tracker.snapshot());
      }
      if (block) await this.attachContext(block);
    }
    if (!this.context) return messages;
    // Measured with exactly the definitions the request carries (none in xml mode).
    const prepared = await this.context.prepareMessages(messages, signal, requestTools(this.protocol, tools));
    const status = this.context.status();
    this.options.bus.emit({ type: 'context', used: status.used, window: status.window });
    return prepared;
  }

  private async selectTools(state: ToolSelectionState, signal: AbortSignal): Promise<readonly ToolDefinition[]> {
    const window = this.context ? await this.context.windowTokens(signal) : 0;
    return this.tools.select({ state, window, signal, xml: this.protocol === 'xml', attach: (block) => this.attachContext(block) });
  }

  /** Adds `block` to the newest message (never sent yet, never measured yet) and records it with the message. */
  private async attachContext(block: string): Promise<void> {
    const newest = attachToTail(this.history, block);
    if (newest) await this.options.onMessageContext?.(newest);
  }

  /** The tools the system prompt lists in xml mode, of the mode's risk levels (the same array while the same). */
  private listedFor(mode: ChatMode): readonly ToolDefinition[] {
    const base = this.tools.listed();
    if (mode === 'agent') return base;
    const cached = this.modeListed;
    if (cached && cached.base === base && cached.mode === mode) return cached.tools;
    const allowed = new Set(this.options.registry.definitions(modeRisks(mode, this.options.allowedRisks)).map((d) => d.name));
    const tools = base.filter((d) => allowed.has(d.name));
    this.modeListed = { base, mode, tools };
    return tools;
  }

  private async runTurnWith(text: string, signal: AbortSignal, resume: SavedRun | undefined, attachments?: readonly MessageAttachment[], mode: ChatMode = 'agent', onlyTools?: readonly string[]): Promise<TurnOutcome> {
    if (this.running) throw new Error('a turn is already running in this session');
    this.running = true;
    try {
      const o = this.options;
      // Rules files may change between turns; the protocol is settled once per session.
      this.rules = (await loadWorkspaceRules(o.fs, o.roots.folders, signal).catch(() => ({ text: '' }))).text;
      await this.skills?.refresh(o.fs, o.roots.folders, signal);
      this.protocol = await this.hooks.resolveToolProtocol(signal).catch(() => 'native' as const);
      this.context?.startTurn();
      this.turn = { text, started: false, mode, note: modeNote(mode, this.lastMode) };
      this.lastMode = mode;
      o.toolSelector?.startTurn();
      // The skills the prompt lists are useless without load_skill: offered even when the tools are filtered.
      if (this.skills?.list) o.toolSelector?.requestTools([LOAD_SKILL]);
      // Orchestrated: same history and config; the normal turn is its fallback.
      // Plan and Ask run the single-model loop: the executor would run tools.
      const orchestrator = mode === 'agent' ? this.orchestrator : undefined;
      const turn: (history: ChatMessage[], text: string, config: TurnConfig, signal: AbortSignal) => Promise<TurnOutcome> =
        resume && orchestrator ? (h, _t, c, s) => orchestrator.resume(h, resume, c, s) : orchestrator ? orchestrator.run : runTurn;
      const config = this.turnConfig(mode, onlyTools);
      return await turn(this.history, text, attachments?.length ? { ...config, attachments } : config, signal);
    } finally {
      this.running = false;
      this.turn = undefined;
    }
  }

  private turnConfig(mode: ChatMode, onlyTools?: readonly string[]): TurnConfig {
    const o = this.options;
    const risks = modeRisks(mode, o.allowedRisks);
    const hooks = this.hooks;
    return {
      provider: o.provider,
      model: o.model,
      registry: o.registry,
      gate: o.gate,
      bus: o.bus,
      toolContext: { roots: o.roots, fs: o.fs, runner: o.runner, tracker: o.tracker, ...(o.sandbox && { sandbox: o.sandbox }), ...(this.extras?.vision && { vision: true }) },
      ...(this.extras?.images?.length && { images: this.extras.images }),
      buildSystemPrompt: () => this.systemPrompt(),
      // A plan (or an answer) in text is the turn's result: no reminders to call task_completion or to use tools.
      hooks: mode === 'agent' || !hooks.onTextReply ? hooks : { ...hooks, onTextReply: (state) => hooks.onTextReply!({ ...state, toolsOffered: false }) },
      ...(o.maxRounds !== undefined && { maxRounds: o.maxRounds }),
      ...(risks && { allowedRisks: risks }),
      ...(mode !== 'agent' && { mode }),
      ...(onlyTools && { onlyTools }),
      ...((mode !== 'agent' || onlyTools) && {
        refuseCall: (name: string) => {
          const tool = o.registry.get(name);
          return modeRefusal(mode, tool ?? (mode === 'ask' ? { name, risk: 'read' } : undefined)) ?? (tool && onlyTools ? onlyRefusal(tool, onlyTools) : undefined);
        },
      }),
      ...(o.think !== undefined && { think: o.think }),
      ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
      ...(o.onMessage && { onMessage: o.onMessage }),
    };
  }
}
