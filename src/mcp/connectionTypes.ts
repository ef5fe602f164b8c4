// The shapes of an MCP connection: what it is opened with, what calls take, and how they fail.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpAuthSession } from './auth/authSession';
import type { McpClientFeatures } from './clientFeatures';
import type { SamplingGate } from './samplingGate';
import type { McpServerConfig } from './types';

export interface ConnectionHooks {
  log(line: string): void;
  /** The server sent notifications/tools/list_changed. */
  onToolsChanged(): void;
  /** The connection ended without us closing it (process crashed or exited, HTTP session ended). */
  onUnexpectedClose(reason: string): void;
  /** notifications/resources/list_changed */
  onResourcesChanged?(): void;
  /** notifications/prompts/list_changed */
  onPromptsChanged?(): void;
  /** notifications/resources/updated for a subscribed resource. */
  onResourceUpdated?(uri: string): void;
}

export interface OpenOptions {
  config: McpServerConfig;
  startTimeoutMs: number;
  hooks: ConnectionHooks;
  clientVersion: string;
  fetch?: FetchLike;
  signal?: AbortSignal;
  /** What the host lends servers (roots, elicitation, sampling); sampling also needs the gate. */
  features?: McpClientFeatures;
  samplingGate?: SamplingGate;
  /** OAuth for an HTTP server (absent: only the configured headers). */
  auth?: McpAuthSession;
}

export interface RequestCallOptions {
  signal?: AbortSignal;
  timeoutMs: number;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (message: string) => void;
}

export class McpStartError extends Error {}

export type CallFailure = 'cancelled' | 'timeout' | 'closed' | 'server';

export class McpCallError extends Error {
  constructor(
    message: string,
    readonly kind: CallFailure,
  ) {
    super(message);
  }
}
