// The MCP SDK is loaded on first use, so a run without MCP servers never pays for it.
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

let loading: Promise<McpSdk> | undefined;
let loaded: McpSdk | undefined;
let loads = 0;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= (async () => {
    loads++;
    const [client, stdio, http, sse, uriTemplate, types, auth, authExtensions] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/shared/uriTemplate.js'),
      import('@modelcontextprotocol/sdk/types.js'),
      import('@modelcontextprotocol/sdk/client/auth.js'),
      import('@modelcontextprotocol/sdk/client/auth-extensions.js'),
    ]);
    loaded = {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      SSEClientTransport: sse.SSEClientTransport,
      UriTemplate: uriTemplate.UriTemplate,
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
      auth: {
        auth: auth.auth,
        discoverOAuthServerInfo: auth.discoverOAuthServerInfo,
        extractWWWAuthenticateParams: auth.extractWWWAuthenticateParams,
        createPrivateKeyJwtAuth: authExtensions.createPrivateKeyJwtAuth,
      },
    };
    return loaded;
  })().catch((err: unknown) => {
    loading = undefined; // let a later start try again
    throw new Error(`cannot load the MCP SDK: ${(err as Error).message}`);
  });
  return loading;
}

/** The SDK if some server already loaded it (every catalog entry comes from a started server, so it is). */
export function loadedMcpSdk(): McpSdk | undefined {
  return loaded;
}

/** How many times the SDK was actually loaded in this process (0 when no server was ever started). */
export function mcpSdkLoadCount(): number {
  return loads;
}
