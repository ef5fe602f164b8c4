// The one session builder: the CLI and the editor hand it their ports and their settings, and get the AgentSession
// every turn runs on. What a session is made of — weak-model settings, fallbacks, the context-window manager and its
// stored state, the tool pre-filter with its embedder and vector cache, the workspace index, the planner and
// executor, recording — is wired here once, so a capability added for one host is there for the other.
import type { CompressionReport } from '../core/compression/compressor';
import type { ContextState } from '../core/compression/view';
import type { KeyValuePort } from '../core/window/calibration';
import type { ContextSettingsInput } from '../core/window/contextSettings';
import type { VectorCachePort } from '../core/embeddings';
import type { ChatMessage } from '../core/messages';
import type { OrchestratorOptions } from '../core/orchestrator';
import type { PromptPart } from '../core/prompt/parts';
import type { TurnHooksSettingsInput } from '../core/resilience/turnHooksSettings';
import { AgentSession, type AgentSessionOptions, type SessionKnowledge } from '../core/session/agentSession';
import type { RiskLevel } from '../core/tools/tool';
import type { SessionSkillsOptions } from '../core/skills/sessionSkills';
import { createToolPreFilter } from '../indexing/toolPreFilter';
import { checkedToolProtocol, recallPromptSpeed } from '../core/setupCheck/memory';
import { errorMessage } from '../shared/format';
import { DEFAULT_THINKING_BUDGET, withThinkingBudget } from '../core/agent/thinkingBudget';
import { inCacheSlot } from '../core/cacheSlot';

/** What the host owns and lends the session: the model, the tools and approval, the workspace, the event bus. */
export type SessionPorts = Pick<
  AgentSessionOptions,
  'provider' | 'model' | 'registry' | 'gate' | 'tracker' | 'roots' | 'fs' | 'runner' | 'sandbox' | 'bus' | 'systemInfo'
>;

/** The settings both hosts have, whatever they are called there (CLI flags and config file, editor settings). */
export interface SessionSettings {
  maxRounds?: number;
  think?: boolean;
  /** Most thinking tokens per model call (default 2000; 0: no budget): see src/core/agent/thinkingBudget.ts. */
  thinkingBudget?: number;
  /** The context size sent with every request (Ollama num_ctx). */
  contextSize?: number;
  /** The user's window, for servers that do not report theirs. */
  configuredWindow?: number;
  agent?: TurnHooksSettingsInput;
  context?: ContextSettingsInput;
  instructions?: string;
  fallbackModels?: readonly string[];
  /** Most tools per request when not all fit (default 15). */
  maxOfferedTools?: number;
  /** Embedding model for the tool pre-filter (empty: keyword ranking). */
  embeddingModel?: string;
  /** Risk levels the model may use at all (Restricted Mode: read only). */
  allowedRisks?: readonly RiskLevel[];
  /** Host-specific prompt parts (the editor's Restricted Mode note). */
  extraParts?: readonly PromptPart[];
  /** Skills from the workspace and the user's folder (absent: none are looked for). */
  skills?: SessionSkillsOptions;
}

/** Where the turns are recorded (the CLI's --db, the editor's History): each message the moment it exists. */
export interface SessionRecording {
  /** The stored session (its truncation evidence is kept with it). */
  id?: string;
  onMessage(message: ChatMessage): void | Promise<void>;
  onMessageContext?(message: ChatMessage): void | Promise<void>;
  /** Calibration, remembered windows and truncation evidence. */
  kv?: KeyValuePort;
  /** Embedding vectors for the tool pre-filter. */
  vectors?: VectorCachePort;
}

