// The MCP SDK's parts we use, in one module: the extension builds it into its own file (dist/lazy/mcp-sdk.js,
// see esbuild.mjs), loaded by sdk.ts when the first server starts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import * as types from '@modelcontextprotocol/sdk/types.js';
import { auth, discoverOAuthServerInfo, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { McpSdk } from './sdkTypes';

export const mcpSdk: McpSdk = {
  Client,
  StdioClientTransport,
  StreamableHTTPClientTransport,
  SSEClientTransport,
  UriTemplate,
  ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  ResourceListChangedNotificationSchema: types.ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema: types.ResourceUpdatedNotificationSchema,
  PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
  LoggingMessageNotificationSchema: types.LoggingMessageNotificationSchema,
  ListRootsRequestSchema: types.ListRootsRequestSchema,
  ElicitRequestSchema: types.ElicitRequestSchema,
  CreateMessageRequestSchema: types.CreateMessageRequestSchema,
  McpError: types.McpError,
  ErrorCode: types.ErrorCode,
  auth: { auth, discoverOAuthServerInfo, extractWWWAuthenticateParams, createPrivateKeyJwtAuth },
};
