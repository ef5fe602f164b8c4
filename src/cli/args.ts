// Command-line parsing for `localharness`. Usage errors exit with code 2.
import { parseArgs } from 'node:util';
import type { RiskLevel } from '../core/tools/tool';

export class UsageError extends Error {}

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
}

export interface SessionsOptions {
  command: 'sessions';
  db?: string;
  json: boolean;
}

export type CliOptions = RunOptions | SessionsOptions | { command: 'help' } | { command: 'version' };

export const USAGE = `Usage:
  localharness run [--provider ollama|openai] [--base-url URL] [--model NAME] [--workspace DIR]
                   [--max-rounds N] [--approve none|read|all] [--allow-sensitive] [--num-ctx N] [--think] [--json]
                   [--db FILE] [--session ID] [--mcp-config FILE] [--tool-protocol native|xml|auto]
                   [--fallback-model NAME]... [--max-tools N] [--embed-model NAME] [--config FILE] "TASK"
  localharness sessions [--db FILE] [--json]
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
  --mcp-config    MCP servers file ({"servers": {...}} or {"mcpServers": {...}})
  --max-tools     offer at most N tools per request when they would not fit (default 15), chosen by relevance
  --embed-model   embedding model on the same server for choosing tools (default: keyword ranking)
  --config        JSON file {"agent": {...}, "context": {...}, "instructions": "..."} (see README: weak models, context window)
  API key: set LOCALHARNESS_API_KEY for servers that need one.`;

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
        config: { type: 'string' },
        'first-byte-timeout': { type: 'string' },
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
  if (command === 'sessions') {
    return { command: 'sessions', json: !!values.json, ...(values.db !== undefined && { db: values.db }) };
  }
  if (command !== 'run') throw new UsageError(command ? `unknown command "${command}"` : 'missing command (run or sessions)');
  const task = rest.join(' ').trim();
  if (!task) throw new UsageError('missing TASK: localharness run "what to do"');
  const provider = values.provider ?? 'ollama';
  if (provider !== 'ollama' && provider !== 'openai') throw new UsageError(`--provider must be ollama or openai, got "${provider}"`);
  const approve = values.approve ?? 'read';
  if (approve !== 'none' && approve !== 'read' && approve !== 'all') throw new UsageError(`--approve must be none, read or all, got "${approve}"`);
  const allowSensitive = !!values['allow-sensitive'];
  if (allowSensitive && approve !== 'all') throw new UsageError('--allow-sensitive only works together with --approve all');
  const numCtx = positiveInt('--num-ctx', values['num-ctx']);
  const toolProtocol = values['tool-protocol'];
  if (toolProtocol !== undefined && toolProtocol !== 'native' && toolProtocol !== 'xml' && toolProtocol !== 'auto') {
    throw new UsageError(`--tool-protocol must be native, xml or auto, got "${toolProtocol}"`);
  }
  const maxTools = positiveInt('--max-tools', values['max-tools']);
  const timeoutSeconds = positiveInt('--first-byte-timeout', values['first-byte-timeout']) ?? 300;
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
  };
}
