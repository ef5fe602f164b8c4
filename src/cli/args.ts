// Command-line parsing for `localharness`. Usage errors exit with code 2.
import { parseArgs } from 'node:util';
import type { IndexMode } from '../core/knowledge/types';
import type { RiskLevel } from '../core/tools/tool';
import { COMMAND_RUN_ONLY, commandEnvNames, networkPrefixes } from './commandArgs';
import { CHAT_MODES, isChatMode, type ChatMode } from '../core/modes/chatMode';

import { UsageError } from './usageError';
import { checkEndpointInputs, firstByteTimeoutMs, nonEmpty, positiveInt, limitFlags, providerOf, retryBackoffFromEnv, sandboxFlags, thinkingBudget, toolProtocolOf } from './argValues';
import type { SandboxSettings } from '../core/sandbox/sandboxSettings';
import { parseMcpCommand, type McpOptions } from './mcpArgs';
import { parseDoctorCommand, type DoctorOptions } from './doctorArgs';
import { parseSessionsAction, type SessionsAction } from './sessionsArgs';
export { USAGE } from './usage';
export { UsageError };
export { parseNamedArgs, type McpListOptions, type McpLoginOptions, type McpLogoutOptions, type McpOptions, type McpPromptOptions, type McpResourceOptions } from './mcpArgs';

export type ApproveMode = 'none' | 'read' | 'all';

export interface RunOptions {
  command: 'run';
  task: string;
  provider: 'ollama' | 'openai';
  baseUrl?: string;
  model?: string;
  workspace: string;
  maxRounds: number;
  approve: ApproveMode;
  /** With `--approve all`: writes to sensitive files (.vscode/, .git/, CI, rules files…) run without asking too. */
  allowSensitive: boolean;
  numCtx?: number;
  json: boolean;
  think?: boolean;
  /** Most thinking tokens per model call (0: none). */
  thinkingBudget?: number;
  apiKey?: string;
  firstByteTimeoutMs: number;
  db?: string;
  session?: string;
  mcpConfig?: string;
  /** Answer MCP servers' sampling requests without asking (needed when there is no terminal to ask on). */
  allowSampling: boolean;
  toolProtocol?: 'native' | 'xml' | 'auto';
  /** Models on the same server tried in order when the primary keeps failing. */
  fallbackModels: string[];
  /** JSON file with {agent, context, instructions}: the same knobs as the editor's settings. */
  config?: string;
  /** Base delay between model-call retries; hidden, from LOCALHARNESS_RETRY_BACKOFF_MS (tests keep retries fast). */
  retryBackoffMs?: number;
  /** The pre-filter offers at most this many tools per request. */
  maxTools?: number;
  /** Embedding model on the same server for ranking tools (keyword ranking without one). */
  embedModel?: string;
  /** Both models given: each turn is planned by one and executed step by step by the other (issue 11). */
  orchestrator?: {
    plannerModel: string;
    executorModel: string;
    plannerBaseUrl?: string;
    executorBaseUrl?: string;
    /** Another kind of server than --provider for either (its --…-base-url then usually given too). */
    plannerProvider?: 'ollama' | 'openai';
    executorProvider?: 'ollama' | 'openai';
  };
  /** Plan (read tools only; the answer is the plan) or Ask (no tools); Agent when absent. */
  mode?: ChatMode;
  /** Continue the session's unfinished planned run at its first unfinished step (TASK not needed). */
  resume?: boolean;
  /** Image files sent with the task (`--image`, repeatable); refused unless the model sees. */
  images?: string[];
  /** `--vision on|off`: the model sees images or not, whatever the server says (default: ask the server). */
  vision?: 'auto' | 'on' | 'off';
  /** How run_command is confined (--sandbox, --allow-network, --allow-network-for). */
  sandbox: SandboxSettings;
  /** --command-env NAME: variables passed to commands on top of the allow-list. */
  commandEnv?: string[];
  /** --trust-mcp-config: start the --mcp-config servers even if the file changed since the last run, without asking. */
  trustMcpConfig?: boolean;
}

export interface SessionsOptions {
  command: 'sessions';
  db?: string;
  json: boolean;
  /** list (default): the sessions; messages: one session's messages with their numbers; rewind: restore to before one. */
  action?: SessionsAction;
}
export type { SessionsAction };

