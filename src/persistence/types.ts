// Public shapes of the session store: what goes in and what comes back out.
import type { ChatMessage, ToolCall } from '../core/messages';

export type SessionStatus = 'active' | 'interrupted';

export interface NewSession {
  title: string;
  model: string;
  provider: string;
}

export interface SessionInfo {
  id: string;
  title: string;
  model: string;
  provider: string;
  createdAt: number;
  updatedAt: number;
  status: SessionStatus;
  /** A turn started and has not ended yet (only true while this process runs it). */
  turnOpen: boolean;
  /** Messages in the original conversation (compressed copies are not counted twice). */
  messageCount: number;
}

export interface TokenCounts {
  prompt?: number;
  completion?: number;
}

export interface NewMessage extends ChatMessage {
  /** Shown to the user but never sent to the model (notices, nudges the UI wants to show). */
  displayOnly?: boolean;
  tokens?: TokenCounts;
}

export interface StoredMessage extends ChatMessage {
  id: number;
  sessionId: string;
  /** Position in the conversation; a compressed copy keeps its original's position. */
  seq: number;
  displayOnly: boolean;
  tokens?: TokenCounts;
  /** Set on a compressed copy: the id of the original message it stands for. */
  compressedFrom?: number;
  /** Set on a message that a compressed copy replaced in the model's view. */
  supersededBy?: number;
  createdAt: number;
}

/** A new version of a message (compression). Omitted fields are kept; `thinking: null` drops it. */
export interface MessageUpdate {
  content: string;
  thinking?: string | null;
  toolCalls?: ToolCall[];
}

export interface SessionSummary {
  text: string;
  filesTouched: string[];
  updatedAt: number;
}

export type ToolOutcome = 'ok' | 'error' | 'denied';

export interface ToolAuditInput {
  sessionId: string;
  toolCallId: string;
  name: string;
  arguments: unknown;
  /** How it was approved, e.g. "auto", "rule", "once", "session", "workspace", "denied". */
  approval: string;
  durationMs: number;
  outcome: ToolOutcome;
}

export interface ToolAuditEntry extends ToolAuditInput {
  id: number;
  createdAt: number;
}

export interface Checkpoint {
  id: number;
  sessionId: string;
  path: string;
  /** File content before the agent's edit (exact bytes, or text for rows written by older versions); null when the edit created the file. */
  before: string | Uint8Array | null;
  createdAt: number;
}

export type NoticeKind =
  | 'database-moved-aside'
  | 'journal-moved-aside'
  | 'journal-torn-tail'
  | 'journal-damaged'
  | 'sessions-interrupted'
  | 'fold-failed';

/** Something the user should hear about. `movedTo` lists files we set aside instead of deleting. */
export interface StoreNotice {
  kind: NoticeKind;
  message: string;
  movedTo?: string[];
}

export type ExportFormat = 'markdown' | 'json';

/** JSON-serialisable values for the key/value table. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
