// Builds the AgentSession an editor turn runs on: the same composition as the CLI (rules files, weak-model hooks,
// context-window management, hot context) plus what only the editor has (Restricted Mode, its settings).
// No 'vscode' import, so the integration tests build exactly what the controller builds.
import { AgentSession, type SessionKnowledge } from '../../core/session/agentSession';
import type { EventBus } from '../../core/agent/events';
import type { ApprovalGate } from '../../core/approval/gate';
import type { KeyValuePort } from '../../core/context/calibration';
import type { ContextTracker } from '../../core/context/tracker';
import type { ChatMessage } from '../../core/messages';
import type { CompressionReport } from '../../core/compression/compressor';
import type { ContextState } from '../../core/compression/view';
import type { FileSystemPort, ProcessRunner } from '../../core/ports';
import type { CommandSandboxPort } from '../../core/sandbox/types';
import type { ChatProvider } from '../../core/provider';
import type { SystemInfo } from '../../core/prompt/systemPrompt';
import type { TurnHooksSettingsInput } from '../../core/resilience/settings';
import type { ToolRegistry } from '../../core/tools/registry';
import type { WorkspaceRoots } from '../../core/workspace/workspaceRoots';
import type { HarnessSettings } from '../settings';
import type { VectorCachePort } from '../../core/embeddings';
import type { OrchestratorOptions } from '../../core/orchestrator';
import type { ToolProtocolSetting } from '../../core/toolProtocol/protocol';
import { createToolPreFilter } from '../../indexing/toolPreFilter';
import { allowedRisksFor, restrictionParts, type ToolAccess } from './promptBuilder';

export interface EditorSessionInput {
  provider: ChatProvider;
  model: string;
  settings: HarnessSettings;
  access: ToolAccess;
  registry: ToolRegistry;
  gate: ApprovalGate;
  tracker: ContextTracker;
  roots: WorkspaceRoots;
  fs: FileSystemPort;
  runner: ProcessRunner;
  /** Confines run_command (the chat's sandbox; absent: unconfined). */
  sandbox?: CommandSandboxPort;
  bus: EventBus;
  systemInfo: SystemInfo;
  /** The conversation so far (copied into the session). */
  history: readonly ChatMessage[];
  /** The session this one replaces (settings changed): its eviction point and summary carry over. */
  previous?: AgentSession;
  /** Keeps per-model token calibration between sessions. */
  calibration?: KeyValuePort;
  /** Persists each message the moment it exists (durable sessions). */
  onMessage?: (message: ChatMessage) => void | Promise<void>;
  onMessageContext?: (message: ChatMessage) => void | Promise<void>;
  /** The stored session: truncation evidence is kept with it, so a window reload continues the detection. */
  sessionId?: string;
  /** Every compression, with the session (for its context state and the originals of compressed copies). */
  onCompression?: (report: CompressionReport, session: AgentSession) => void;
  /** Eviction point and summary of a stored session being continued (used when there is no `previous`). */
  initialState?: ContextState;
  /** Embedding vectors between sessions (the session database), for the tool pre-filter. */
  vectors?: VectorCachePort;
  /** The workspace index: retrieval before model calls, index summaries in compression. */
  knowledge?: SessionKnowledge;
  /** Planner and executor (issue 11): each turn of this session is planned, executed step by step, synthesized. */
  orchestrator?: OrchestratorOptions;
  /** The tool protocol to start in, when the setup check decided it (a model that failed the tool probe: xml). */
  toolProtocol?: ToolProtocolSetting;
}

/**
 * The user is in the loop in the editor: a plain answer ends the turn and they reply if it is not done.
 * (Headless runs keep reminding the model to call task_completion; here that would nag after every answer.)
 */
export const EDITOR_AGENT_SETTINGS: TurnHooksSettingsInput = { policy: { maxCompletionReminders: 0 } };

/** The user's `localharness.agent` setting over the editor's defaults (their policy keys win). */
export function editorAgentSettings(user: TurnHooksSettingsInput): TurnHooksSettingsInput {
  return { ...EDITOR_AGENT_SETTINGS, ...user, policy: { ...EDITOR_AGENT_SETTINGS.policy, ...user.policy } };
}

export function createEditorSession(input: EditorSessionInput): AgentSession {
  const { settings, bus } = input;
  const allowedRisks = allowedRisksFor(input.access);
  const previousState = input.previous?.context?.state() ?? input.initialState;
  const session: AgentSession = new AgentSession({
    provider: input.provider,
    model: input.model,
    registry: input.registry,
    gate: input.gate,
    tracker: input.tracker,
    roots: input.roots,
    fs: input.fs,
    runner: input.runner,
    ...(input.sandbox && { sandbox: input.sandbox }),
    bus,
    systemInfo: input.systemInfo,
    extraParts: restrictionParts(input.access),
    maxRounds: settings.maxRounds,
    think: settings.think,
    agentSettings: editorAgentSettings(input.toolProtocol ? { ...settings.agent, toolProtocol: input.toolProtocol } : settings.agent),
    ...(settings.fallbackModels.length && { fallbacks: settings.fallbackModels.map((model) => ({ provider: input.provider, model })) }),
    ...(settings.instructions && { userInstructions: settings.instructions }),
    ...(allowedRisks && { allowedRisks }),
    ...(settings.contextSize > 0 && { contextSize: settings.contextSize }),
    history: [...input.history],
    ...(input.onMessage && { onMessage: input.onMessage }),
    ...(input.onMessageContext && { onMessageContext: input.onMessageContext }),
    ...(input.knowledge && { knowledge: input.knowledge }),
    ...(input.orchestrator && { orchestrator: input.orchestrator }),
    toolSelector: createToolPreFilter({
      provider: input.provider,
      registry: input.registry,
      ...(allowedRisks && { allowedRisks }),
      maxOffered: settings.maxOfferedTools,
      ...(settings.embeddingModel && { embedModel: settings.embeddingModel }),
      ...(input.vectors && { vectors: input.vectors }),
      onCacheError: (err) => bus.emit({ type: 'notice', message: `The embedding cache failed (${errorText(err)}); vectors are kept in memory only.` }),
    }),
    context: {
      settings: settings.context,
      ...(settings.contextSize > 0 && { configuredWindow: settings.contextSize }),
      ...(input.calibration && { calibrationStore: input.calibration }),
      ...(input.sessionId && { sessionId: input.sessionId }),
      ...(previousState && { initialState: previousState }),
      onWarning: (message) => bus.emit({ type: 'notice', message }),
      onStatus: (message) => bus.emit({ type: 'status', message }),
      ...(input.onCompression && { onCompression: (report: CompressionReport) => input.onCompression!(report, session) }),
    },
  });
  return session;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
