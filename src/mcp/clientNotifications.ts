// What the client does with the server's notifications: list changes, resource updates, log messages.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ConnectionHooks } from './connectionTypes';
import type { McpSdk } from './sdk';

export function installNotificationHandlers(client: Client, sdk: McpSdk, hooks: ConnectionHooks): void {
  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
    hooks.log('server says its tool list changed');
    hooks.onToolsChanged();
  });
  client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, () => {
    hooks.log('server says its resource list changed');
    hooks.onResourcesChanged?.();
  });
  client.setNotificationHandler(sdk.PromptListChangedNotificationSchema, () => {
    hooks.log('server says its prompt list changed');
    hooks.onPromptsChanged?.();
  });
  client.setNotificationHandler(sdk.ResourceUpdatedNotificationSchema, (n) => {
    hooks.log(`resource updated: ${n.params.uri}`);
    hooks.onResourceUpdated?.(n.params.uri);
  });
  client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, (n) => {
    const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
    hooks.log(`[server ${n.params.level}] ${data}`);
  });
}
