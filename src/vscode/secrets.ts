// API keys for OpenAI-compatible servers live in SecretStorage (the OS keychain), never in settings or logs, one
// per server origin (apiKeyVault.ts): a key is only ever sent to the server it was entered for.
import * as vscode from 'vscode';
import type { Redactor } from '../editor/log/logger';
import { ApiKeyVault, isApiKeyName } from '../editor/apiKeyVault';

export class ApiKeyStore {
  private readonly vault: ApiKeyVault;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    redactor: Redactor,
    /** The origin of the user's own (global) `openai.baseUrl`: where a key from an older version belongs. */
    legacyOrigin: () => string | undefined,
    onMigrated?: (origin: string) => void,
  ) {
    // Registered with the log scrubber the moment a key is read or entered, so it can never be logged by accident.
    this.vault = new ApiKeyVault(secrets, {
      legacyOrigin,
      onSecret: (value) => redactor.addSecret(value),
      ...(onMigrated && { onMigrated }),
    });
  }

  /** Fires when a key is stored or removed (also from another window). */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (isApiKeyName(e.key)) listener();
    });
  }

  /** The key stored for this server origin (e.g. "http://127.0.0.1:1234"). */
  get(origin: string): Promise<string | undefined> {
    return this.vault.get(origin);
  }

  /** "Local Harness: Set API Key" for the server at `origin`. An empty entry removes the key; Escape leaves it unchanged. */
  async promptAndStore(origin: string): Promise<void> {
    const existing = await this.get(origin);
    const value = await vscode.window.showInputBox({
      title: `Local Harness: API key for ${origin}`,
      prompt: existing
        ? `A key is stored for ${origin}. Enter a new one to replace it, or clear the box and press Enter to remove it.`
        : `Sent only to ${origin} (the OpenAI-compatible server in use now), never to another server. Only needed when the server asks for one (LM Studio, llama.cpp and vLLM usually do not). Stored in the system keychain, not in settings.`,
      password: true,
      ignoreFocusOut: true,
      placeHolder: `API key for ${origin}`,
    });
    if (value === undefined) return;
    const key = value.trim();
    if (key === '') {
      await this.vault.remove(origin);
      void vscode.window.showInformationMessage(`Local Harness: the API key for ${origin} was removed.`);
      return;
    }
    await this.vault.set(origin, key);
    void vscode.window.showInformationMessage(`Local Harness: the API key for ${origin} was saved in secret storage.`);
  }
}
