// The short deadlines of model-info and embedding requests as the CLI sets them, and where it says what it is
// waiting for. LOCALHARNESS_INFO_TIMEOUT_MS / LOCALHARNESS_EMBED_TIMEOUT_MS override the defaults (15 s / 30 s).
import { UsageError } from './usageError';

export interface RequestWaits {
  infoTimeoutMs?: number;
  embedTimeoutMs?: number;
  onWaiting: (message: string) => void;
}

/** LOCALHARNESS_MAX_REPLY_CHARS: a fixed cap on one reply (default: a share of the context window). */
export function maxReplyCharsFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.LOCALHARNESS_MAX_REPLY_CHARS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1000 || n > 10_000_000) throw new UsageError(`LOCALHARNESS_MAX_REPLY_CHARS must be a whole number of characters from 1000 to 10000000, got "${raw}"`);
  return n;
}

export function requestWaits(env: NodeJS.ProcessEnv, say: (message: string) => void): RequestWaits {
  const info = msFromEnv(env, 'LOCALHARNESS_INFO_TIMEOUT_MS');
  const embed = msFromEnv(env, 'LOCALHARNESS_EMBED_TIMEOUT_MS');
  return { ...(info !== undefined && { infoTimeoutMs: info }), ...(embed !== undefined && { embedTimeoutMs: embed }), onWaiting: say };
}

function msFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100 || n > 600_000) throw new UsageError(`${name} must be a whole number of milliseconds from 100 to 600000, got "${raw}"`);
  return n;
}
