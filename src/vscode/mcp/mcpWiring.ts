// Activation-time wiring of the MCP feature: the service, the "MCP Servers" view, the commands, and the hook
// that starts the servers when the chat view is first shown. Creating these starts nothing.
import * as vscode from 'vscode';
import type { ToolRegistry } from '../../core/tools/registry';
import type { Logger, Redactor } from '../../editor/log/logger';
import { editorSignIn } from './editorSignIn';
import { SecretAuthStore } from '../../editor/mcp/secretAuthStore';
import { SignInCallbacks } from './signInCallbacks';
import { registerMcpCommands } from './mcpCommands';
import { McpService } from './mcpService';
import type { SamplingModelSource } from '../../editor/mcp/samplingModel';
import { McpServerTree } from './serverTree';

export interface McpWiringDeps {
  context: Pick<vscode.ExtensionContext, 'workspaceState' | 'extension' | 'secrets'>;
  log: Logger;
  redactor: Redactor;
  getRegistry: () => Promise<ToolRegistry>;
  /** The chat's model, which answers servers' sampling requests (absent: sampling is not offered). */
  samplingModel?: SamplingModelSource;
}

export function createMcp(deps: McpWiringDeps): { service: McpService; disposables: vscode.Disposable[] } {
  // Sign-ins come back through the extension's URI handler; tokens go to secret storage and the log scrubber.
  const callbacks = new SignInCallbacks((line) => deps.log.info(`MCP sign-in: ${line}`));
  const onSecret = (value: string) => deps.redactor.addSecret(value);
  const service = new McpService({
    workspaceState: deps.context.workspaceState,
    auth: {
      store: new SecretAuthStore(deps.context.secrets, onSecret),
      signIn: editorSignIn({ callbacks, extensionId: deps.context.extension.id, log: (line) => deps.log.info(`MCP sign-in: ${line}`) }),
      onSecret,
    },
    redact: (line) => deps.redactor.redact(line),
    log: deps.log,
    getRegistry: deps.getRegistry,
    clientVersion: String(deps.context.extension.packageJSON?.version ?? '0.0.0'),
    ...(deps.samplingModel && { samplingModel: deps.samplingModel }),
  });
  const tree = new McpServerTree(service);
  return { service, disposables: [service, tree.register(), vscode.window.registerUriHandler(callbacks), ...registerMcpCommands(service, deps.log)] };
}

/** Wraps a webview view provider so `onShown` runs each time the view is resolved (shown after being hidden). */
export function notifyWhenResolved(provider: vscode.WebviewViewProvider, onShown: () => void): vscode.WebviewViewProvider {
  return {
    resolveWebviewView: (view, context, token) => {
      onShown();
      return provider.resolveWebviewView(view, context, token);
    },
  };
}
