// Command-line parsing for `localharness`. Usage errors exit with code 2.
import { parseArgs } from 'node:util';
import type { IndexMode } from '../core/knowledge/types';
import type { RiskLevel } from '../core/tools/tool';

export { UsageError } from './usageError';
import { UsageError } from './usageError';
import { parseMcpCommand, type McpOptions } from './mcpArgs';
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
  /** Continue the session's unfinished planned run at its first unfinished step (TASK not needed). */
  resume?: boolean;
}

export interface SessionsOptions {
  command: 'sessions';
  db?: string;
  json: boolean;
}

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

export type CliOptions = RunOptions | SessionsOptions | IndexOptions | QueryOptions | McpOptions | { command: 'help' } | { command: 'version' };

export const USAGE = `Usage:
  localharness run [--provider ollama|openai] [--base-url URL] [--model NAME] [--workspace DIR]
                   [--max-rounds N] [--approve none|read|all] [--allow-sensitive] [--num-ctx N] [--think] [--json]
                   [--db FILE] [--session ID] [--mcp-config FILE] [--tool-protocol native|xml|auto]
                   [--fallback-model NAME]... [--max-tools N] [--embed-model NAME] [--config FILE]
                   [--planner-model NAME --executor-model NAME [--planner-base-url URL] [--executor-base-url URL]
                    [--planner-provider KIND] [--executor-provider KIND]]
                   [--allow-sampling] "TASK"
  localharness run --session ID --planner-model NAME --executor-model NAME [...] --resume
  localharness sessions [--db FILE] [--json]
  localharness index [--workspace DIR] [--db FILE] [--provider …] [--base-url URL] [--model NAME]
                     [--embed-model NAME] [--mode full|embed|metadata] [--force] [--remove] [--json] PATH...
  localharness query [--workspace DIR] [--db FILE] [--provider …] [--base-url URL] [--embed-model NAME]
                     [--k N] [--json] "TEXT"
  localharness mcp list --mcp-config FILE [--workspace DIR] [--json]
  localharness mcp resource --mcp-config FILE [--workspace DIR] [--out FILE] [--json] SERVER URI|TEMPLATE [--arg NAME=VALUE]...
  localharness mcp prompt --mcp-config FILE [--workspace DIR] [--json] SERVER PROMPT [--arg NAME=VALUE]...
  localharness mcp login  --mcp-config FILE SERVER
  localharness mcp logout --mcp-config FILE SERVER
  localharness --help | --version

Options:
  --provider      ollama (default) or openai (LM Studio, llama.cpp server, vLLM)
  --base-url      server URL (default http://127.0.0.1:11434 for ollama, http://127.0.0.1:1234/v1 for openai)
  --model         model name (default: the first model the server lists)
  --workspace     folder the tools may touch (default: current directory)
  --max-rounds    model calls per turn before giving up (default 20)
  --approve       risk levels that run without asking: none, read (default), all
  --allow-sensitive  with --approve all: also change sensitive files without asking (.vscode/, .git/, CI
                  files, AGENTS.md and .localharness/, package.json scripts, shell profiles…). Without it
                  such a change is asked on a terminal and denied when there is none, even under --approve all
  --num-ctx       context window to request (Ollama num_ctx)
  --json          one JSON object per line for every event
  --tool-protocol native tool calls, xml (<tool> blocks in text), or auto (default: native when the model supports tools)
  --fallback-model another model on the same server to continue with when the primary keeps failing (repeatable)
  --db, --session store the session in a SQLite file / continue a stored session (also LOCALHARNESS_DB)
  --mcp-config    MCP servers file ({"servers": {...}} or {"mcpServers": {...}}). The workspace is announced to
                  them as their root. A server asking for input (elicitation) is answered on the terminal, and
                  declined when there is none
  --allow-sampling  let MCP servers have the model answer their prompts (sampling) without asking. Without it
                  each request is asked on a terminal and refused when there is none
  --max-tools     offer at most N tools per request when they would not fit (default 15), chosen by relevance
  --embed-model   embedding model on the same server for choosing tools (default: keyword ranking)
  --config        JSON file {"agent": {...}, "context": {...}, "instructions": "..."} (see README: weak models, context window)
  --planner-model, --executor-model  split each turn between two models (both needed): the planner plans the
                  steps and writes the answer, the executor calls the tools step by step. If anything fails, the
                  turn continues in the ordinary loop with --model (default: the planner model)
  --planner-base-url, --executor-base-url  their servers (default --base-url)
  --planner-provider, --executor-provider  their kind of server when it is not --provider (ollama|openai)
  --resume        with --session and the planner flags: continue that session's planned run, cut off by
                  Ctrl-C or a crash, at its first unfinished step (no TASK; finished steps are not run again)

  API key: set LOCALHARNESS_API_KEY for servers that need one.

Workspace index (stored in the --db file; \`run\` retrieves from it when the file has an index):
  index PATH...   index files and folders (relative to --workspace; a folder: its text files, honouring
                  .gitignore) into the --db file
  --mode          full (default: chunks, vectors and the model's summaries), embed (chunks and vectors),
                  metadata (size, language, outline only)
  --embed-model   (index, query) embedding model on the same server; without one, retrieval uses keywords.
                  query and run default to the model the index was built with
  --force         index again even when a file did not change
  --remove        take the PATHs out of the index instead (a folder: every indexed file under it)
  query "TEXT"    print the indexed chunks that best match TEXT, best first (--json: one object per line)
  --k             how many chunks query prints (default 5)

MCP servers of a config file, without the agent (servers start, answer, and are stopped again):
  mcp list        each server's state (or error), tools, resources, resource templates and prompts
                  (--json: one JSON document). Exits 1 only when no server starts
  mcp resource    print a resource's text; binary parts are described in one line unless --out FILE
                  (then the content, binary parts decoded, goes to FILE). A resource template (its name or
                  uriTemplate) is filled from --arg NAME=VALUE
  mcp prompt      print a prompt's messages, its arguments given as --arg NAME=VALUE (repeatable)
  mcp login       sign in to an HTTP server that uses OAuth: the browser opens (the address is also printed)
                  and redirects back to 127.0.0.1; the tokens go to ~/.config/localharness/mcp-auth.json
                  (only you can read it). run and mcp sign in by themselves on a terminal or with $BROWSER set
  mcp logout      forget a server's tokens and client registration`;

