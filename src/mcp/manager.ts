// The MCP client for the editor and the CLI: owns the configured servers, their tools in the registry,
// their status and logs. Constructing it does nothing; the SDK loads when the first server starts.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolRegistry } from '../core/tools/registry';
import type { McpAuthEnv } from './auth/types';
import type { McpClientFeatures } from './clientFeatures';
import { consentFingerprint } from './serverCommand';
import { Emitter } from './emitter';
import { ReadResourceOffer } from './readResourceOffer';
import { DEFAULT_RING_LIMITS, type RingBufferLimits } from './ringBuffer';
import { DEFAULT_SAMPLING_PER_MINUTE, SamplingGate } from './samplingGate';
import { ServerController, type ControllerEnv } from './serverController';
import { McpToolRegistrar } from './toolRegistrar';
import type {
  Disposable,
  McpConsentPort,
  McpPromptInfo,
  McpPromptResult,
  McpResourceInfo,
  McpResourcePart,
  McpResourceTemplateInfo,
  McpServerConfig,
  McpServerStatus,
} from './types';
import { expandTemplate } from './uriTemplates';

export interface McpManagerOptions {
  registry: ToolRegistry;
  /** Asked before a workspace-defined server starts; without it such servers stay blocked. */
  consent?: McpConsentPort;
  /** Untrusted workspaces never start workspace-defined servers. Defaults to trusted (the CLI). */
  isWorkspaceTrusted?: () => boolean;
  /** For HTTP servers (tests inject their own). */
  fetch?: FetchLike;
  now?: () => number;
  clientVersion?: string;
  /** Per tool call, reset on progress. Default 60 s. */
  defaultToolTimeoutMs?: number;
  /** Process start plus handshake. Default 30 s. */
  defaultStartTimeoutMs?: number;
  /** Delays before each automatic restart after a crash. Default 1 s, 2 s, 4 s (three tries). */
  restartDelaysMs?: readonly number[];
  /** After this long up, a crash starts a fresh series of restart attempts. Default 60 s. */
  stableAfterMs?: number;
  logLimits?: RingBufferLimits;
  /** Roots, elicitation and sampling: only the ports given are declared to servers. */
  features?: McpClientFeatures;
  /** OAuth for HTTP servers: where tokens are kept and how the user signs in. Absent: headers only. */
  auth?: McpAuthEnv;
  /** How long a browser sign-in may take. Default 5 minutes. */
  signInTimeoutMs?: number;
}

export interface McpResourceUpdate {
  server: string;
  uri: string;
}

export interface McpLogEntry {
  server: string;
  line: string;
}

export class McpManager {
  private readonly controllers = new Map<string, ServerController>();
  private readonly registrar: McpToolRegistrar;
  private readonly changed = new Emitter<McpServerStatus>();
  private readonly logged = new Emitter<McpLogEntry>();
  private readonly resourceUpdated = new Emitter<McpResourceUpdate>();
  private readonly samplingGate: SamplingGate;
  private readonly readTool: ReadResourceOffer;
  private disposed = false;

  /** Fires whenever a server's status changes (state, tools, message). */
  readonly onDidChange = this.changed.event;
  /** Every log line as it is written (for an output channel or `--verbose`). */
  readonly onDidLog = this.logged.event;
  /** A resource someone subscribed to changed on its server (notifications/resources/updated). */
  readonly onDidUpdateResource = this.resourceUpdated.event;

  constructor(private readonly options: McpManagerOptions) {
    this.registrar = new McpToolRegistrar(options.registry);
    this.samplingGate = new SamplingGate(options.features?.samplingPerMinute ?? DEFAULT_SAMPLING_PER_MINUTE, options.now ?? Date.now);
    this.readTool = new ReadResourceOffer(options.registry, this);
  }

  /**
   * Replace the configured servers. Removed servers stop; changed ones stop and, if they were running, start
   * again with the new definition in the background. New servers wait for `start`/`startAll`.
   */
  async setServers(configs: readonly McpServerConfig[]): Promise<void> {
    this.assertAlive();
    const names = new Set<string>();
    for (const config of configs) {
      if (names.has(config.name)) throw new Error(`two MCP servers are named "${config.name}"; names must be unique`);
      names.add(config.name);
    }
    const stops: Array<Promise<void>> = [];
    const restart: string[] = [];
    for (const [name, controller] of this.controllers) {
      const next = configs.find((c) => c.name === name);
      if (next && sameDefinition(controller.config, next)) continue;
      const wasRunning = ['starting', 'ready', 'restarting'].includes(controller.status().state);
      if (next && wasRunning) restart.push(name);
      this.controllers.delete(name);
      stops.push(controller.stop(next ? 'configuration changed' : 'removed from the configuration'));
    }
    await Promise.all(stops);
    for (const config of configs) if (!this.controllers.has(config.name)) this.controllers.set(config.name, this.createController(config));
    for (const name of restart) void this.controllers.get(name)?.start();
  }

  serverNames(): string[] {
    return [...this.controllers.keys()];
  }

  /** Start every server that isn't running; resolves when each is ready, failed or blocked. Never throws. */
  async startAll(): Promise<void> {
    this.assertAlive();
    await Promise.all([...this.controllers.values()].map((c) => c.start().catch(() => undefined)));
  }

  start(name: string): Promise<void> {
    return this.controller(name).start();
  }

  stop(name: string): Promise<void> {
    return this.controller(name).stop('stopped by the user');
  }

  restart(name: string): Promise<void> {
    return this.controller(name).restart();
  }

