// The editor's call of the one session builder (src/session/buildSession.ts, the CLI calls it too): its settings and
// Restricted Mode turned into the builder's settings. No 'vscode' import, so the integration tests build exactly
// what the controller builds.
import { AgentSession, type SessionKnowledge } from '../../core/session/agentSession';
import type { KeyValuePort } from '../../core/context/calibration';
import type { ChatMessage } from '../../core/messages';
import type { CompressionReport } from '../../core/compression/compressor';
import type { ContextState } from '../../core/compression/view';
import type { TurnHooksSettingsInput } from '../../core/resilience/turnHooksSettings';
import type { HarnessSettings } from '../settings/harnessSettings';
import type { VectorCachePort } from '../../core/embeddings';
import type { OrchestratorOptions } from '../../core/orchestrator';
import { buildSession, type SessionPorts } from '../../session/buildSession';
import { userSkillsFolder } from '../settings/skillsFolder';
import { allowedRisksFor, restrictionParts, type ToolAccess } from './toolAccess';

/** What the editor adds to the ports every host lends a session: its settings, the workspace's trust, its recording. */
export interface EditorSessionInput extends SessionPorts {
  settings: HarnessSettings;
  access: ToolAccess;
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
  /** Planner and executor: each turn of this session is planned, executed step by step, synthesized. */
  orchestrator?: OrchestratorOptions;
  /** Where setup check reports are kept: a model that failed the tool probe starts with text-based calls. */
  setupChecks?: KeyValuePort;
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
  const contextState = input.previous?.context?.state() ?? input.initialState;
  const recording = input.onMessage && {
    onMessage: input.onMessage,
    ...(input.onMessageContext && { onMessageContext: input.onMessageContext }),
    ...(input.sessionId && { id: input.sessionId }),
    ...(input.vectors && { vectors: input.vectors }),
  };
  return buildSession({
    ports: portsOf(input),
    settings: {
      maxRounds: settings.maxRounds,
      think: settings.think,
      thinkingBudget: settings.thinkingBudget,
      ...(settings.contextSize > 0 && { contextSize: settings.contextSize, configuredWindow: settings.contextSize }),
      agent: editorAgentSettings(settings.agent),
      context: settings.context,
      ...(settings.instructions && { instructions: settings.instructions }),
      fallbackModels: settings.fallbackModels,
      maxOfferedTools: settings.maxOfferedTools,
      ...(settings.embeddingModel && { embeddingModel: settings.embeddingModel }),
      ...(allowedRisks && { allowedRisks }),
      extraParts: restrictionParts(input.access),
      // Workspace skills are read like the workspace's rules files (also in Restricted Mode: text, not actions).
      skills: { userFolder: userSkillsFolder(settings) },
    },
    history: input.history,
    ...(recording && { recording }),
    ...(input.calibration && { calibration: input.calibration }),
    ...(input.setupChecks && { setupChecks: input.setupChecks }),
    ...(contextState && { contextState }),
    ...(input.knowledge && { knowledge: input.knowledge }),
    ...(input.orchestrator && { orchestrator: input.orchestrator }),
    ...(input.onCompression && { onCompression: input.onCompression }),
    notice: (message: string) => bus.emit({ type: 'notice', message }),
    status: (message: string) => bus.emit({ type: 'status', message }),
  });
}

function portsOf(input: EditorSessionInput): SessionPorts {
  const { provider, model, registry, gate, tracker, roots, fs, runner, sandbox, bus, systemInfo } = input;
  return { provider, model, registry, gate, tracker, roots, fs, runner, ...(sandbox && { sandbox }), bus, systemInfo };
}

// Kept here for the callers that know it from this module; it lives apart so activation does not load the builder.
export { userSkillsFolder };