export function autoApproved(mode: ApproveMode): RiskLevel[] {
  if (mode === 'all') return ['read', 'write', 'execute', 'network'];
  if (mode === 'read') return ['read'];
  return [];
}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive whole number, got "${value}"`);
  return n;
}

/** Same range as the retry setting (0–60000 ms); unset or empty means the default. */
function retryBackoffFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 60_000) throw new UsageError(`LOCALHARNESS_RETRY_BACKOFF_MS must be a whole number of milliseconds from 0 to 60000, got "${value}"`);
  return n;
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
        json: { type: 'boolean' },
        db: { type: 'string' },
        session: { type: 'string' },
        'mcp-config': { type: 'string' },
        'tool-protocol': { type: 'string' },
        'fallback-model': { type: 'string', multiple: true },
        'max-tools': { type: 'string' },
        'embed-model': { type: 'string' },
        'planner-model': { type: 'string' },
        'executor-model': { type: 'string' },
        'planner-base-url': { type: 'string' },
        'executor-base-url': { type: 'string' },
        'planner-provider': { type: 'string' },
        'executor-provider': { type: 'string' },
        resume: { type: 'boolean' },
        config: { type: 'string' },
        'first-byte-timeout': { type: 'string' },
        mode: { type: 'string' },
        k: { type: 'string' },
        force: { type: 'boolean' },
        remove: { type: 'boolean' },
        arg: { type: 'string', multiple: true },
        out: { type: 'string' },
        'allow-sampling': { type: 'boolean' },
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
  for (const [option, owner] of [['mode', 'index'], ['force', 'index'], ['remove', 'index'], ['k', 'query']] as const) {
    if (values[option] !== undefined && command !== owner) throw new UsageError(`--${option} only works with \`${owner}\``);
  }
  if (command === 'sessions') {
    return { command: 'sessions', json: !!values.json, ...(values.db !== undefined && { db: values.db }) };
  }
  if (command !== 'mcp') {
    for (const option of ['arg', 'out'] as const) {
      if (values[option] !== undefined) throw new UsageError(`--${option} only works with \`mcp ${option === 'out' ? 'resource' : 'resource` and `mcp prompt'}\``);
    }
  }
  if (command === 'mcp') return parseMcpCommand(rest, values, cwd);
  if (command === 'index' || command === 'query') return parseKnowledgeCommand(command, rest, values, env, cwd);
  if (command !== 'run') throw new UsageError(command ? `unknown command "${command}"` : 'missing command (run, sessions, index, query or mcp)');
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
  const toolProtocol = values['tool-protocol'];
  if (toolProtocol !== undefined && toolProtocol !== 'native' && toolProtocol !== 'xml' && toolProtocol !== 'auto') {
    throw new UsageError(`--tool-protocol must be native, xml or auto, got "${toolProtocol}"`);
  }
  const maxTools = positiveInt('--max-tools', values['max-tools']);
  const timeoutSeconds = positiveInt('--first-byte-timeout', values['first-byte-timeout']) ?? 300;
  const orchestrator = orchestratorOf(values);
  const apiKey = env.LOCALHARNESS_API_KEY;
  const retryBackoffMs = retryBackoffFromEnv(env.LOCALHARNESS_RETRY_BACKOFF_MS);
  return {
    command: 'run',
    task,
    provider,
    workspace: values.workspace ?? cwd,
    maxRounds: positiveInt('--max-rounds', values['max-rounds']) ?? 20,
    approve,
    allowSensitive,
    allowSampling,
    json: !!values.json,
    firstByteTimeoutMs: timeoutSeconds * 1000,
    fallbackModels: values['fallback-model'] ?? [],
    ...(values.config !== undefined && { config: values.config }),
    ...(toolProtocol !== undefined && { toolProtocol }),
    ...(retryBackoffMs !== undefined && { retryBackoffMs }),
    ...(values['base-url'] !== undefined && { baseUrl: values['base-url'] }),
    ...(values.model !== undefined && { model: values.model }),
    ...(numCtx !== undefined && { numCtx }),
    ...(values.think !== undefined && { think: values.think }),
    ...(apiKey && { apiKey }),
    ...(values.db !== undefined && { db: values.db }),
    ...(values.session !== undefined && { session: values.session }),
    ...(values['mcp-config'] !== undefined && { mcpConfig: values['mcp-config'] }),
    ...(maxTools !== undefined && { maxTools }),
    ...(values['embed-model'] !== undefined && { embedModel: values['embed-model'] }),
    ...(orchestrator && { orchestrator }),
    ...(resume && { resume }),
  };
}

