// Public surface of the MCP client, for the VS Code wiring and the CLI.
export { McpManager, type McpManagerOptions, type McpLogEntry, type McpResourceUpdate } from './manager';
export {
  loadMcpConfigFile,
  parseMcpConfigText,
  parseMcpServers,
  sourceLabel,
  McpConfigError,
  type McpConfigResult,
  type McpConfigVariables,
} from './config';
export { commandLineOf, consentFingerprint, requiresConsent } from './serverCommand';
export { createSamplingResponder, type SamplingResponderOptions } from './samplingResponder';
export { parseElicitationSchema, validateElicitationAnswer, ElicitationSchemaError, type ElicitValue } from './elicitationSchema';
export { READ_RESOURCE_TOOL } from './readResourceTool';
export type {
  ElicitField,
  ElicitationAnswer,
  ElicitationPort,
  ElicitationRequest,
  McpClientFeatures,
  McpRoot,
  SamplingApprovalPort,
  SamplingMessage,
  SamplingPort,
  SamplingRequest,
  SamplingResult,
} from './clientFeatures';
export type {
  Disposable,
  McpConsentPort,
  McpPromptArgumentInfo,
  McpPromptInfo,
  McpPromptResult,
  McpResourceInfo,
  McpResourcePart,
  McpResourceTemplateInfo,
  McpServerConfig,
  McpServerSource,
  McpServerState,
  McpServerStatus,
  McpToolInfo,
  SkippedTool,
  ToolOverride,
  TransportConfig,
} from './types';
