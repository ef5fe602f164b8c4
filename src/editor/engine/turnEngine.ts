// The heavy half of the agent wiring: providers (openai, ollama packages), built-in tools, the turn runner.
// Loaded with a dynamic import the first time a turn starts or models are listed, so activation stays cheap.
import type { ChatProvider, ModelInfo } from '../../core/provider';
import type { ProcessRunner } from '../../core/ports';
import { ToolRegistry } from '../../core/tools/registry';
import { registerBuiltinTools } from '../../core/tools/builtin';
import { createWorkerSearchEngine } from '../../node/workerSearchEngine';
import { createProvider } from '../../providers';
import { BoundedReplyProvider } from '../../core/resilience/boundedReplies';
import { defaultNumCtx } from '../../providers/ollama';
import { NodeProcessRunner } from '../../node/nodeProcessRunner';
import { SandboxLauncher } from '../../node/sandbox/sandboxLauncher';
import type { Logger } from '../log/logger';
import type { HarnessSettings } from '../settings/harnessSettings';
import { providerSettingsOf, serverUrl } from '../settings/harnessSettings';
import { originOf } from '../settings/serverSettings';
import { LoggingProvider } from './loggingProvider';

export { ApprovalGate } from '../../core/approval/gate';
export { WorkspaceRoots } from '../../core/workspace/workspaceRoots';
export { buildSession } from '../../builder/buildSession';
export { createEditorSandbox } from './editorSandbox';

/** An API key and the server origin it was entered for. */
export interface OriginKey {
  origin: string;
  value: string;
}

/** The provider for `settings`. The key goes along only when it belongs to the origin the settings send to. */
export function createChatProvider(
  settings: HarnessSettings,
  apiKey: OriginKey | undefined,
  log: Logger,
  onWaiting?: (message: string) => void,
): ChatProvider {
  const baseUrl = serverUrl(settings);
  const keyFits = settings.provider === 'openai' && apiKey !== undefined && apiKey.value !== '' && originOf(baseUrl) === apiKey.origin;
  const inner = createProvider({
    ...providerSettingsOf(settings),
    ...(keyFits && { apiKey: apiKey.value }),
    // Model-info and embedding requests have short deadlines of their own; a slow one is logged and shown.
    onWaiting: (message) => {
      log.info(message);
      onWaiting?.(message);
    },
  });
  // Replies over a share of the window are cut and repetition loops stopped while streaming.
  return new LoggingProvider(new BoundedReplyProvider(inner), log);
}

export function createToolRegistry(): ToolRegistry {
  return registerBuiltins(new ToolRegistry());
}

/** The built-in tools, added to the chat's registry (made at activation: src/editor/agent/chatTools.ts). */
export function registerBuiltins(registry: ToolRegistry): ToolRegistry {
  // Regexes run in a worker with a deadline: a backtracking pattern cannot freeze the host.
  registerBuiltinTools(registry, { searchFiles: { engine: createWorkerSearchEngine() } });
  return registry;
}

/** Starts sandboxed commands (bubblewrap, sandbox-exec); nothing is probed until the first command. */
export function createSandboxLauncher(): SandboxLauncher {
  return new SandboxLauncher();
}

/** Runs commands as child processes when the terminal has no shell integration. */
export function createFallbackRunner(sandbox?: SandboxLauncher, passEnv?: () => readonly string[]): ProcessRunner {
  return new NodeProcessRunner({ ...(sandbox && { sandbox }), ...(passEnv && { passEnv }) });
}

/** The context window the server will run `model` with, as the provider will request it; null when unknown. */
export function contextWindowOf(settings: HarnessSettings, info: ModelInfo | undefined): number | null {
  if (settings.contextSize > 0) return settings.contextSize;
  if (settings.provider === 'ollama') return info?.defaultContextSize ?? defaultNumCtx(info?.contextLength);
  return info?.loadedContextLength ?? info?.contextLength ?? null;
}