function orchestratorOf(values: Record<string, string | boolean | string[] | undefined>): RunOptions['orchestrator'] {
  const str = (name: string) => {
    const v = values[name] as string | undefined;
    if (v !== undefined && v.trim() === '') throw new UsageError(`--${name} needs a value`);
    return v;
  };
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

function providerOf(value: string | undefined, flag = '--provider'): 'ollama' | 'openai' {
  const provider = value ?? 'ollama';
  if (provider !== 'ollama' && provider !== 'openai') throw new UsageError(`${flag} must be ollama or openai, got "${provider}"`);
  return provider;
}

const INDEX_MODES: readonly IndexMode[] = ['full', 'embed', 'metadata'];
/** Options of `run` that mean nothing to `index` and `query`: passing one is a mistake worth saying. */
const RUN_ONLY = ['resume', 'max-rounds', 'approve', 'allow-sensitive', 'allow-sampling', 'num-ctx', 'think', 'session', 'mcp-config', 'tool-protocol', 'fallback-model', 'max-tools', 'config', 'planner-model', 'executor-model', 'planner-base-url', 'executor-base-url', 'planner-provider', 'executor-provider'];

function parseKnowledgeCommand(
  command: 'index' | 'query',
  rest: string[],
  values: Record<string, string | boolean | string[] | undefined>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): IndexOptions | QueryOptions {
  const str = (name: string) => values[name] as string | undefined;
  const foreign = [...RUN_ONLY, ...(command === 'query' ? ['model'] : [])].find((name) => values[name] !== undefined);
  if (foreign) throw new UsageError(`--${foreign} does not apply to \`${command}\``);
  const timeoutSeconds = positiveInt('--first-byte-timeout', str('first-byte-timeout')) ?? 300;
  const apiKey = env.LOCALHARNESS_API_KEY;
  const shared: KnowledgeCommandOptions = {
    workspace: str('workspace') ?? cwd,
    provider: providerOf(str('provider')),
    json: !!values.json,
    firstByteTimeoutMs: timeoutSeconds * 1000,
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
