// The MCP client's public shapes: normalised server configs, statuses, and the ports the host provides.
import type { RiskLevel } from '../core/tools/tool';
import type { McpOAuthConfig } from './auth/types';

/**
 * Where a server definition came from. Workspace-defined ones (a `.vscode/mcp.json` or a workspace-scoped
 * setting) come with the repository, so they need the user's consent and a trusted workspace before they start.
 */
export type McpServerSource =
  | { kind: 'userSetting' }
  | { kind: 'workspaceSetting' }
  | { kind: 'workspaceFile'; path: string }
  | { kind: 'cliFile'; path: string };

export interface StdioTransportConfig {
  type: 'stdio';
  command: string;
  args: string[];
  /** Added to the SDK's minimal inherited environment (HOME, PATH, …). */
  env: Record<string, string>;
  cwd?: string;
}

export interface HttpTransportConfig {
  /** `http`: Streamable HTTP with a fallback to the older SSE transport; `sse`: SSE only. */
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** OAuth settings; `false` turns OAuth off. Without an `Authorization` header OAuth is on by default. */
  oauth?: McpOAuthConfig | false;
}

export type TransportConfig = StdioTransportConfig | HttpTransportConfig;

export interface ToolOverride {
  risk?: RiskLevel;
  /** Leave this tool out of the registry. */
  disabled?: boolean;
}

export interface McpServerConfig {
  /** The key in the config file; also the prefix of the tool names. */
  name: string;
  source: McpServerSource;
  transport: TransportConfig;
  /** Risk for every tool of this server (overrides the readOnlyHint default). */
  risk?: RiskLevel;
  /** Per-tool overrides, keyed by the server's own tool name. */
  tools: Record<string, ToolOverride>;
  /** Per-call timeout; reset whenever the server reports progress. */
  toolTimeoutMs?: number;
  /** How long the process start and the MCP handshake may take. */
  startTimeoutMs?: number;
}

export type McpServerState = 'stopped' | 'blocked' | 'starting' | 'ready' | 'restarting' | 'failed';

export interface SkippedTool {
  name: string;
  reason: string;
}

export interface McpToolInfo {
  /** Name in the registry (`server__tool`, sanitised). */
  registeredName: string;
  /** The server's own name for it. */
  mcpName: string;
  risk: RiskLevel;
}

export interface McpServerStatus {
  name: string;
  source: McpServerSource;
  state: McpServerState;
  /** Why it is stopped, blocked or failed (includes the stderr tail for failures). */
  message?: string;
  /** The command line or URL, as shown in the consent dialog. */
  commandLine: string;
  tools: McpToolInfo[];
  skippedTools: SkippedTool[];
  /** Estimated tokens the tool definitions of this server cost in every request. */
  toolTokens: number;
  /** Child process id of a running stdio server. */
  pid?: number;
  /** Restart attempts used since the last crash series began. */
  restartAttempts: number;
  serverInfo?: { name: string; version: string };
  /** What the server offers beyond tools; empty unless it is ready. Refreshed on list_changed. */
  resources: McpResourceInfo[];
  resourceTemplates: McpResourceTemplateInfo[];
  prompts: McpPromptInfo[];
}

/** Asked before a workspace-defined server starts. Anything but `true` (including a throw) means no. */
export type McpConsentPort = (server: McpServerConfig, commandLine: string) => Promise<boolean>;

export interface Disposable {
  dispose(): void;
}

/** A resource a server lists (resources/list). */
export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A parameterised resource (resources/templates/list), e.g. `demo://resource/dynamic/text/{index}`. */
export interface McpResourceTemplateInfo {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** The template's variable names, in order, to ask for or fill from arguments. */
  variables: string[];
}

/** One part of a read resource: text as is, binary as base64 with its size. */
export type McpResourcePart =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string; bytes: number };

export interface McpPromptArgumentInfo {
  name: string;
  description?: string;
  required: boolean;
}

export interface McpPromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgumentInfo[];
}

/** A prompt's messages (prompts/get), with every content part rendered as text (embedded resources inlined). */
export interface McpPromptResult {
  description?: string;
  messages: Array<{ role: 'user' | 'assistant'; text: string }>;
}
