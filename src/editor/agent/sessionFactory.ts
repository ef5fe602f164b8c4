// The session a chat's turns run on: built through the one session builder from the editor's composition root
// (editorPorts.ts) when the build's key changes (rebuildKey.ts), kept otherwise (the conversation carries over to a
// rebuilt session). Owns what lives as long as the chat: the approval gate with its rules, the command runner and
// sandbox, the history between sessions.
import type { ApprovalAsker, ApprovalGate, ApprovalRule } from '../../core/approval/gate';
import type { KeyValuePort } from '../../core/window/calibration';
import type { ContextTracker } from '../../core/workingContext/tracker';
import type { ContextState } from '../../core/compression/view';
import type { EventBus } from '../../core/agent/events';
import type { ChatMessage } from '../../core/messages';
import type { FileSystemPort, ProcessRunner } from '../../core/ports';
import type { AgentSession, SessionKnowledge } from '../../core/session/agentSession';
import type { RiskLevel } from '../../core/tools/tool';
import type { OrchestratorOptions } from '../../core/orchestrator';
import type { SandboxLauncher } from '../../node/sandbox/sandboxLauncher';
import { describeRule, type WorkspaceRuleStore } from '../approval/rules';
import type { ChatStateStore } from '../chat/chatStateStore';
import { ChatCommands } from '../engine/chatCommands';
import type { TurnEngine } from '../engine/engineLoader';
import type { Logger } from '../log/logger';
import { providerSettingsOf, type HarnessSettings } from '../settings/harnessSettings';
import type { ChatTools } from './chatTools';
import { editorSessionBuild, type ChatServices, type EditorTurn } from './editorPorts';
import { rebuildKey } from './rebuildKey';

export interface SessionFactoryDeps {
  store: ChatStateStore;
  log: Logger;
  bus: EventBus;
  /** The chat's tool registry, made at activation (MCP servers add their tools to it). */
  tools: ChatTools;
  rules: WorkspaceRuleStore;
  ask: ApprovalAsker;
  fs: FileSystemPort;
  /** Builds the terminal runner once the fallback (child-process) runner and the sandbox launcher are loaded. */
  createRunner: (fallback: ProcessRunner, sandbox: SandboxLauncher, passEnv: () => readonly string[]) => ProcessRunner;
  /** Per-model memories between sessions (the editor's global state): token calibration, setup check reports. */
  calibration?: KeyValuePort;
  knowledge?: SessionKnowledge;
  /** The conversation's tracker (replaced on New Chat). */
  tracker: () => ContextTracker;
}

/** Everything a turn decided before it needs a session. */
export interface SessionRequest extends Omit<EditorTurn, 'orchestrator'> {
  engine: TurnEngine;
  /** Identifies the planner and executor chosen, for the rebuild key. */
  plannerKey: string | null;
  /** Built only when a new session is needed (it may build providers). */
  orchestrator: () => Promise<OrchestratorOptions | undefined>;
}

export class SessionFactory {
  private history: ChatMessage[] = [];
  private sessionRules: ApprovalRule[] = [];
  /** The gate reads these on every check, so each turn's settings apply to the one gate of the chat. */
  private readonly policyRules: ApprovalRule[] = [];
  private readonly autoApprove: RiskLevel[] = [];
  /** Extra sensitive-path patterns from the user's settings; the gate re-reads them on every check. */
  private readonly sensitivePatterns: string[] = [];
  private gate: ApprovalGate | undefined;
  private agent: { key: string; session: AgentSession } | undefined;
  /** Eviction point and summary of a stored session opened from the History, for the next session built. */
  private restoredState: ContextState | undefined;
  private readonly commands: ChatCommands;

  constructor(private readonly deps: SessionFactoryDeps) {
    this.commands = new ChatCommands({
      createRunner: deps.createRunner,
      extraPatterns: () => this.sensitivePatterns,
      notice: (message) => {
        deps.log.warn(message);
        deps.store.notice(message);
      },
    });
  }

