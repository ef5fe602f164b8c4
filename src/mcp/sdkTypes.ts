// What of the MCP SDK we use, as one object: sdk.ts loads it, sdkModules.ts builds it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type * as Types from '@modelcontextprotocol/sdk/types.js';
import type { OAuthSdk } from './auth/types';

export interface McpSdk {
  Client: typeof Client;
  StdioClientTransport: typeof StdioClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  SSEClientTransport: typeof SSEClientTransport;
  UriTemplate: typeof UriTemplate;
  ToolListChangedNotificationSchema: typeof Types.ToolListChangedNotificationSchema;
  ResourceListChangedNotificationSchema: typeof Types.ResourceListChangedNotificationSchema;
  ResourceUpdatedNotificationSchema: typeof Types.ResourceUpdatedNotificationSchema;
  PromptListChangedNotificationSchema: typeof Types.PromptListChangedNotificationSchema;
  LoggingMessageNotificationSchema: typeof Types.LoggingMessageNotificationSchema;
  ListRootsRequestSchema: typeof Types.ListRootsRequestSchema;
  ElicitRequestSchema: typeof Types.ElicitRequestSchema;
  CreateMessageRequestSchema: typeof Types.CreateMessageRequestSchema;
  McpError: typeof Types.McpError;
  ErrorCode: typeof Types.ErrorCode;
  /** The OAuth client side: discovery, registration, PKCE, token requests and refresh. */
  auth: OAuthSdk;
}
