// One ACP session: the CLI's composition root (cliPorts) with the client's own ports — its file system when it
// offers one, its permission dialog — and the session recorded in the same SQLite database as `localharness run`.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { existsSync, statSync } from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { buildSession } from '../../builder/buildSession';
import { EventBus } from '../../core/agent/events';
import { ApprovalGate, type ApprovalRule } from '../../core/approval/gate';
import type { AgentSession } from '../../core/session/agentSession';
import type { TurnEndReason } from '../../core/agent/events';
import type { MessageAttachment } from '../../core/messages';
import { NodeFileSystem } from '../../node/nodeFileSystem';
import { CheckpointingFileSystem } from '../../core/checkpoints/checkpointingFileSystem';
import type { CliSession } from '../cliPersistence';
import type { SharedStore } from './sharedStore';
import type { CliConfig } from '../cliConfig';
import { autoApproved, type RunOptions } from '../args';
import { createCliSandbox, type CliSandbox } from '../cliSandbox';
import { chooseModel, cliKnowledge, cliProviders, cliRegistry, cliSessionBuild } from '../cliPorts';
import { ClientFileSystem } from './clientFileSystem';
import { EventUpdates } from './eventUpdates';
import { permissionAsker } from './permission';
import { startAcpMcp, type AcpMcp } from './acpMcp';
import { listedChatModels, modelOptions, MODEL_OPTION_ID } from './modelChoice';
import { modeState, requestedMode } from './sessionModes';
import type { ChatMode } from '../../core/modes/chatMode';
import type { FileSystemPort } from '../../core/ports';
import { discoverPromptFiles } from '../../core/promptFiles/promptFiles';
import { promptFileTask } from '../promptFileTask';
import type { ImagePart } from '../../core/images/imagePart';
import { imagesForModel } from '../cliImages';
import { acpImage, isImageResource } from './acpImages';

/** What the connection lends every session: the client's methods and what it declared it can do. */
export interface AcpClientPort {
  capabilities: acp.ClientCapabilities | undefined;
  update(sessionId: string, update: acp.SessionUpdate): Promise<void>;
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(params: acp.WriteTextFileRequest): Promise<void>;
}

export interface OpenSessionInput {
  options: RunOptions;
  config: CliConfig;
  client: AcpClientPort;
  cwd: string;
  mcpServers: readonly acp.McpServer[];
  /** The database of --db / LOCALHARNESS_DB, shared by the process's sessions. */
  store?: SharedStore;
  /** session/load: the stored session to continue. */
  loadId?: string;
  /** How long a permission request may stay unanswered (the gate then denies). */
  approvalTimeoutMs?: number;
  signal: AbortSignal;
  warn(message: string): void;
}

const RULES_KEY = (workspace: string) => `acp.workspaceRules:${workspace}`;
const WORKSPACE_RULES = new Map<string, ApprovalRule[]>();

/** Allow rules only: a stored list is data, and a damaged one is ignored rather than trusted. */
function parseRules(text: string): ApprovalRule[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (r): r is ApprovalRule =>
        !!r && typeof r === 'object' && typeof (r as ApprovalRule).tool === 'string' && (r as ApprovalRule).decision === 'allow' &&
        ((r as ApprovalRule).commandPrefix === undefined || typeof (r as ApprovalRule).commandPrefix === 'string'),
    );
  } catch {
    return [];
  }
}

export class AcpSession {
  private turn: AbortController | undefined;
  /** The commands last advertised, so a prompt file added or removed is announced once. */
  private advertised = '[]';
  private constructor(
    readonly id: string,
    private session: AgentSession,
    private model: string,
    private readonly models: readonly string[],
    /** The same ports and settings with another model and the conversation so far. */
    private readonly rebuild: (model: string, history: AgentSession['history']) => AgentSession,
    private readonly client: AcpClientPort,
    private readonly workspace: string,
    private readonly stored: CliSession | undefined,
    private readonly mcp: AcpMcp | undefined,
    private readonly confined: CliSandbox,
    private readonly pending: { chain: Promise<void> },
    /** Prompt files are read from the disk itself: they are the user's saved files, not an editor's buffers. */
    private readonly localFs: FileSystemPort,
    private mode: ChatMode,
    /** Whether a model sees the images of a prompt (refused with the note when not), as `run --image` checks. */
    private readonly seeing: (model: string, images: ImagePart[], signal: AbortSignal) => ReturnType<typeof imagesForModel>,
  ) {}