  /** Stops the server and deletes its stored OAuth tokens and registration. True when something was stored. */
  signOut(name: string): Promise<boolean> {
    return this.controller(name).signOut();
  }

  status(name: string): McpServerStatus {
    return this.controller(name).status();
  }

  statuses(): McpServerStatus[] {
    return [...this.controllers.values()].map((c) => c.status());
  }

  /** The server's recent log: our lifecycle events, its stderr and its log notifications. */
  getLog(name: string): string[] {
    return this.controller(name).log();
  }

  /** Resources of every ready server. */
  resources(): McpResourceInfo[] {
    return this.readyCatalogs().flatMap((c) => c.resources);
  }

  resourceTemplates(): McpResourceTemplateInfo[] {
    return this.readyCatalogs().flatMap((c) => c.resourceTemplates);
  }

  prompts(): McpPromptInfo[] {
    return this.readyCatalogs().flatMap((c) => c.prompts);
  }

  /** resources/read on a running server: text parts as text, binary as base64 with its size. */
  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpResourcePart[]> {
    return this.controller(server).resources.read(uri, signal);
  }

  /** prompts/get with every content part rendered as text. */
  async getPrompt(server: string, name: string, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptResult> {
    return this.controller(server).resources.prompt(name, args, signal);
  }

  /** The URI a template gives with these values; throws naming any missing or unknown variable. */
  expandTemplate(template: McpResourceTemplateInfo, values: Record<string, string>): string {
    return expandTemplate(template, values);
  }

  /** Ask the server for notifications/resources/updated about this resource (see onDidUpdateResource). */
  async subscribeResource(server: string, uri: string, signal?: AbortSignal): Promise<void> {
    return this.controller(server).resources.subscribe(uri, signal);
  }

  async unsubscribeResource(server: string, uri: string, signal?: AbortSignal): Promise<void> {
    return this.controller(server).resources.unsubscribe(uri, signal);
  }

  /** The workspace folders changed: every ready server is told and asks for the roots again. */
  rootsChanged(): void {
    if (this.disposed) return;
    for (const controller of this.controllers.values()) void controller.rootsChanged();
  }

  /** Tokens all MCP tool definitions add to every request (for the context meter). */
  totalToolTokens(): number {
    return this.statuses().reduce((sum, s) => sum + s.toolTokens, 0);
  }

  /** Stop everything and wait until every child process is gone. `quick`: after Ctrl-C, SIGTERM after 250 ms. */
  async dispose(options: { quick?: boolean } = {}): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.all([...this.controllers.values()].map((c) => c.stop('shut down', options.quick)));
    this.controllers.clear();
    this.readTool.sync(true);
    this.changed.clear();
    this.logged.clear();
    this.resourceUpdated.clear();
  }

  private readyCatalogs() {
    return [...this.controllers.values()].map((c) => c.currentCatalog());
  }

  private controller(name: string): ServerController {
    this.assertAlive();
    const controller = this.controllers.get(name);
    if (!controller) {
      const known = this.serverNames();
      throw new Error(`there is no MCP server named "${name}"${known.length ? ` (configured: ${known.join(', ')})` : ' (none are configured)'}`);
    }
    return controller;
  }

  private createController(config: McpServerConfig): ServerController {
    return new ServerController(config, {
      ...controllerEnv(this.options, this.registrar, this.samplingGate),
      onChange: (status) => {
        this.readTool.sync(this.disposed);
        // A stopped-and-replaced controller may still report; only the current one speaks for the name.
        if (this.controllers.get(config.name)?.config === config || status.state === 'stopped') this.changed.fire(status);
      },
      onLog: (server, line) => this.logged.fire({ server, line }),
      onResourceUpdated: (server, uri) => this.resourceUpdated.fire({ server, uri }),
    });
  }

  private assertAlive(): void {
    if (this.disposed) throw new Error('the MCP manager has been disposed');
  }
}

/** The manager's options with their defaults, as every server's controller gets them. */
function controllerEnv(o: McpManagerOptions, registrar: McpToolRegistrar, samplingGate: SamplingGate): Omit<ControllerEnv, 'onChange' | 'onLog' | 'onResourceUpdated'> {
  return {
    registrar,
    ...(o.consent && { consent: o.consent }),
    isWorkspaceTrusted: o.isWorkspaceTrusted ?? (() => true),
    ...(o.fetch && { fetch: o.fetch }),
    clientVersion: o.clientVersion ?? '0.1.0',
    defaultToolTimeoutMs: o.defaultToolTimeoutMs ?? 60_000,
    defaultStartTimeoutMs: o.defaultStartTimeoutMs ?? 30_000,
    restartDelaysMs: o.restartDelaysMs ?? [1000, 2000, 4000],
    stableAfterMs: o.stableAfterMs ?? 60_000,
    now: o.now ?? Date.now,
    logLimits: o.logLimits ?? { ...DEFAULT_RING_LIMITS, maxLines: 1000, maxBytes: 256 * 1024 },
    ...(o.features && { features: o.features }),
    ...(o.auth && { auth: o.auth }),
    ...(o.signInTimeoutMs !== undefined && { signInTimeoutMs: o.signInTimeoutMs }),
    samplingGate,
  };
}

function sameDefinition(a: McpServerConfig, b: McpServerConfig): boolean {
  if (consentFingerprint(a) !== consentFingerprint(b)) return false;
  const rest = (c: McpServerConfig) => JSON.stringify([c.source, c.risk ?? null, c.tools, c.toolTimeoutMs ?? null, c.startTimeoutMs ?? null]);
  return rest(a) === rest(b);
}

export type { Disposable };
