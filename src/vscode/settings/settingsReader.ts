// Reads the `localharness.*` configuration of the open workspace: the server settings from the user's scope
// (serverSettings.ts), and where the user's own OpenAI-compatible server is (for binding an old API key).
import * as vscode from 'vscode';
import { DEFAULT_SETTINGS, normalizeServerUrl } from '../../editor/settings/harnessSettings';
import { originOf, resolveServerSettings, type ServerResolution } from '../../editor/settings/serverSettings';

export function readServerResolution(trusted: boolean): ServerResolution {
  const config = vscode.workspace.getConfiguration('localharness');
  return resolveServerSettings(
    (key) => config.get(key),
    (key) => config.inspect(key),
    trusted,
  );
}

/** The origin of `localharness.openai.baseUrl` in the user's own settings (the default when unset). */
export function userOpenaiOrigin(): string | undefined {
  const value = vscode.workspace.getConfiguration('localharness').inspect<unknown>('openai.baseUrl')?.globalValue;
  const url = typeof value === 'string' && value.trim() !== '' ? normalizeServerUrl(value) : DEFAULT_SETTINGS.openaiBaseUrl;
  return originOf(url);
}