  static async open(input: OpenSessionInput): Promise<AcpSession> {
    const { options, config, client, signal, warn } = input;
    const workspace = input.cwd;
    if (!path.isAbsolute(workspace) || !existsSync(workspace) || !statSync(workspace).isDirectory()) {
      throw RequestError.invalidParams({ cwd: workspace }, `cwd must be an absolute path to a folder: ${workspace}`);
    }
    const { provider, makeProvider } = cliProviders(options);
    const chosen = await chooseModel(options, provider, signal);
    if ('error' in chosen) throw RequestError.internalError({ reason: chosen.error }, chosen.error);
    const model = chosen.model;

    if (input.loadId !== undefined && !input.store) throw RequestError.invalidParams(undefined, 'loading a session needs --db FILE (or LOCALHARNESS_DB)');
    const stored = input.store && (await input.store.open(input.loadId, { title: 'ACP session', model, provider: options.provider }));
    if (input.loadId !== undefined && !stored) throw RequestError.sessionNotFound(input.loadId);
    const id = stored?.id ?? randomUUID();
    const bus = new EventBus();
    if (stored) bus.on((e) => stored.onEvent(e));
    const pending = { chain: Promise.resolve() };
    const send = (update: acp.SessionUpdate) => {
      // In order, and awaited before the prompt answers, so no update arrives after the stop reason.
      pending.chain = pending.chain.then(() => client.update(id, update)).catch((e: unknown) => warn(`could not send an update: ${(e as Error).message}`));
    };
    const updates = new EventUpdates(workspace, send, { supported: !!client.capabilities?.session?.notices, log: warn });
    bus.on((e) => updates.handle(e));

    const caps = client.capabilities?.fs;
    const local = new NodeFileSystem();
    const clientFs = new ClientFileSystem(local, {
      canRead: caps?.readTextFile === true,
      canWrite: caps?.writeTextFile === true,
      read: async (file) => (await client.readTextFile({ sessionId: id, path: file })).content,
      write: (file, content) => client.writeTextFile({ sessionId: id, path: file, content }),
    });
    const fs = stored ? new CheckpointingFileSystem(clientFs, stored.checkpoints) : clientFs;
    const registry = cliRegistry();
    const mcp = await startAcpMcp(input.mcpServers, { ...(options.mcpConfig && { configPath: options.mcpConfig, trustConfig: options.trustMcpConfig === true }), workspace, registry, warn, signal, env: process.env });
    const knowledge = await cliKnowledge(options, stored, workspace, provider, fs, bus);

    // "Always in this workspace" is kept with the database (when there is one) for every later session here.
    // One list per folder in this process (every session on it shares it), seeded from the database.
    let rules = WORKSPACE_RULES.get(workspace);
    if (!rules) WORKSPACE_RULES.set(workspace, (rules = []));
    const savedRules = stored ? await stored.kv.get(RULES_KEY(workspace)) : undefined;
    for (const rule of savedRules ? parseRules(savedRules) : []) {
      if (!rules.some((r) => JSON.stringify(r) === JSON.stringify(rule))) rules.push(rule);
    }
    const gate = new ReportingGate(() => updates.started(), {
      policy: { autoApprove: autoApproved(options.approve), rules },
      ask: permissionAsker(id, workspace, { request: (p, s) => client.requestPermission(p, s) }, () => updates.lastApproval),
      ...(input.approvalTimeoutMs !== undefined && { timeoutMs: input.approvalTimeoutMs }),
      allowSensitive: options.allowSensitive,
      onRemember: (rule, scope) => {
        if (scope !== 'workspace') return;
        rules!.push(rule);
        if (stored) void Promise.resolve(stored.kv.set(RULES_KEY(workspace), JSON.stringify(rules))).catch((e: unknown) => warn(`could not save the rule: ${(e as Error).message}`));
      },
    });
    // The MCP configuration this agent started with stays read-only to commands, wherever it is.
    const protectedFiles = options.mcpConfig ? [path.resolve(options.mcpConfig)] : [];
    const confined = createCliSandbox(options.sandbox, (message) => bus.emit({ type: 'notice', message }), protectedFiles);
    const build = (chosenModel: string) => cliSessionBuild({ options, config, workspace, provider, makeProvider, model: chosenModel, registry, gate, fs, confined, bus, ...(stored && { stored }), ...(knowledge && { knowledge }) });
    const session = buildSession(build(model));
    const models = await listedChatModels(provider, signal);
    const rebuild = (chosenModel: string, history: AgentSession['history']) => buildSession({ ...build(chosenModel), history });
    return new AcpSession(id, session, model, models, rebuild, client, workspace, stored, mcp, confined, pending, local, options.mode ?? 'agent', (m, images, s) =>
      imagesForModel(images, provider, m, options.vision ?? 'auto', s),
    );
  }

