// Where requests go is the user's decision, not the repository's. The settings that pick the model server (provider
// and addresses) and a few others that a repository must not change silently are read from the user's own (global)
// settings; a different server named by the workspace is reported here so serverConsent.ts can ask before the first
// request. Pure (no 'vscode' import): callers pass the configuration's `get` and `inspect`.
import {
  normalizeServerUrl,
  parseSettings,
  serverUrl,
  type HarnessSettings,
  type ParsedSettings,
  type ProviderKind,
  type SettingGetter,
} from './harnessSettings';

/** Keys (below `localharness.`) that decide which server receives the conversation, the files and the API key. */
export const SERVER_KEYS = ['provider', 'ollama.host', 'openai.baseUrl'] as const;

/**
 * Keys read from user settings only; a workspace value is ignored (and reported). Fallback models pick what runs
 * on the user's server; the approval keys are also `"scope": "application"` in package.json, and are read here
 * from the user scope too so a repository cannot widen what runs without asking even if that scope changes.
 */
export const USER_ONLY_KEYS = [
  'fallbackModels',
  'approval.sensitivePatterns',
  'approval.autoApprove',
  'approval.rules',
  // A repository must not hand its commands the user's tokens.
  'sandbox.envPassthrough',
  // The planner's and executor's servers receive the conversation like the chat's: the user's choice only.
  'orchestrator.plannerBaseUrl',
  'orchestrator.executorBaseUrl',
  'orchestrator.plannerProvider',
  'orchestrator.executorProvider',
  // A repository must not turn the command sandbox off or give its commands the network.
  'sandbox.mode',
  'sandbox.network',
  'sandbox.networkCommands',
  'sandbox.writablePaths',
  'sandbox.maxProcesses',
  'sandbox.maxFileSizeMB',
  'sandbox.maxMemoryMB',
  // load_skill reads files in that folder: a repository must not point it at another folder of yours.
  'skills.userFolder',
] as const;

/** The parts of `WorkspaceConfiguration.inspect(key)` used here. */
export interface ScopedValues {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export type SettingInspector = (key: string) => ScopedValues | undefined;

/** A model server: the kind and the address requests go to. */
export interface ServerDestination {
  provider: ProviderKind;
  url: string;
}

export interface ServerResolution {
  /** Every setting, the server ones (and USER_ONLY_KEYS) from the user's settings. */
  user: ParsedSettings;
  /** The server the workspace's settings name, when it differs from the user's (trusted workspaces only). */
  workspace?: ServerDestination;
  /** Workspace values that were not used, one line each, for the log. */
  ignored: string[];
}

const PROVIDER_LABEL: Record<ProviderKind, string> = { ollama: 'Ollama', openai: 'OpenAI-compatible' };

export function providerLabel(provider: ProviderKind): string {
  return PROVIDER_LABEL[provider];
}

export function destinationOf(settings: HarnessSettings): ServerDestination {
  return { provider: settings.provider, url: serverUrl(settings) };
}

/** Identity of a destination: a remembered answer applies to exactly this value, so a changed one asks again. */
export function destinationKey(destination: ServerDestination): string {
  return `${destination.provider} ${destination.url}`;
}

export function sameDestination(a: ServerDestination, b: ServerDestination): boolean {
  return destinationKey(a) === destinationKey(b);
}

/** `settings` sending to `destination` instead (the rest, including the model name, unchanged). */
export function withDestination(settings: HarnessSettings, destination: ServerDestination): HarnessSettings {
  return destination.provider === 'ollama'
    ? { ...settings, provider: 'ollama', ollamaHost: destination.url }
    : { ...settings, provider: 'openai', openaiBaseUrl: destination.url };
}

/**
 * Reads the settings with the server keys from the user's scope. `get` is the configuration's resolved getter
 * (used for every other key: `model`, `maxRounds`, … stay workspace-overridable, they send nothing elsewhere),
 * `inspect` gives the value per scope. Untrusted workspaces never propose a server (their values are dropped, as
 * VS Code's restricted configurations already do).
 */
export function resolveServerSettings(get: SettingGetter, inspect: SettingInspector, trusted: boolean): ServerResolution {
  const userOnly = new Set<string>([...SERVER_KEYS, ...USER_ONLY_KEYS]);
  const user = parseSettings((key) => (userOnly.has(key) ? inspect(key)?.globalValue : get(key)));
  const ignored: string[] = [];

  for (const key of USER_ONLY_KEYS) {
    if (workspaceValueOf(inspect(key)) !== undefined) {
      ignored.push(`localharness.${key} is read from your user settings only; the workspace's value is ignored.`);
    }
  }

  const proposedProvider = workspaceValueOf(inspect('provider'));
  const proposedHost = workspaceValueOf(inspect('ollama.host'));
  const proposedBase = workspaceValueOf(inspect('openai.baseUrl'));
  if (proposedProvider === undefined && proposedHost === undefined && proposedBase === undefined) return { user, ignored };
  if (!trusted) {
    ignored.push('The workspace names a model server, but it is not trusted (Restricted Mode): your own server settings are used.');
    return { user, ignored };
  }

  let provider = user.settings.provider;
  if (proposedProvider === 'ollama' || proposedProvider === 'openai') provider = proposedProvider;
  else if (proposedProvider !== undefined) ignored.push(`The workspace's localharness.provider "${String(proposedProvider)}" is not "ollama" or "openai"; ignored.`);
  const address = (value: unknown, key: string, fallback: string): string => {
    if (value === undefined) return fallback;
    const url = typeof value === 'string' ? normalizeServerUrl(value) : '';
    if (!/^https?:\/\/[^/]/i.test(url)) {
      ignored.push(`The workspace's localharness.${key} "${String(value)}" is not an http(s) address; ignored.`);
      return fallback;
    }
    return url;
  };
  const proposed: ServerDestination =
    provider === 'ollama'
      ? { provider, url: address(proposedHost, 'ollama.host', user.settings.ollamaHost) }
      : { provider, url: address(proposedBase, 'openai.baseUrl', user.settings.openaiBaseUrl) };
  // Also validate the address the chosen provider does not use, so a typo is reported either way.
  if (provider === 'ollama' && proposedBase !== undefined) address(proposedBase, 'openai.baseUrl', '');
  if (provider === 'openai' && proposedHost !== undefined) address(proposedHost, 'ollama.host', '');

  if (sameDestination(proposed, destinationOf(user.settings))) return { user, ignored };
  return { user, workspace: proposed, ignored };
}

/** A folder value wins over the workspace file's, as VS Code resolves them. */
function workspaceValueOf(values: ScopedValues | undefined): unknown {
  return values?.workspaceFolderValue ?? values?.workspaceValue;
}

/** The scheme, host and port of an address (where an API key belongs); undefined for a malformed one. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}