/** What `index` and `query` share: the workspace, the database and the model server. */
interface KnowledgeCommandOptions {
  workspace: string;
  db?: string;
  provider: 'ollama' | 'openai';
  baseUrl?: string;
  embedModel?: string;
  json: boolean;
  apiKey?: string;
  firstByteTimeoutMs: number;
}

export interface IndexOptions extends KnowledgeCommandOptions {
  command: 'index';
  /** Files and folders, absolute or relative to the workspace (like `git -C DIR`). */
  paths: string[];
  /** Chat model for the summaries of `full` (default: the first model the server lists). */
  model?: string;
  mode: IndexMode;
  /** Index again even when a file did not change. */
  force: boolean;
  /** Take the paths (files, or every indexed file under a folder) out of the index instead. */
  remove: boolean;
}

export interface QueryOptions extends KnowledgeCommandOptions {
  command: 'query';
  text: string;
  k: number;
}

export type CliOptions = RunOptions | SessionsOptions | IndexOptions | QueryOptions | McpOptions | DoctorOptions | { command: 'help' } | { command: 'version' };
export type { DoctorOptions };


export function autoApproved(mode: ApproveMode): RiskLevel[] {
  if (mode === 'all') return ['read', 'write', 'execute', 'network'];
  if (mode === 'read') return ['read'];
  return [];
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv, cwd: string): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        provider: { type: 'string' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        workspace: { type: 'string' },
        'max-rounds': { type: 'string' },
        approve: { type: 'string' },
        'allow-sensitive': { type: 'boolean' },
        'num-ctx': { type: 'string' },
        think: { type: 'boolean' },
        'thinking-budget': { type: 'string' },
        json: { type: 'boolean' },
        db: { type: 'string' },
        session: { type: 'string' },
        'mcp-config': { type: 'string' },
        'tool-protocol': { type: 'string' },
        'fallback-model': { type: 'string', multiple: true },
        image: { type: 'string', multiple: true },
        vision: { type: 'string' },
        'max-tools': { type: 'string' },
        'embed-model': { type: 'string' },
        'planner-model': { type: 'string' },
        'executor-model': { type: 'string' },
        'planner-base-url': { type: 'string' },
        'executor-base-url': { type: 'string' },
        'planner-provider': { type: 'string' },
        'executor-provider': { type: 'string' },
        resume: { type: 'boolean' },
        to: { type: 'string' },
        undo: { type: 'boolean' },
        config: { type: 'string' },
        'first-byte-timeout': { type: 'string' },
        mode: { type: 'string' },
        k: { type: 'string' },
        force: { type: 'boolean' },
        remove: { type: 'boolean' },
        arg: { type: 'string', multiple: true },
        out: { type: 'string' },
        'command-env': { type: 'string', multiple: true },
        'trust-mcp-config': { type: 'boolean' },
        'allow-sampling': { type: 'boolean' },
        sandbox: { type: 'string' },
        'allow-network': { type: 'boolean' },
        'allow-network-for': { type: 'string', multiple: true },
        'sandbox-write': { type: 'string', multiple: true },
        'max-processes': { type: 'string' },
        'max-file-size-mb': { type: 'string' },
        'max-memory-mb': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  const [command, ...rest] = positionals;
  for (const [option, owner] of [['mode', 'index'], ['force', 'index'], ['remove', 'index'], ['k', 'query'], ['to', 'sessions'], ['undo', 'sessions']] as const) {
    if (option === 'force' && command === 'sessions') continue; // sessions rewind --force
    if (values[option] !== undefined && command !== owner && !(option === 'mode' && command === 'run')) throw new UsageError(`--${option} only works with \`${owner}\``);
  }
  if (command === 'sessions') {
    const action = parseSessionsAction(rest, values, cwd);
    return { command: 'sessions', json: !!values.json, ...(values.db !== undefined && { db: values.db }), ...(action && { action }) };
  }
  // Before anything is sent anywhere: no password in a URL, no line break in the key (never printed).
  checkEndpointInputs(values, env);
  if (command !== 'mcp') {
    for (const option of ['arg', 'out'] as const) {
      if (values[option] !== undefined) throw new UsageError(`--${option} only works with \`mcp ${option === 'out' ? 'resource' : 'resource` and `mcp prompt'}\``);
    }
  }
  if (command === 'mcp') return parseMcpCommand(rest, values, cwd);
  if (command === 'index' || command === 'query') return parseKnowledgeCommand(command, rest, values, env, cwd);
  if (command === 'doctor') return parseDoctorCommand(rest, values, env);
  if (command !== 'run') throw new UsageError(command ? `unknown command "${command}"` : 'missing command (run, sessions, index, query, mcp or doctor)');
  const resume = !!values.resume;
  if (resume && (values.session === undefined || values['planner-model'] === undefined)) {
    throw new UsageError('--resume continues the planned run of a stored session: it needs --session ID and --planner-model/--executor-model');
  }
  const task = rest.join(' ').trim();
  if (!task && !resume) throw new UsageError('missing TASK: localharness run "what to do"');
  const provider = providerOf(values.provider);
  const approve = values.approve ?? 'read';
  if (approve !== 'none' && approve !== 'read' && approve !== 'all') throw new UsageError(`--approve must be none, read or all, got "${approve}"`);
  const allowSensitive = !!values['allow-sensitive'];
  if (allowSensitive && approve !== 'all') throw new UsageError('--allow-sensitive only works together with --approve all');
  const allowSampling = !!values['allow-sampling'];
  if (allowSampling && values['mcp-config'] === undefined) throw new UsageError('--allow-sampling only works together with --mcp-config FILE');
  const numCtx = positiveInt('--num-ctx', values['num-ctx']);
  const toolProtocol = toolProtocolOf(values['tool-protocol']);
  const maxTools = positiveInt('--max-tools', values['max-tools']);
  const orchestrator = orchestratorOf(values);
  if (values.mode !== undefined && !isChatMode(values.mode)) throw new UsageError(`--mode must be ${CHAT_MODES.join(', ')}, got "${values.mode}"`);
  const mode = values.mode as ChatMode | undefined;
  const apiKey = env.LOCALHARNESS_API_KEY;
  const retryBackoffMs = retryBackoffFromEnv(env.LOCALHARNESS_RETRY_BACKOFF_MS);
  networkPrefixes(values['allow-network-for']);
  return {
    command: 'run',
    task,
    provider,
    workspace: values.workspace ?? cwd,
    maxRounds: positiveInt('--max-rounds', values['max-rounds']) ?? 20,
    approve,
    allowSensitive,
    allowSampling,
    sandbox: {
      ...sandboxFlags(values.sandbox, values['allow-network'], values['allow-network-for'], values['sandbox-write'], cwd),
      ...limitFlags({ maxProcesses: values['max-processes'], maxFileSizeMB: values['max-file-size-mb'], maxMemoryMB: values['max-memory-mb'] }),
    },
    json: !!values.json,
    firstByteTimeoutMs: firstByteTimeoutMs(values['first-byte-timeout']),
    fallbackModels: values['fallback-model'] ?? [],
    ...(values.config !== undefined && { config: values.config }),
    ...(toolProtocol !== undefined && { toolProtocol }),
    ...(retryBackoffMs !== undefined && { retryBackoffMs }),
    ...(values['base-url'] !== undefined && { baseUrl: values['base-url'] }),
    ...(values.model !== undefined && { model: values.model }),
    ...(numCtx !== undefined && { numCtx }),
    ...(values.think !== undefined && { think: values.think }),
    ...(values['thinking-budget'] !== undefined && { thinkingBudget: thinkingBudget(values['thinking-budget']) }),
    ...(apiKey && { apiKey }),
    ...(values.db !== undefined && { db: values.db }),
    ...(values.session !== undefined && { session: values.session }),
    ...(values['mcp-config'] !== undefined && { mcpConfig: values['mcp-config'] }),
    ...(values['command-env'] !== undefined && { commandEnv: commandEnvNames(values['command-env']) }),
    ...(values['trust-mcp-config'] && { trustMcpConfig: true }),
    ...(maxTools !== undefined && { maxTools }),
    ...(values['embed-model'] !== undefined && { embedModel: values['embed-model'] }),
    ...(orchestrator && { orchestrator }),
    ...(resume && { resume }),
    ...(mode && { mode }),
    ...(values.image?.length && { images: values.image }),
    ...(values.vision !== undefined && { vision: visionFlag(values.vision) }),
  };
}