  /** The stored conversation as updates, so the client shows it as it was (session/load). */
  async replay(): Promise<void> {
    const { replayUpdates } = await import('./replay');
    for (const update of replayUpdates(this.stored?.history ?? [], this.workspace)) await this.client.update(this.id, update);
  }

  /** The model choice (empty when the server lists no models). */
  configOptions(): acp.SessionConfigOption[] {
    return modelOptions(this.model, this.models);
  }

  /** session/set_config_option: another model for the next turns, with the conversation so far. */
  setConfigOption(configId: string, value: unknown): acp.SessionConfigOption[] {
    if (configId !== MODEL_OPTION_ID) throw RequestError.invalidParams({ configId }, `unknown config option "${configId}"`);
    const names = this.models.includes(this.model) ? this.models : [this.model, ...this.models];
    if (typeof value !== 'string' || !names.includes(value)) throw RequestError.invalidParams({ value }, `the server does not list the model "${String(value)}"`);
    if (this.turn) throw RequestError.invalidRequest(undefined, 'the model cannot change while a prompt is running');
    if (value !== this.model) {
      this.session = this.rebuild(value, this.session.history);
      this.model = value;
    }
    return this.configOptions();
  }

  /** Agent, Plan and Ask, and the one the next prompt runs in. */
  modes(): acp.SessionModeState {
    return modeState(this.mode);
  }

  /** session/set_mode: the next prompts run in this mode (a running one keeps its own). */
  setMode(modeId: unknown): void {
    this.mode = requestedMode(modeId);
  }

  /** MCP prompts of the session's servers and the workspace's prompt files, as slash commands. */
  async commands(): Promise<acp.AvailableCommand[]> {
    const mcp = (this.mcp?.manager.prompts() ?? []).map((p) => ({
      name: `${p.server}.${p.name}`,
      description: p.description ?? `MCP prompt from ${p.server}`,
      ...(p.arguments?.length ? { input: { hint: p.arguments.map((a) => a.name).join(' ') } } : {}),
    }));
    const files = (await discoverPromptFiles(this.localFs, this.folders())).map((p) => ({
      name: p.name,
      description: p.description ?? `Prompt file ${path.relative(this.workspace, p.file).split(path.sep).join('/')}`,
      input: { hint: 'optional text for the prompt' },
    }));
    return [...mcp, ...files];
  }

  /** Sends available_commands_update when the commands differ from those last sent (none sent for none at all). */
  async advertiseCommands(): Promise<void> {
    const commands = await this.commands().catch(() => undefined);
    const text = JSON.stringify(commands);
    if (!commands || text === this.advertised) return;
    this.advertised = text;
    await this.client.update(this.id, { sessionUpdate: 'available_commands_update', availableCommands: commands });
  }

  async prompt(blocks: readonly acp.ContentBlock[], requestSignal: AbortSignal): Promise<acp.StopReason> {
    if (this.turn) throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session; cancel it first');
    const { text, attachments, mode, tools, images } = await this.promptText(blocks, requestSignal);
    if (!text.trim() && attachments.length === 0 && images.length === 0) throw RequestError.invalidParams(undefined, 'the prompt is empty');
    // Refused before anything is sent or recorded: a model that cannot see would answer about a picture it never got.
    const seen = await this.seeing(this.model, images, requestSignal);
    if (!seen.ok) throw RequestError.invalidParams({ model: this.model }, seen.message);
    const turn = new AbortController();
    this.turn = turn;
    const onAbort = () => turn.abort();
    requestSignal.addEventListener('abort', onAbort, { once: true });
    try {
      await this.stored?.beginTurn();
      // A prompt file's own mode and tools hold for its turn, as with `run "/name"`; the session's mode stays.
      const outcome = await this.session.send(text, turn.signal, attachments.length ? attachments : undefined, mode ?? this.mode, tools, { images: seen.images, vision: seen.vision });
      await this.stored?.endTurn();
      await this.pending.chain;
      // A prompt file the turn wrote (or removed) shows in the client's command list.
      await this.advertiseCommands().catch(() => undefined);
      if (turn.signal.aborted) return 'cancelled';
      return stopReason(outcome.reason, outcome.error);
    } finally {
      requestSignal.removeEventListener('abort', onAbort);
      this.turn = undefined;
    }
  }

