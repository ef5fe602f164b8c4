// Option values shared by the commands' parsers.
import { UsageError } from './usageError';

export function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive whole number, got "${value}"`);
  return n;
}

export function providerOf(value: string | undefined, flag = '--provider'): 'ollama' | 'openai' {
  const provider = value ?? 'ollama';
  if (provider !== 'ollama' && provider !== 'openai') throw new UsageError(`${flag} must be ollama or openai, got "${provider}"`);
  return provider;
}
