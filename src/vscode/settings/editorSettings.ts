// The editor's settings service: `localharness.*` as the next request will use it (a model server named by the
// workspace only once the user allowed it), the workspace's trust, and one change event for both. The chat,
// knowledge, setup check, MCP sampling and commands read settings here, never through the chat controller.
import * as vscode from 'vscode';
import type { ParsedSettings } from '../../editor/settings/harnessSettings';
import type { ServerResolution } from '../../editor/settings/serverSettings';
import type { ServerConsent } from '../../editor/settings/serverConsent';
import { readServerResolution } from './settingsReader';
import { untilAborted } from '../../core/abortable';

/**
 * What changed: `server` (the server or model a request goes to: lists and window sizes are stale), `settings`
 * (another `localharness.*` value), `trust` (the workspace was trusted).
 */
export type SettingsChange = 'server' | 'settings' | 'trust';

export interface EditorSettingsDeps {
  /** Where a failing change listener is reported. */
  onListenerError: (err: unknown) => void;
  /** Asks before the first request to a model server the workspace's settings name (absent: never used). */
  serverConsent?: ServerConsent;
  /** The settings with the server ones from user scope (default: the editor's configuration). */
  resolveServer?: () => ServerResolution;
  /** Replaces everything above (tests). */
  readSettings?: () => ParsedSettings;
  isTrusted?: () => boolean;
}

const SERVER_KEYS = ['localharness.model', 'localharness.provider', 'localharness.ollama.host', 'localharness.openai.baseUrl'];

export class EditorSettings implements vscode.Disposable {
  private readonly listeners = new Set<(change: SettingsChange) => void>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly deps: EditorSettingsDeps) {
    this.disposables = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('localharness')) return;
        this.fire(SERVER_KEYS.some((k) => e.affectsConfiguration(k)) ? 'server' : 'settings');
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.fire('trust')),
    ];
  }

  /**
   * Settings as the next turn will read them, without asking anything: a model server the workspace names is
   * used only once the user allowed it.
   */
  settings(): ParsedSettings {
    if (this.deps.readSettings) return this.deps.readSettings();
    const resolution = this.resolveServer();
    const settings = this.deps.serverConsent?.current(resolution).settings ?? resolution.user.settings;
    return { settings, problems: [...resolution.user.problems, ...resolution.ignored] };
  }

  /**
   * Settings for a request about to be sent: when the workspace names another model server and nobody has
   * answered yet, asks first (one modal dialog; the answer is remembered for the workspace).
   */
  async settingsForRequest(signal?: AbortSignal): Promise<ParsedSettings> {
    if (this.deps.readSettings) return this.deps.readSettings();
    const resolution = this.resolveServer();
    const problems = [...resolution.user.problems, ...resolution.ignored];
    const consent = this.deps.serverConsent;
    if (!consent || !resolution.workspace) return { settings: resolution.user.settings, problems };
    // The dialog stays open when the turn is cancelled; its answer still counts later.
    const pick = signal ? await untilAborted(consent.settle(resolution), signal, () => new DOMException('The turn was cancelled.', 'AbortError')) : await consent.settle(resolution);
    // The panel listed the models of the server used until now.
    if (pick.how === 'asked') this.fire('server');
    return { settings: pick.settings, problems };
  }

  /** Manage Approval Rules revoked a model-server answer: the next request asks again. */
  serverChoicesChanged(): void {
    this.deps.serverConsent?.forgetDismissed();
    this.fire('server');
  }

  /** Makes `name` the model, written where the current value comes from so the choice takes effect. */
  async selectModel(name: string): Promise<void> {
    const config = vscode.workspace.getConfiguration('localharness');
    const inspected = config.inspect<string>('model');
    const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config.update('model', name, target);
  }

  isTrusted(): boolean {
    return this.deps.isTrusted?.() ?? vscode.workspace.isTrusted;
  }

  onDidChange(listener: (change: SettingsChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private resolveServer(): ServerResolution {
    return this.deps.resolveServer?.() ?? readServerResolution(this.isTrusted());
  }

  private fire(change: SettingsChange): void {
    // A listener that throws must not keep the others from hearing about the change.
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (err) {
        this.deps.onListenerError(err);
      }
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.listeners.clear();
  }
}
