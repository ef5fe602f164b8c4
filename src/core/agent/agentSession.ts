// One conversation: its history, tools, approval gate and context tracker, and a way to run turns on it.
// The CLI and the editor both build one of these; everything else is wiring.
import type { ChatMessage } from '../messages';
import type { ChatProvider } from '../provider';
import type { ApprovalGate } from '../approval/gate';
import type { ToolRegistry } from '../tools/registry';
import type { RiskLevel } from '../tools/tool';
import type { WorkspaceRoots } from '../tools/workspaceRoots';
import type { FileSystemPort, ProcessRunner } from '../ports';
import type { ContextTracker } from '../context/tracker';
import { renderHotContext } from '../context/hotContext';
import { assemblePrompt } from '../prompt/parts';
import { defaultPromptParts, type SystemInfo } from '../prompt/systemPrompt';
import type { EventBus } from './events';
import { runTurn, type TurnHooks, type TurnOutcome } from './turnRunner';

export interface AgentSessionOptions {
  provider: ChatProvider;
  model: string;
  registry: ToolRegistry;
  gate: ApprovalGate;
  tracker: ContextTracker;
  roots: WorkspaceRoots;
  fs: FileSystemPort;
  runner: ProcessRunner;
  bus: EventBus;
  systemInfo: SystemInfo;
  userInstructions?: string;
  maxRounds?: number;
  allowedRisks?: readonly RiskLevel[];
  think?: boolean;
  contextSize?: number;
  hooks?: TurnHooks;
  /** Builds the system prompt; defaults to the built-in parts plus hot context. */
  buildSystemPrompt?: () => string;
  onMessage?: (message: ChatMessage) => void | Promise<void>;
  history?: ChatMessage[];
}

export class AgentSession {
  readonly history: ChatMessage[];
  private running = false;

  constructor(private readonly options: AgentSessionOptions) {
    this.history = options.history ? [...options.history] : [];
  }

  get busy(): boolean {
    return this.running;
  }

  systemPrompt(): string {
    if (this.options.buildSystemPrompt) return this.options.buildSystemPrompt();
    const o = this.options;
    const loopBreakingTools = o.registry.list().some((t) => t.loopBreaking);
    const parts = defaultPromptParts(o.systemInfo, {
      hotContext: renderHotContext(o.tracker.snapshot()),
      loopBreakingTools,
      ...(o.userInstructions && { userInstructions: o.userInstructions }),
    });
    return assemblePrompt(parts).text;
  }

  async send(text: string, signal: AbortSignal): Promise<TurnOutcome> {
    if (this.running) throw new Error('a turn is already running in this session');
    this.running = true;
    try {
      const o = this.options;
      return await runTurn(
        this.history,
        text,
        {
          provider: o.provider,
          model: o.model,
          registry: o.registry,
          gate: o.gate,
          bus: o.bus,
          toolContext: { roots: o.roots, fs: o.fs, runner: o.runner, tracker: o.tracker },
          buildSystemPrompt: () => this.systemPrompt(),
          ...(o.maxRounds !== undefined && { maxRounds: o.maxRounds }),
          ...(o.allowedRisks && { allowedRisks: o.allowedRisks }),
          ...(o.think !== undefined && { think: o.think }),
          ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
          ...(o.hooks && { hooks: o.hooks }),
          ...(o.onMessage && { onMessage: o.onMessage }),
        },
        signal,
      );
    } finally {
      this.running = false;
    }
  }
}
