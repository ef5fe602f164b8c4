// Values of single command-line options: numbers, the kind of server, the retry backoff, the sandbox flags. Each bad
// value is a usage error.
import { parseSandboxSettings, type SandboxNames, type SandboxSettings } from '../core/sandbox/sandboxSettings';
import { parseSandboxLimits, SANDBOX_LIMIT_FLAGS, type SandboxLimits } from '../core/sandbox/sandboxLimits';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from './usageError';
import { checkApiKey, redactUrl, refuseUrlCredentials } from '../providers/endpointSecrets';

/** Upper bounds of numeric flags: a typo like `--num-ctx 99999999999` must not reach the server as is. */
export const FLAG_MAX: Readonly<Record<string, number>> = {
  '--num-ctx': 4_194_304,
  '--max-rounds': 10_000,
  '--max-tools': 1_000,
  '--first-byte-timeout': 3_600,
  '--k': 1_000,
};

export function positiveInt(name: string, value: string | undefined, max = FLAG_MAX[name] ?? Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim() === '' ? NaN : value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive whole number, got "${value}"`);
  if (n > max) throw new UsageError(`${name} must be at most ${max}, got "${value}"`);
  return n;
}

/** `--thinking-budget`: tokens, 0 for no budget. */
export function thinkingBudget(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--thinking-budget must be a whole number of tokens (0: no budget), got "${value}"`);
  return n;
}

/** Same range as the retry setting (0–60000 ms); unset or empty means the default. */
export function retryBackoffFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 60_000) throw new UsageError(`LOCALHARNESS_RETRY_BACKOFF_MS must be a whole number of milliseconds from 0 to 60000, got "${value}"`);
  return n;
}

const SANDBOX_FLAGS: SandboxNames = { mode: '--sandbox', network: '--allow-network', networkCommands: '--allow-network-for', writablePaths: '--sandbox-write', fallsBack: false };

/** --sandbox MODE, --allow-network, --allow-network-for PREFIX and --sandbox-write DIR (both repeatable). */
export function sandboxFlags(
  mode: string | undefined,
  network: boolean | undefined,
  prefixes: string[] | undefined,
  writable: string[] | undefined,
  cwd: string,
): SandboxSettings {
  const problems: string[] = [];
  // A folder on the command line is relative to where the CLI runs, like any path given to a command.
  const folders = (writable ?? []).map((w) => (w.trim() === '' || w.startsWith('~') ? w : path.resolve(cwd, w)));
  const settings = parseSandboxSettings({ mode, network: network ?? false, networkCommands: prefixes ?? [], writablePaths: folders }, problems, SANDBOX_FLAGS, os.homedir());
  if (problems.length > 0) throw new UsageError(problems[0]!);
  if (settings.mode === 'off' && (settings.network || settings.networkCommands.length > 0 || settings.writablePaths.length > 0)) {
    throw new UsageError('--allow-network, --allow-network-for and --sandbox-write apply to sandboxed commands; with --sandbox off every command can do all of it already');
  }
  return settings;
}

/** --max-processes N, --max-file-size-mb N, --max-memory-mb N (0: no limit); none given: the defaults (no field). */
export function limitFlags(values: Partial<Record<keyof SandboxLimits, string>>): { limits?: SandboxLimits } {
  if (Object.values(values).every((v) => v === undefined)) return {};
  const problems: string[] = [];
  const limits = parseSandboxLimits(values, problems, SANDBOX_LIMIT_FLAGS);
  if (problems.length > 0) throw new UsageError(problems[0]!);
  return { limits };
}

type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** A string flag's value; given but blank is a usage error. */
export function nonEmpty(values: FlagValues, name: string): string | undefined {
  const v = values[name] as string | undefined;
  if (v !== undefined && v.trim() === '') throw new UsageError(`--${name} needs a value`);
  return v;
}

export function toolProtocolOf(value: string | undefined): 'native' | 'xml' | 'auto' | undefined {
  if (value !== undefined && value !== 'native' && value !== 'xml' && value !== 'auto') throw new UsageError(`--tool-protocol must be native, xml or auto, got "${value}"`);
  return value;
}

/** --first-byte-timeout SECONDS (default 300), in milliseconds. */
export function firstByteTimeoutMs(value: string | undefined): number {
  return (positiveInt('--first-byte-timeout', value) ?? 300) * 1000;
}

export function providerOf(value: string | undefined, flag = '--provider'): 'ollama' | 'openai' {
  const provider = value ?? 'ollama';
  if (provider !== 'ollama' && provider !== 'openai') throw new UsageError(`${flag} must be ollama or openai, got "${provider}"`);
  return provider;
}

/**
 * Server addresses and the API key, checked before anything is sent: a URL that does not parse, is not http(s)
 * or carries a password, and a key with a line break, are usage errors whose message never shows the secret.
 */
export function checkEndpointInputs(values: FlagValues, env: NodeJS.ProcessEnv): void {
  for (const flag of ['base-url', 'planner-base-url', 'executor-base-url']) {
    const raw = values[flag];
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    let url: URL;
    try {
      url = new URL(raw.includes('://') ? raw : `http://${raw}`);
    } catch {
      throw new UsageError(`--${flag} "${redactUrl(raw)}" is not a URL; expected something like http://127.0.0.1:11434`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--${flag} "${redactUrl(raw)}": only http:// and https:// are supported`);
    try {
      refuseUrlCredentials(url, raw, `--${flag}`);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const key = env.LOCALHARNESS_API_KEY;
  if (key) {
    try {
      checkApiKey(key, 'LOCALHARNESS_API_KEY');
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
}
