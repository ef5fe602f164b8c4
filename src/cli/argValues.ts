// Values of single command-line options: numbers, the retry backoff, the sandbox flags. Each bad value is a usage error.
import { parseSandboxSettings, type SandboxSettings } from '../core/sandbox/sandboxSettings';
import { UsageError } from './usageError';

export function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive whole number, got "${value}"`);
  return n;
}

/** Same range as the retry setting (0–60000 ms); unset or empty means the default. */
export function retryBackoffFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 60_000) throw new UsageError(`LOCALHARNESS_RETRY_BACKOFF_MS must be a whole number of milliseconds from 0 to 60000, got "${value}"`);
  return n;
}

/** --sandbox MODE, --allow-network, --allow-network-for PREFIX (repeatable). */
export function sandboxFlags(mode: string | undefined, network: boolean | undefined, prefixes: string[] | undefined): SandboxSettings {
  const problems: string[] = [];
  const settings = parseSandboxSettings({ mode, network: network ?? false, networkCommands: prefixes ?? [] }, problems, '--sandbox ');
  if (mode !== undefined && settings.mode !== mode) throw new UsageError(`--sandbox must be required, auto or off, got "${mode}"`);
  if (problems.length > 0 || (prefixes ?? []).some((p) => p.trim() === '')) throw new UsageError('--allow-network-for needs a command prefix, e.g. --allow-network-for "npm install"');
  if (settings.mode === 'off' && (settings.network || settings.networkCommands.length > 0)) {
    throw new UsageError('--allow-network and --allow-network-for apply to sandboxed commands; with --sandbox off every command has the network already');
  }
  return settings;
}