  /** The session the last turn ran on (undefined before the first turn of a chat). */
  get current(): AgentSession | undefined {
    return this.agent?.session;
  }

  /** Something the session was built from changed (API key, trust, folders): the next turn builds a new one. */
  invalidate(reason: string): void {
    if (this.agent) this.agent = { ...this.agent, key: `stale: ${reason}` };
  }

  /** A fresh conversation (New Chat, or a stored one): its history and context state, no session rules yet. */
  reset(history: readonly ChatMessage[], state: ContextState | undefined): void {
    this.history = [...history];
    this.restoredState = state;
    this.sessionRules = [];
    this.gate = undefined;
    this.agent = undefined;
  }

  /** The session for this turn: the current one when nothing it was built from changed. */
  async sessionFor(request: SessionRequest): Promise<AgentSession> {
    const { engine, settings, access, folders, plannerKey, orchestrator, ...turn } = request;
    const commands = this.commands.forTurn(engine, settings.sandbox, access === 'all', settings.commandEnv);
    const chat: ChatServices = {
      registry: await this.deps.tools.whole(),
      gate: this.gateFor(engine, settings),
      tracker: this.deps.tracker(),
      fs: this.deps.fs,
      runner: commands.runner,
      sandbox: commands.sandbox,
      bus: this.deps.bus,
      ...(this.deps.calibration && { memories: this.deps.calibration }),
      ...(this.deps.knowledge && { knowledge: this.deps.knowledge }),
      panel: this.deps.store,
    };
    const contextState = this.agent?.session.context?.state() ?? this.restoredState;
    const build = editorSessionBuild(chat, { ...turn, settings, access, folders }, { history: this.history, ...(contextState && { contextState }) });
    // The planner's providers are made only for a new session; its choice is in the key.
    const key = rebuildKey(build, { server: providerSettingsOf(settings), folders, planner: plannerKey });
    if (this.agent?.key === key) return this.agent.session;
    const planned = await orchestrator();
    const session = engine.buildSession(planned ? { ...build, orchestrator: planned } : build);
    this.restoredState = undefined;
    if (this.agent) this.deps.log.info('settings changed: the conversation continues on a new session');
    this.agent = { key, session };
    this.history = session.history;
    return session;
  }

  /** The chat's one gate, with this turn's rules, auto-approved risks and sensitive paths. */
  private gateFor(engine: TurnEngine, settings: HarnessSettings): ApprovalGate {
    this.policyRules.splice(0, this.policyRules.length, ...this.sessionRules, ...this.deps.rules.list(), ...settings.rules);
    this.autoApprove.splice(0, this.autoApprove.length, ...settings.autoApprove);
    this.sensitivePatterns.splice(0, this.sensitivePatterns.length, ...settings.sensitivePatterns);
    this.gate ??= new engine.ApprovalGate({
      policy: { autoApprove: this.autoApprove, rules: this.policyRules },
      sensitivePatterns: this.sensitivePatterns,
      ask: this.deps.ask,
      onRemember: (rule, scope) => this.remember(rule, scope),
    });
    const unusable = this.gate.sensitivePaths().ignored;
    if (unusable.length) {
      const listed = unusable.map((p) => `"${p}"`).join(', ');
      this.deps.log.warn(`settings: localharness.approval.sensitivePatterns: ignored ${listed} (empty, negated or not a valid glob; the built-in patterns cannot be removed)`);
    }
    return this.gate;
  }

  private remember(rule: ApprovalRule, scope: 'session' | 'workspace'): void {
    // Applies at once (the gate re-reads the list on every check) and in later turns.
    this.policyRules.push(rule);
    if (scope === 'session') {
      this.sessionRules.push(rule);
      this.deps.log.info(`approval rule for this session: ${describeRule(rule)}`);
      return;
    }
    this.deps.rules.add(rule).then(
      () => this.deps.log.info(`approval rule saved for this workspace: ${describeRule(rule)}`),
      (err: unknown) => this.deps.log.error('could not save the approval rule', err),
    );
  }
}
