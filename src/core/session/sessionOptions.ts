// What a session is built from: the ports it works through, the model it talks to, and the parts that shape its
// requests. The CLI and the editor fill this through the one session builder (src/builder/buildSession.ts).
import type { ChatMessage } from '../messages';
import type { ChatProvider } from '../provider';
import type { ApprovalGate } from '../approval/gate';
import type { EventBus } from '../agent/events';
import type { ToolRegistry } from '../tools/registry';
import type { RiskLevel } from '../tools/tool';
import type { WorkspaceRoots } from '../workspace/workspaceRoots';
import type { FileSystemPort, ProcessRunner } from '../ports';
import type { CommandSandboxPort } from '../sandbox/types';
import type { ContextTracker } from '../workingContext/tracker';
import type { ContextManagerOptions } from '../compression/contextManagerApi';
import type { PromptPart } from '../prompt/parts';
import type { SystemInfo } from '../prompt/systemPrompt';
import type { TurnHooksSettingsInput } from '../resilience/turnHooksSettings';
import type { ModelEndpoint } from '../resilience/failureText';
import type { IndexSummaryPort, KnowledgeRetriever } from '../knowledge/types';
import type { OrchestratorOptions } from '../orchestrator';
import type { ToolSelector } from '../tools/selection/toolSelector';
import type { CheckedToolProtocol } from '../toolProtocol/protocolSetting';
import type { SessionSkillsOptions } from '../skills/sessionSkills';

/** Context-window options the session passes to its manager (provider, model and tools come from the session). */
export type SessionContextOptions = Omit<ContextManagerOptions, 'provider' | 'model' | 'tools' | 'contextSize'>;

/** The workspace index as a session uses it: retrieval before the model calls, summaries in compression. */
export interface SessionKnowledge {
  /** Asked once per turn with the user's request; its chunks travel with the request. */
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
  /** A setup check's finding on tool calling per provider and model (the chat model's and the executor's). */
  checkedProtocol?: CheckedToolProtocol;
  fallbacks?: readonly ModelEndpoint[];
  /** Compression, eviction and the budget gate. */
  context?: SessionContextOptions;
  /** Offers only the most relevant tools when they would not fit the window (many MCP tools, small windows). */
  toolSelector?: ToolSelector;
  /** The workspace index: retrieval and compression by summaries. */
  knowledge?: SessionKnowledge;
  /** Skills (SKILL.md folders in the workspace and the user's folder): listed in the prompt, loaded by load_skill. */
  skills?: SessionSkillsOptions;
  /** Two models per turn: a planner plans and answers, an executor runs each step's tools (src/core/orchestrator). */
  orchestrator?: OrchestratorOptions;
  onMessage?: (message: ChatMessage) => void | Promise<void>;
  /** The working context was added to a message already passed to onMessage (just before it was first sent). */
  onMessageContext?: (message: ChatMessage) => void | Promise<void>;
  history?: ChatMessage[];
  /** Injected for tests (retry backoff). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}