function visionFlag(value: string): 'auto' | 'on' | 'off' {
  if (value === 'auto' || value === 'on' || value === 'off') return value;
  throw new UsageError(`--vision must be auto, on or off (got "${value}")`);
}

function orchestratorOf(values: Record<string, string | boolean | string[] | undefined>): RunOptions['orchestrator'] {
  const str = (name: string) => nonEmpty(values, name);
  const plannerModel = str('planner-model');
  const executorModel = str('executor-model');
  const plannerBaseUrl = str('planner-base-url');
  const executorBaseUrl = str('executor-base-url');
  const plannerProvider = str('planner-provider');
  const executorProvider = str('executor-provider');
  if (plannerModel === undefined && executorModel === undefined) {
    if ([plannerBaseUrl, executorBaseUrl, plannerProvider, executorProvider].some((v) => v !== undefined)) {
      throw new UsageError('--planner-base-url, --executor-base-url, --planner-provider and --executor-provider need --planner-model and --executor-model');
    }
    return undefined;
  }
  if (plannerModel === undefined || executorModel === undefined) throw new UsageError('the planner needs both --planner-model NAME and --executor-model NAME');
  return {
    plannerModel,
    executorModel,
    ...(plannerBaseUrl !== undefined && { plannerBaseUrl }),
    ...(executorBaseUrl !== undefined && { executorBaseUrl }),
    ...(plannerProvider !== undefined && { plannerProvider: providerOf(plannerProvider, '--planner-provider') }),
    ...(executorProvider !== undefined && { executorProvider: providerOf(executorProvider, '--executor-provider') }),
  };
}


