// Everything that happens in a turn is one of these events, on one stream.
import type { RiskLevel } from '../tools/tool';
import type { ReadingProgress } from '../provider';

export type TurnEndReason =
  | 'completed'
  | 'task_completion'
  | 'ask_question'
  | 'max_rounds'
  | 'cancelled'
  | 'error';

export type AgentEvent =
  /** `attachments`: the labels of what the user attached (`src/a.ts:3-5`), the code itself is on the message. */
  | { type: 'turn_start'; turnId: string; message: string; attachments?: string[]; mode?: 'plan' | 'ask'; images?: string[]; thumbnails?: Array<string | null> }
  | { type: 'round_start'; round: number }
  /** `reading`: the server is reading the prompt (tokens read of those it must read; `estimated` where it says nothing). */
  | { type: 'status'; message: string; reading?: ReadingProgress }
  | { type: 'thinking'; text: string }
  | { type: 'text'; text: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'approval_request'; id: string; name: string; risk: RiskLevel; title: string; detail: string }
  | { type: 'approval_result'; id: string; name: string; approved: boolean; scope?: string; reason?: string }
  | { type: 'tool_progress'; id: string; name: string; message: string }
  | { type: 'tool_result'; id: string; name: string; ok: boolean; content: string; display?: string; denied?: boolean; durationMs: number }
  /** The server's counts for a model call; `cachedTokens` it reused from its prompt cache (`cachedEstimated`: our estimate). */
  | { type: 'usage'; promptTokens: number; completionTokens: number; cachedTokens?: number; cachedEstimated?: boolean }
  | { type: 'notice'; message: string }
  /** The context window after a model call was prepared: tokens used of the window the server runs. */
  | { type: 'context'; used: number; window: number }
  /** The window we budget against changed (the server runs less than asked, or it was remembered from an earlier session). */
  | { type: 'context_window'; window: number; previous: number; source: string; reason: string }
  /** The pre-filter chose which tools this request offers (sent only when it filtered). */
  | { type: 'tools_offered'; offered: string[]; total: number; tokensAll: number; tokensOffered: number; ranking: string }
  | {
      type: 'compression';
      method: string;
      reason: string;
      tokensBefore: number;
      tokensAfter: number;
      messagesAffected: number;
      window: number;
      targetMet: boolean;
      /** Model calls this compression spent (the LLM pass), and the turn's compression budget. */
      modelCalls: number;
      budget: { used: number; limit: number };
      /** Why the LLM pass did not run, when it did not. */
      skipped?: string;
      /** Tokens saved by replacing indexed files' contents with their index summaries (method 'index' step). */
      indexTokensSaved?: number;
    }
  /** What the workspace index gave this turn's request (once per turn, when it found something or has a notice). */
  | RetrievalEvent
  /** An orchestrated turn (src/core/orchestrator): the planner's plan, then each step around its ordinary rounds. */
  | PlanEvent
  | { type: 'step_start'; stepId: string; goal: string; index: number; total: number }
  /** `result`: the step's tool results, clipped, so a resumed run can hand them to later steps. */
  | { type: 'step_end'; stepId: string; status: StepStatus; summary?: string; result?: string }
  /** The planned run gave way to the single-model loop (a notice says why); a resume must not re-plan it. */
  | { type: 'plan_fallback'; reason: string }
  | { type: 'error'; message: string }
  | { type: 'turn_end'; reason: TurnEndReason; result?: string };

export interface RetrievalEvent {
  type: 'retrieval';
  query: string;
  method: 'vectors' | 'keywords';
  items: Array<{ rank: number; file: string; startLine: number; endLine: number; score: number; why: string; name?: string; neighbours: number }>;
  /** Tokens of the retrieved-context prompt part as rendered (0 when nothing was added). */
  tokens: number;
  /** Said once per session, e.g. "no embedding model …; retrieval uses keywords". */
  notice?: string;
}

export type StepStatus = 'ok' | 'failed' | 'skipped';

export interface PlanEvent {
  type: 'plan';
  steps: Array<{ id: string; goal: string; toolHint?: string; dependsOn: string[] }>;
  doneWhen: string;
  /** A stored run continued after a reload or a Stop: the same plan, not a new one. */
  resumed?: boolean;
}

export type AgentEventType = AgentEvent['type'];
export type EventListener = (event: AgentEvent) => void;

/** A tiny synchronous fan-out. A throwing listener never breaks the loop or other listeners. */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: AgentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        // A broken subscriber (e.g. a closed webview) must not stop the agent.
        console.error('[localharness] event listener failed:', err);
      }
    }
  }
}
