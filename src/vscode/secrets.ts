// The API key for OpenAI-compatible servers lives in SecretStorage (the OS keychain), never in settings or logs.
import * as vscode from 'vscode';
import type { Redactor } from './log/logger';

const API_KEY = 'localharness.openai.apiKey';

export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: Redactor,
  ) {}

  /** Fires when the key is stored or removed (also from another window). */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === API_KEY) listener();
    });
  }

  async get(): Promise<string | undefined> {
    const value = (await this.secrets.get(API_KEY)) || undefined;
    // Registered with the log scrubber the moment it is read, so it can never be logged by accident.
    this.redactor.addSecret(value);
    return value;
  }

  /** "Local Harness: Set API Key". An empty entry removes the key; Escape leaves it unchanged. */
  async promptAndStore(): Promise<void> {
    const existing = await this.get();
    const value = await vscode.window.showInputBox({
      title: 'Local Harness: API key for the OpenAI-compatible server',
      prompt: existing
        ? 'A key is stored. Enter a new one to replace it, or clear the box and press Enter to remove it.'
        : 'Only needed when your server asks for one (LM Studio, llama.cpp and vLLM usually do not). Stored in the system keychain, not in settings.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'API key',
    });
    if (value === undefined) return;
    const key = value.trim();
    if (key === '') {
      await this.secrets.delete(API_KEY);
      void vscode.window.showInformationMessage('Local Harness: the API key was removed.');
      return;
    }
    await this.secrets.store(API_KEY, key);
    this.redactor.addSecret(key);
    void vscode.window.showInformationMessage('Local Harness: the API key was saved in secret storage.');
  }
}
