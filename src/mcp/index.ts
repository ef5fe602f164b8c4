// Public surface of the MCP client, for the VS Code wiring and the CLI.
export { McpManager, type McpManagerOptions, type McpLogEntry } from './manager';
export {
  loadMcpConfigFile,
  parseMcpConfigText,
  parseMcpServers,
  sourceLabel,
  McpConfigError,
  type McpConfigResult,
  type McpConfigVariables,
} from './config';
export { commandLineOf, consentFingerprint, requiresConsent } from './commandLine';
export type {
  Disposable,
  McpConsentPort,
  McpServerConfig,
  McpServerSource,
  McpServerState,
  McpServerStatus,
  McpToolInfo,
  SkippedTool,
  ToolOverride,
  TransportConfig,
} from './types';