const INDEX_MODES: readonly IndexMode[] = ['full', 'embed', 'metadata'];
/** Options of `run` that mean nothing to `index` and `query`: passing one is a mistake worth saying. */
const RUN_ONLY = ['image', 'vision', 'sandbox', 'allow-network', 'allow-network-for', 'sandbox-write', 'max-processes', 'max-file-size-mb', 'max-memory-mb', 'resume', 'max-rounds', 'approve', 'allow-sensitive', 'allow-sampling', 'num-ctx', 'think', 'thinking-budget', 'session', 'mcp-config', 'tool-protocol', 'fallback-model', 'max-tools', 'config', 'planner-model', 'executor-model', 'planner-base-url', 'executor-base-url', 'planner-provider', 'executor-provider'];

function parseKnowledgeCommand(
  command: 'index' | 'query',
  rest: string[],
  values: Record<string, string | boolean | string[] | undefined>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): IndexOptions | QueryOptions {
  const str = (name: string) => values[name] as string | undefined;
  const foreign = [...RUN_ONLY, ...COMMAND_RUN_ONLY, ...(command === 'query' ? ['model'] : [])].find((name) => values[name] !== undefined);
  if (foreign) throw new UsageError(`--${foreign} does not apply to \`${command}\``);
  const apiKey = env.LOCALHARNESS_API_KEY;
  const shared: KnowledgeCommandOptions = {
    workspace: str('workspace') ?? cwd,
    provider: providerOf(str('provider')),
    json: !!values.json,
    firstByteTimeoutMs: firstByteTimeoutMs(str('first-byte-timeout')),
    ...(str('db') !== undefined && { db: str('db') }),
    ...(str('base-url') !== undefined && { baseUrl: str('base-url') }),
    ...(str('embed-model') !== undefined && { embedModel: str('embed-model') }),
    ...(apiKey && { apiKey }),
  };
  if (command === 'index') {
    const paths = rest.filter((p) => p.trim() !== '');
    if (paths.length === 0) throw new UsageError('missing PATH: localharness index --db FILE src/ README.md');
    const mode = str('mode') ?? 'full';
    if (!(INDEX_MODES as readonly string[]).includes(mode)) throw new UsageError(`--mode must be full, embed or metadata, got "${mode}"`);
    if (values.remove && (values.force || str('mode') !== undefined)) throw new UsageError('--remove takes no --mode or --force');
    return {
      command,
      ...shared,
      paths,
      mode: mode as IndexMode,
      force: !!values.force,
      remove: !!values.remove,
      ...(str('model') !== undefined && { model: str('model') }),
    };
  }
  const text = rest.join(' ').trim();
  if (!text) throw new UsageError('missing TEXT: localharness query --db FILE "where is the config parsed?"');
  return { command, ...shared, text, k: positiveInt('--k', str('k')) ?? 5 };
}
