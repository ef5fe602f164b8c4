// One end-to-end session per test file: a workspace, a scripted fake LLM server, code-server with the
// packaged extension and settings pointing at that server, and Chromium showing the workbench.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  startFakeOllamaServer,
  startFakeOpenAIServer,
  type FakeOllamaModel,
  type FakeOpenAIModel,
  type FakeServerHandle,
  type Script,
} from '../fakeLlm';
import { ChatPanel } from './chatPanel';
import { startCodeServer, type CodeServer } from './codeServer';
import { extensionHostErrors, readExtensionHostLog, readExtensionLog } from './extensionLogs';
import { packageExtension } from './packageExtension';
import { ARTIFACTS, EXTENSION_ID } from './paths';
import { Workbench } from './workbench';

export interface SessionOptions {
  /** Prefix of this file's screenshots and logs in test-artifacts/e2e/. */
  name: string;
  script: Script;
  provider?: 'ollama' | 'openai';
  /** Model the fake server offers and `localharness.model` selects. */
  model?: string;
  contextLength?: number;
  /** Extra `localharness.*` (or any) user settings. */
  settings?: Record<string, unknown>;
  /** Files to create in the workspace, by relative path. */
  files?: Record<string, string>;
  /** The fake server says the model sees images (Ollama capability "vision", LM Studio type "vlm"). */
  vision?: boolean;
}

/** Screenshots and logs of an earlier run of the same file would be mistaken for this run's. */
function clearArtifacts(name: string): void {
  if (!existsSync(ARTIFACTS)) return;
  for (const file of readdirSync(ARTIFACTS)) {
    if (file.startsWith(`${name}-`)) rmSync(path.join(ARTIFACTS, file), { force: true });
  }
}

export class E2ESession {
  private closed = false;

  private constructor(
    readonly name: string,
    readonly baseDir: string,
    readonly workspace: string,
    readonly llm: FakeServerHandle,
    readonly server: CodeServer,
    readonly workbench: Workbench,
    readonly chat: ChatPanel,
  ) {}

  static async start(options: SessionOptions): Promise<E2ESession> {
    clearArtifacts(options.name);
    const vsix = await packageExtension();
    // Short base path: code-server's Unix sockets live under it and must stay < 108 characters.
    const baseDir = mkdtempSync('/tmp/lhe-');
    const workspace = path.join(baseDir, 'ws');
    mkdirSync(workspace);
    for (const [rel, text] of Object.entries(options.files ?? {})) {
      mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
      writeFileSync(path.join(workspace, rel), text);
    }
    const model = options.model ?? 'qwen3:8b';
    const contextLength = options.contextLength ?? 32768;
    const provider = options.provider ?? 'ollama';
    const llm =
      provider === 'ollama'
        ? await startFakeOllamaServer(options.script, {
            name: options.name,
            models: [{ name: model, contextLength, capabilities: ['completion', 'tools', 'thinking', ...(options.vision ? ['vision'] : [])] } satisfies FakeOllamaModel],
          })
        : await startFakeOpenAIServer(options.script, {
            name: options.name,
            models: [{ id: model, maxContextLength: contextLength, loadedContextLength: contextLength, ...(options.vision && { vision: true }) } satisfies FakeOpenAIModel],
          });
    let server: CodeServer | undefined;
    try {
      server = await startCodeServer({
        vsix,
        baseDir,
        settings: {
          'localharness.provider': provider,
          ...(provider === 'ollama' ? { 'localharness.ollama.host': llm.url } : { 'localharness.openai.baseUrl': llm.url }),
          'localharness.model': model,
          ...options.settings,
        },
      });
      const workbench = await Workbench.open(server.url, workspace, options.name);
      return new E2ESession(options.name, baseDir, workspace, llm, server, workbench, new ChatPanel(workbench));
    } catch (err) {
      await server?.stop();
      await llm.close();
      rmSync(baseDir, { recursive: true, force: true });
      throw err;
    }
  }

  /** The extension's "Local Harness" log so far. */
  extensionLog(): string {
    return readExtensionLog(this.server.userDataDir);
  }

  extensionHostLog(): string {
    return readExtensionHostLog(this.server.userDataDir);
  }

  /**
   * Errors the extension host logged against this extension (uncaught exceptions, API misuse). Throws when
   * the log does not show the extension activating, so an empty answer always means "looked, found none".
   */
  extensionHostErrors(): string[] {
    const log = this.extensionHostLog();
    if (!log.includes(`_doActivateExtension ${EXTENSION_ID}`)) throw new Error(`the extension host log does not show ${EXTENSION_ID} activating`);
    return extensionHostErrors(log, EXTENSION_ID);
  }

  screenshot(name: string): Promise<string> {
    return this.workbench.screenshot(name);
  }

  /**
   * Runs one step; on failure saves a screenshot and the logs next to it before rethrowing,
   * so a red test always leaves something to look at.
   */
  async step<T>(label: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      await this.saveFailure(label).catch(() => undefined);
      throw err;
    }
  }

  async saveFailure(label: string): Promise<void> {
    const slug = label.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    mkdirSync(ARTIFACTS, { recursive: true });
    await this.workbench.screenshot(`FAILED-${slug}`).catch(() => undefined);
    const prefix = path.join(ARTIFACTS, `${this.name}-FAILED-${slug}`);
    writeFileSync(`${prefix}-extension.log`, this.extensionLog());
    writeFileSync(`${prefix}-exthost.log`, this.extensionHostLog());
    writeFileSync(`${prefix}-code-server.log`, this.server.output());
    writeFileSync(`${prefix}-browser-console.log`, this.workbench.consoleLines.join('\n'));
    writeFileSync(`${prefix}-llm-requests.json`, JSON.stringify(this.llm.log, null, 1).slice(0, 5_000_000));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Keep the extension's own log of every run next to the screenshots (requests, tool calls, timings).
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(path.join(ARTIFACTS, `${this.name}-extension.log`), this.extensionLog());
    writeFileSync(path.join(ARTIFACTS, `${this.name}-exthost.log`), this.extensionHostLog());
    await this.workbench.close().catch(() => undefined);
    await this.server.stop();
    await this.llm.close();
    rmSync(this.baseDir, { recursive: true, force: true });
  }
}