export interface SessionBuild {
  ports: SessionPorts;
  settings: SessionSettings;
  /** The conversation so far (copied into the session). */
  history?: readonly ChatMessage[];
  recording?: SessionRecording;
  /** Calibration store when nothing is recorded (the editor's global state). */
  calibration?: KeyValuePort;
  /** Where setup check reports are kept (the editor's global state, the CLI's --db): a model that failed the tool probe starts with text-based calls. */
  setupChecks?: KeyValuePort;
  /** Eviction point and summary the context manager starts from. */
  contextState?: ContextState;
  knowledge?: SessionKnowledge;
  orchestrator?: OrchestratorOptions;
  /** Every compression, with the session it happened in. */
  onCompression?: (report: CompressionReport, session: AgentSession) => void;
  /** Warnings for the user (a server cutting prompts, a failing cache): the hosts show them as notices. */
  notice(message: string): void;
  status?(message: string): void;
}

export function buildSession(build: SessionBuild): AgentSession {
  const { ports, settings: s, recording } = build;
  const calibration = recording?.kv ?? build.calibration;
  // Every model call of the session (rounds, planner, compression pass) keeps to the thinking budget. The chat's own
  // calls keep to its cache slot; the planner and executor are side work (src/core/cacheSlot.ts).
  const provider = withThinkingBudget(inCacheSlot(ports.provider, 'chat'), s.thinkingBudget ?? DEFAULT_THINKING_BUDGET);
  const orchestrator = build.orchestrator && {
    ...build.orchestrator,
    planner: { ...build.orchestrator.planner, provider: inCacheSlot(build.orchestrator.planner.provider, 'side') },
    executor: { ...build.orchestrator.executor, provider: inCacheSlot(build.orchestrator.executor.provider, 'side') },
  };
  // Read before the first request, which waits for the model lookup's round trip; a report that cannot be read is none.
  if (build.setupChecks) recallPromptSpeed(build.setupChecks, ports.provider, ports.model).catch(() => undefined);
  const session: AgentSession = new AgentSession({
    ...ports,
    provider,
    ...(s.maxRounds !== undefined && { maxRounds: s.maxRounds }),
    ...(s.think !== undefined && { think: s.think }),
    ...(s.contextSize !== undefined && { contextSize: s.contextSize }),
    ...(s.agent && { agentSettings: s.agent }),
    ...(build.setupChecks && { checkedProtocol: checkedToolProtocol(build.setupChecks) }),
    ...(s.instructions && { userInstructions: s.instructions }),
    ...(s.fallbackModels?.length && { fallbacks: s.fallbackModels.map((model) => ({ provider, model })) }),
    ...(s.allowedRisks && { allowedRisks: s.allowedRisks }),
    ...(s.extraParts && { extraParts: s.extraParts }),
    ...(s.skills && { skills: s.skills }),
    history: [...(build.history ?? [])],
    ...(recording && { onMessage: (m: ChatMessage) => recording.onMessage(m) }),
    ...(recording?.onMessageContext && { onMessageContext: (m: ChatMessage) => recording.onMessageContext!(m) }),
    ...(build.knowledge && { knowledge: build.knowledge }),
    ...(orchestrator && { orchestrator }),
    toolSelector: createToolPreFilter({
      provider: ports.provider,
      registry: ports.registry,
      ...(s.allowedRisks && { allowedRisks: s.allowedRisks }),
      ...(s.maxOfferedTools !== undefined && { maxOffered: s.maxOfferedTools }),
      ...(s.embeddingModel && { embedModel: s.embeddingModel }),
      ...(recording?.vectors && { vectors: recording.vectors }),
      onCacheError: (err) => build.notice(`The embedding cache failed (${errorMessage(err)}); vectors are kept in memory only.`),
    }),
    context: {
      ...(s.context && { settings: s.context }),
      ...(s.configuredWindow !== undefined && { configuredWindow: s.configuredWindow }),
      ...(calibration && { calibrationStore: calibration }),
      ...(recording?.id && { sessionId: recording.id }),
      ...(build.contextState && { initialState: build.contextState }),
      onWarning: (message) => build.notice(message),
      ...(build.status && { onStatus: build.status }),
      ...(build.onCompression && { onCompression: (report: CompressionReport) => build.onCompression!(report, session) }),
    },
  });
  return session;
}
