// The editor's MCP settings beyond the server list, read and checked (pure: the caller passes the getter).
import type { McpServerConfig } from '../../mcp/types';

export const SAMPLING_PER_MINUTE_SETTING = 'mcp.samplingPerMinute';
export const TOOL_TIMEOUT_SETTING = 'mcp.toolTimeoutSeconds';
export const DEFAULT_SAMPLING_PER_MINUTE = 10;

/** `localharness.mcp.samplingPerMinute`: a whole number ≥ 0; anything else is the default. 0 turns sampling off. */
export function samplingPerMinuteOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : DEFAULT_SAMPLING_PER_MINUTE;
}

/** `localharness.mcp.toolTimeoutSeconds` in ms; undefined (the client's own default) unless a positive number. */
export function toolTimeoutMsOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : undefined;
}

/** The definitions as the manager gets them: the setting's timeout fills in for servers that set no `toolTimeoutMs`. */
export function withDefaultTimeout(servers: readonly McpServerConfig[], timeoutMs: number | undefined): McpServerConfig[] {
  return servers.map((s) => (timeoutMs === undefined || s.toolTimeoutMs !== undefined ? s : { ...s, toolTimeoutMs: timeoutMs }));
}
