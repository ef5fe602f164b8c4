// Which planner and executor a turn uses, from the settings (pure; no 'vscode', no network). The controller
// builds a provider for each through its ModelService, so API keys stay bound to their server's origin.
import type { OrchestratorEndpoint, OrchestratorOptions } from '../../core/orchestrator';
import type { ChatProvider } from '../../core/provider';
import { serverUrl, type HarnessSettings } from '../settings/harnessSettings';
import { withDestination } from '../settings/serverSettings';

export interface OrchestratorEndpointChoice {
  /** The chat's settings pointed at this endpoint's server (same provider kind). */
  settings: HarnessSettings;
  model: string;
}

export interface OrchestratorChoice {
  planner: OrchestratorEndpointChoice;
  executor: OrchestratorEndpointChoice;
  maxSteps: number;
}

export type OrchestratorDecision =
  | { kind: 'off' }
  /** Asked for (setting or command) but not usable: `reason` says what to set. */
  | { kind: 'unavailable'; reason: string }
  | { kind: 'on'; choice: OrchestratorChoice };

export const EXECUTOR_MISSING =
  'Planned turns need an executor model: set "localharness.orchestrator.executorModel" to a small tool-calling model on your server (for example qwen2.5:1.5b).';

/**
 * `forced`: the "Run With Planner…" command asked for this one turn, whatever `orchestrator.enabled` says.
 * `chatModel` is the model the turn resolved (the setting, or the server's first model).
 */
export function chooseOrchestrator(settings: HarnessSettings, chatModel: string, forced: boolean): OrchestratorDecision {
  const o = settings.orchestrator;
  if (!o.enabled && !forced) return { kind: 'off' };
  if (!o.executorModel) return { kind: 'unavailable', reason: EXECUTOR_MISSING };
  // Another kind of server without an address: that kind's address from the chat settings (its default).
  const at = (url: string, kind: '' | 'ollama' | 'openai'): HarnessSettings => {
    const provider = kind || settings.provider;
    if (!url && provider === settings.provider) return settings;
    return withDestination(settings, { provider, url: url || (provider === 'ollama' ? settings.ollamaHost : settings.openaiBaseUrl) });
  };
  return {
    kind: 'on',
    choice: {
      planner: { settings: at(o.plannerBaseUrl, o.plannerProvider), model: o.plannerModel || chatModel },
      executor: { settings: at(o.executorBaseUrl, o.executorProvider), model: o.executorModel },
      maxSteps: o.maxSteps,
    },
  };
}

/** What identifies the choice in the session key: a change rebuilds the session. */
export function orchestratorKey(decision: OrchestratorDecision): string | null {
  if (decision.kind !== 'on') return null;
  const { planner, executor, maxSteps } = decision.choice;
  return JSON.stringify([planner.settings.provider, serverUrl(planner.settings), planner.model, executor.settings.provider, serverUrl(executor.settings), executor.model, maxSteps]);
}

/** The session option, with a provider per endpoint (built by the caller: keys, logging, timeouts as for the chat). */
export async function orchestratorOptions(choice: OrchestratorChoice, makeProvider: (settings: HarnessSettings) => Promise<ChatProvider>): Promise<OrchestratorOptions> {
  const endpoint = async (e: OrchestratorEndpointChoice): Promise<OrchestratorEndpoint> => ({
    provider: await makeProvider(e.settings),
    model: e.model,
    ...(e.settings.contextSize > 0 && { contextSize: e.settings.contextSize }),
  });
  return { planner: await endpoint(choice.planner), executor: await endpoint(choice.executor), maxSteps: choice.maxSteps };
}
