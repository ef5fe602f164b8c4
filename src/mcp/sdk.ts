// The MCP SDK is loaded on first use, so a run without MCP servers never pays for it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type * as Types from '@modelcontextprotocol/sdk/types.js';

export interface McpSdk {
  Client: typeof Client;
  StdioClientTransport: typeof StdioClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  SSEClientTransport: typeof SSEClientTransport;
  ToolListChangedNotificationSchema: typeof Types.ToolListChangedNotificationSchema;
  LoggingMessageNotificationSchema: typeof Types.LoggingMessageNotificationSchema;
  McpError: typeof Types.McpError;
  ErrorCode: typeof Types.ErrorCode;
}

let loading: Promise<McpSdk> | undefined;
let loads = 0;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= (async () => {
    loads++;
    const [client, stdio, http, sse, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      SSEClientTransport: sse.SSEClientTransport,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
      LoggingMessageNotificationSchema: types.LoggingMessageNotificationSchema,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
    };
  })().catch((err: unknown) => {
    loading = undefined; // let a later start try again
    throw new Error(`cannot load the MCP SDK: ${(err as Error).message}`);
  });
  return loading;
}

/** How many times the SDK was actually loaded in this process (0 when no server was ever started). */
export function mcpSdkLoadCount(): number {
  return loads;
}