  cancel(): void {
    this.turn?.abort();
  }

  async dispose(): Promise<void> {
    this.turn?.abort();
    this.confined.dispose();
    await this.mcp?.dispose(true);
    await this.stored?.close();
  }

  /**
   * Text and resource links as the user's words, embedded text resources (a file or selection the editor
   * attached) as attachments, image blocks (and embedded image blobs) as images; a `/server.prompt args` command expands to the MCP prompt, a `/name rest` to the
   * workspace's prompt file of that name (with its mode and tools).
   */
  private async promptText(
    blocks: readonly acp.ContentBlock[],
    signal: AbortSignal,
  ): Promise<{ text: string; attachments: MessageAttachment[]; images: ImagePart[]; mode?: ChatMode; tools?: string[] }> {
    const parts: string[] = [];
    const attachments: MessageAttachment[] = [];
    const images: ImagePart[] = [];
    for (const b of blocks) {
      if (b.type === 'text') parts.push(b.text);
      else if (b.type === 'image') images.push(acpImage(b, images.length + 1));
      else if (b.type === 'resource' && isImageResource(b.resource)) images.push(acpImage({ data: b.resource.blob, mimeType: b.resource.mimeType, uri: b.resource.uri }, images.length + 1));
      else if (b.type === 'resource_link') parts.push(`[${b.name}](${b.uri})`);
      else if (b.type === 'resource' && 'text' in b.resource) attachments.push({ label: this.labelOf(b.resource.uri), text: b.resource.text });
      else if (b.type === 'resource') throw RequestError.invalidParams(undefined, `the attached resource ${b.resource.uri} is binary; only text resources can be attached`);
      else throw RequestError.invalidParams(undefined, `prompt content of type "${b.type}" is not supported by this agent (it declared no such capability)`);
    }
    const text = parts.join('\n');
    const command = /^\/([\w-]+)\.([\w.-]+)(?:\s+(.*))?$/s.exec(text.trim());
    const prompt = command && this.mcp?.manager.prompts().find((p) => p.server === command[1] && p.name === command[2]);
    if (!command || !prompt) {
      const task = await promptFileTask(text, this.localFs, this.folders());
      return { text: task.text, attachments, images, ...(task.mode && { mode: task.mode }), ...(task.tools && { tools: task.tools }) };
    }
    const values = (command[3] ?? '').trim().split(/\s+/).filter(Boolean);
    const args = Object.fromEntries((prompt.arguments ?? []).map((a, i) => [a.name, values[i] ?? ''] as const).filter(([, v]) => v !== ''));
    const result = await this.mcp!.manager.getPrompt(prompt.server, prompt.name, args, signal);
    return { text: result.messages.map((m) => m.text).join('\n\n'), attachments, images };
  }

  private folders() {
    return [{ name: path.basename(this.workspace), path: this.workspace }];
  }

  /** A file inside the workspace by its relative path (as the editor's chips are labelled), anything else by its URI. */
  private labelOf(uri: string): string {
    if (!uri.startsWith('file://')) return uri;
    let file: string;
    try {
      file = fileURLToPath(uri);
    } catch {
      return uri;
    }
    const rel = path.relative(this.workspace, file);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
  }
}

/** The gate, telling the updates when a call may run (auto-approved calls emit no approval event). */
class ReportingGate extends ApprovalGate {
  constructor(
    private readonly onApproved: () => void,
    options: ConstructorParameters<typeof ApprovalGate>[0],
  ) {
    super(options);
  }

  override async check(...args: Parameters<ApprovalGate['check']>): ReturnType<ApprovalGate['check']> {
    const decision = await super.check(...args);
    if (decision.approved) this.onApproved();
    return decision;
  }
}

function stopReason(reason: TurnEndReason, error: string | undefined): acp.StopReason {
  switch (reason) {
    case 'max_rounds':
      return 'max_turn_requests';
    case 'cancelled':
      return 'cancelled';
    case 'error':
      // The error was shown in the conversation already; the request itself fails with the same words.
      throw RequestError.internalError({ reason: error }, error ?? 'the turn failed');
    default:
      return 'end_turn';
  }
}
